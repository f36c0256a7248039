// The LLM clients of the workbench's model features (Run Fresh Trials, the repair agent's request and the fresh trials
// of its revalidation; Draft Specs still makes its own the same way): the repair endpoint's settings
// (`specweave.repair.*`), the key from the secret storage only, the window's redactor and endpoint memory, VS Code's
// key hint. With no key for the default (OpenAI) endpoint no client is made: a notice says so with a "Set API Key"
// link (one that goes on with what was asked, when the caller says what that is), and it closes itself once a key is
// stored, by the link or from the command palette (a notification shown with showErrorMessage cannot be closed: it
// stayed on screen, stale, after the key was set).
import * as vscode from 'vscode';
import type { EndpointMemory, LlmSettings } from '../adapters/llm/client';
import { DEFAULT_SETTINGS, LlmClient } from '../adapters/llm/client';
import { VSCODE_KEY_HINT } from '../adapters/llm/errors';
import type { Redactor } from '../adapters/llm/redact';
import { REPAIR_CMD } from './commandIds';
import { readRepairSettings } from './settings';

/** Where the key of the repair endpoint is kept (the repair agent's "Set API Key" writes it). */
export const REPAIR_KEY_SECRET = 'specweave.repair.apiKey';

export interface RepairEndpoint {
  settings: LlmSettings;
  apiKey: string | undefined;
  /** A client of the endpoint for `model` (default: the repair model). */
  client(model?: string): LlmClient;
}

/** What the user is told when the default endpoint has no key (after "SpecWeave: "), given the endpoint's URL. */
export type NoKeyMessage = (baseUrl: string) => string;

const NO_KEY: NoKeyMessage = (baseUrl) => `no API key for ${baseUrl}.`;

/**
 * The notices open in this window (one extension host per window, so this module's state is the window's), by text:
 * asked again while one is open, no second notice, and the newest ask is the one its link goes on with. `id` names
 * the notice in its link.
 */
const openNotices = new Map<string, { id: number; continueWith: (() => void) | undefined }>();
let lastNoticeId = 0;

/** The repair endpoint's key as stored (trimmed), or undefined when there is none. */
async function readKey(secrets: vscode.SecretStorage): Promise<string | undefined> {
  return (await secrets.get(REPAIR_KEY_SECRET))?.trim() || undefined;
}

/** Whether the repair endpoint's secret holds a key now. */
async function hasKey(secrets: vscode.SecretStorage): Promise<boolean> {
  return (await readKey(secrets)) !== undefined;
}

/** A `command:` link of a notification (its arguments as the URI's JSON query). */
function commandLink(label: string, command: string, args: unknown[] = []): string {
  return `[${label}](command:${command}${args.length ? `?${encodeURIComponent(JSON.stringify(args))}` : ''})`;
}

/**
 * Shows "SpecWeave: <text>" with a link that sets the key (and goes on with `continueWith`, when given) until a key
 * is stored, however it is stored, or the curator cancels it: a progress notification, the one kind an extension
 * can close. Only the link goes on: a key stored from the command palette later closes the notice and starts nothing.
 */
export function showNoKeyNotice(secrets: vscode.SecretStorage, text: string, continueWith?: () => void): void {
  const open = openNotices.get(text);
  if (open) {
    open.continueWith = continueWith;
    return;
  }
  const entry = { id: ++lastNoticeId, continueWith };
  openNotices.set(text, entry);
  const link = continueWith ? commandLink('Set API Key and go on', REPAIR_CMD.setApiKeyAndContinue, [entry.id]) : commandLink('Set API Key', REPAIR_CMD.setApiKey);
  void vscode.window
    .withProgress({ location: vscode.ProgressLocation.Notification, title: 'SpecWeave', cancellable: true }, (progress, token) => {
      progress.report({ message: `${text} ${link}` });
      return new Promise<void>((resolve) => {
        const subs: vscode.Disposable[] = [];
        const done = () => {
          for (const s of subs) s.dispose();
          resolve();
        };
        subs.push(
          secrets.onDidChange((e) => {
            if (e.key === REPAIR_KEY_SECRET) void hasKey(secrets).then((k) => k && done());
          }),
          token.onCancellationRequested(done),
        );
        // A key stored between the caller's look and these subscriptions.
        void hasKey(secrets).then((k) => k && done());
      });
    })
    .then(() => {
      if (openNotices.get(text) === entry) openNotices.delete(text);
    });
}

/**
 * The link of a notice with something to go on with (`REPAIR_CMD.setApiKeyAndContinue`): asks for the key; stored,
 * the notice closes and what it was shown for goes on. Resolves whether a key is stored.
 */
export async function setApiKeyAndContinue(secrets: vscode.SecretStorage, noticeId: unknown): Promise<boolean> {
  // Taken before the key is stored: storing it closes the notice.
  const entry = [...openNotices.values()].find((e) => e.id === noticeId);
  const stored = (await vscode.commands.executeCommand<boolean>(REPAIR_CMD.setApiKey)) === true && (await hasKey(secrets));
  if (stored) entry?.continueWith?.();
  return stored;
}

/**
 * The repair endpoint with its key, or undefined after telling the user there is no key (the default endpoint needs
 * one; a local endpoint may not): `noKey` words that notice for a feature that says more, and `continueWith` is what
 * its link goes on with once the key is stored (nothing typed is lost: the key is checked before anything is asked).
 * The key joins the redactor before anything can print it.
 */
export async function repairEndpoint(
  secrets: vscode.SecretStorage,
  redactor: Redactor,
  memory: EndpointMemory,
  noKey: NoKeyMessage = NO_KEY,
  o: { continueWith?: () => void } = {},
): Promise<RepairEndpoint | undefined> {
  const settings = readRepairSettings();
  const apiKey = await readKey(secrets);
  redactor.add(apiKey);
  if (!apiKey && settings.baseUrl === DEFAULT_SETTINGS.baseUrl) {
    showNoKeyNotice(secrets, noKey(settings.baseUrl), o.continueWith);
    return undefined;
  }
  return {
    settings,
    apiKey,
    client: (model) => new LlmClient({ settings: model ? { ...settings, model } : settings, ...(apiKey ? { apiKey } : {}), redactor, keyHint: VSCODE_KEY_HINT, memory }),
  };
}
