// One way to register a command: a failure is logged and shown to the user instead of rejecting unseen.
import * as vscode from 'vscode';
import { notify } from './notify';
import type { DisposableStore } from './disposables';
import { errorText } from '../core/errorText';
import { isCommandId } from './commandIds';

export type CommandHandler = (...args: unknown[]) => unknown;

/**
 * Returns a `reg(id, fn)` that registers commands into `store`; a thrown error becomes a log line and an error
 * message (after `redact`, e.g. to keep an API key out of both) and the command resolves to undefined.
 */
export function commandRegistrar(
  store: DisposableStore,
  log: vscode.LogOutputChannel,
  opts: { prefix?: string; redact?: (text: string) => string } = {},
): (id: string, fn: CommandHandler) => void {
  const redact = opts.redact ?? ((t: string) => t);
  return (id, fn) => {
    // One command table (commandIds.ts): an id it lacks would be a command package.json does not contribute.
    if (!isCommandId(id)) throw new Error(`${id} is not in the command table (src/vscode/commandIds.ts)`);
    store.add(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await fn(...args);
        } catch (e) {
          const msg = redact(errorText(e));
          log.error(`${id}: ${msg}`);
          void notify.error(`${opts.prefix ?? ''}${msg}`);
          return undefined;
        }
      }),
    );
  };
}
