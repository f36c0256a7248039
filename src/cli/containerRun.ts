// What the CLI's container commands (`verify`, `probe`) share: the engine checked before anything runs, and Ctrl-C
// cancelling the queue (its running containers are removed) instead of killing the process with them left behind.
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { Backend } from '../core/verify/backend';
import { parseBackend } from '../core/verify/backend';
import type { FlagSpec, ParsedArgs } from './args';
import { UsageError } from './args';
import type { VerifierService } from '../adapters/docker/verifyService';
import { err, one } from './output';

/** True when the service's engine answers; else prints why (naming `command`) and returns false. */
export async function engineAnswers(service: VerifierService, command: string): Promise<boolean> {
  try {
    await service.checkEngine();
    return true;
  } catch (e) {
    if (e instanceof EngineUnavailableError) {
      err(`specweave ${command}: ${one(e.message)}\n`);
      return false;
    }
    throw e;
  }
}

/** Until `dispose`, the first SIGINT cancels every job of the service's queue; `interrupted` says whether it came. */
export function cancelOnSigint(service: VerifierService): { readonly interrupted: boolean; dispose(): void } {
  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
    err('\ncancelling: removing running containers...\n');
    service.queue.cancelAll();
  };
  process.once('SIGINT', onSigint);
  return {
    get interrupted() {
      return interrupted;
    },
    dispose: () => void process.removeListener('SIGINT', onSigint),
  };
}

/** The flags of every command that runs verifier containers: where they run, and warm containers. */
export const executionFlags = {
  backend: { type: 'string', help: 'where runs execute: local (the default; pool, swarm and kubernetes are not built yet)' },
  warm: { type: 'boolean', help: 'reuse a container for the runs of one task revision, reset between runs (not for final verdicts)' },
} as const satisfies Record<string, FlagSpec>;

/** The `--backend` and `--warm` choice; a backend that is not built is a usage error naming the flag. */
export function executionOptions(a: ParsedArgs): { backend: Backend; warm: boolean } {
  const b = parseBackend(a.strings.backend, '--backend');
  if (!b.ok) throw new UsageError(b.message);
  return { backend: b.backend, warm: a.booleans.warm === true };
}
