// The LLM clients of the workbench's model features (Run Fresh Trials, the repair agent's request and the fresh trials
// of its revalidation; Draft Specs still makes its own the same way): the repair endpoint's settings
// (`specweave.repair.*`), the key from the secret storage only, the window's redactor and endpoint memory, VS Code's
// key hint. With no key for the default (OpenAI) endpoint, an error message with a "Set API Key" button is shown and
// no client is made.
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

const NO_KEY: NoKeyMessage = (baseUrl) => `no API key for ${baseUrl}. Run "SpecWeave: Set API Key" first.`;

/**
 * The repair endpoint with its key, or undefined after telling the user there is no key (the default endpoint needs
 * one; a local endpoint may not): `noKey` words that message for a feature that says more. The key joins the
 * redactor before anything can print it.
 */
export async function repairEndpoint(
  secrets: vscode.SecretStorage,
  redactor: Redactor,
  memory: EndpointMemory,
  noKey: NoKeyMessage = NO_KEY,
  o: { continueWith?: { label: string; run: () => void } } = {},
): Promise<RepairEndpoint | undefined> {
  const settings = readRepairSettings();
  const apiKey = (await secrets.get(REPAIR_KEY_SECRET))?.trim() || undefined;
  redactor.add(apiKey);
  if (!apiKey && settings.baseUrl === DEFAULT_SETTINGS.baseUrl) {
    // With `continueWith`, the button sets the key and then goes on with what was asked (nothing typed was lost: the
    // key is checked before anything is asked).
    const set = o.continueWith ? `Set API Key and ${o.continueWith.label}` : 'Set API Key';
    void vscode.window.showErrorMessage(`SpecWeave: ${noKey(settings.baseUrl)}`, set).then(async (p) => {
      if (p !== set) return;
      const stored = await vscode.commands.executeCommand<boolean>(REPAIR_CMD.setApiKey);
      if (stored === true) o.continueWith?.run();
    });
    return undefined;
  }
  return {
    settings,
    apiKey,
    client: (model) => new LlmClient({ settings: model ? { ...settings, model } : settings, ...(apiKey ? { apiKey } : {}), redactor, keyHint: VSCODE_KEY_HINT, memory }),
  };
}
