// The LLM clients of the workbench's model features (fresh solver trials today; the repair agent and Draft Specs make
// theirs the same way): the repair endpoint's settings (`specweave.repair.*`), the key from the secret storage only,
// the window's redactor and endpoint memory, VS Code's key hint. With no key for the default (OpenAI) endpoint, the
// repair agent's message is shown, with its "Set API Key" button, and no client is made.
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

/**
 * The repair endpoint with its key, or undefined after telling the user there is no key (the default endpoint needs
 * one; a local endpoint may not). The key joins the redactor before anything can print it.
 */
export async function repairEndpoint(secrets: vscode.SecretStorage, redactor: Redactor, memory: EndpointMemory): Promise<RepairEndpoint | undefined> {
  const settings = readRepairSettings();
  const apiKey = (await secrets.get(REPAIR_KEY_SECRET))?.trim() || undefined;
  redactor.add(apiKey);
  if (!apiKey && settings.baseUrl === DEFAULT_SETTINGS.baseUrl) {
    const set = 'Set API Key';
    void vscode.window.showErrorMessage(`SpecWeave: no API key for ${settings.baseUrl}. Run "SpecWeave: Set API Key" first.`, set).then((p) => {
      if (p === set) void vscode.commands.executeCommand(REPAIR_CMD.setApiKey);
    });
    return undefined;
  }
  return {
    settings,
    apiKey,
    client: (model) => new LlmClient({ settings: model ? { ...settings, model } : settings, ...(apiKey ? { apiKey } : {}), redactor, keyHint: VSCODE_KEY_HINT, memory }),
  };
}
