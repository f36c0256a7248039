// "SpecWeave: Draft Specs" (specweave.specs.draft): runs the spec drafter (src/app/specDrafter.ts) on the active task
// with progress, then opens the stored draft in the repair review (a diff of task.json, the suggested side editable;
// accept or reject as any repair suggestion). Same settings, key and trust check as the repair agent.
import * as vscode from 'vscode';
import { notify } from '../notify';
import { draftTask } from '../../app/specDrafter';
import type { DraftOutcome } from '../../app/specDrafter';
import { EndpointMemory } from '../../adapters/llm/client';
import { LlmError, VSCODE_KEY_HINT } from '../../adapters/llm/errors';
import { Redactor } from '../../adapters/llm/redact';
import type { ActiveTask } from '../activeTask';
import type { DisposableStore } from '../disposables';
import { CuratorRefusedError } from '../openDataset';
import type { OpenDataset } from '../openDataset';
import { commandRegistrar } from '../reportingCommand';
import { REPAIR_CMD, SPECS_CMD } from '../commandIds';
import { requireTrust } from '../trust';
import { repairEndpoint } from '../llmClients';

export const DRAFT_SPECS_CMD = SPECS_CMD.draft;

export interface DraftCommandDeps {
  secrets: vscode.SecretStorage;
  owner: OpenDataset;
  activeTask: ActiveTask;
  log: vscode.LogOutputChannel;
}

/** What the command resolves with (for the in-host tests). */
export type DraftCommandResult = { status: 'untrusted' | 'no-task' | 'cancelled' | 'no-key' | 'no-curator' } | DraftOutcome;

/** Registers the command into `store`; one call from the composition root. */
export function registerDraftSpecs(d: DraftCommandDeps, store: DisposableStore): void {
  const redactor = new Redactor();
  const memory = new EndpointMemory();
  const reg = commandRegistrar(store, d.log, { prefix: 'SpecWeave: ', redact: (t) => redactor.redact(t) });
  reg(DRAFT_SPECS_CMD, async (arg: unknown, forceArg: unknown): Promise<DraftCommandResult> => {
    if (!(await requireTrust('Drafting specs'))) return { status: 'untrusted' };
    const cs = d.owner.store;
    const taskId = typeof arg === 'string' ? arg : d.activeTask.taskId;
    if (!cs || !taskId || !cs.task(taskId)) {
      void notify.warn('SpecWeave: open a task first (Draft Specs works on the active task).');
      return { status: 'no-task' };
    }
    const task = cs.task(taskId);
    let force = forceArg === true;
    if (task && task.specs.length > 0 && !force) {
      const replace = 'Draft Anyway';
      const p = await notify.warn(`SpecWeave: ${taskId} has ${task.specs.length} spec(s). A draft proposes a whole new list (you review it before anything changes).`, { modal: true }, replace);
      if (p !== replace) return { status: 'cancelled' };
      force = true;
    }
    const endpoint = await repairEndpoint(d.secrets, redactor, memory, (baseUrl) => `Draft Specs for ${taskId}: no API key for ${baseUrl}.`, {
      continueWith: () => void vscode.commands.executeCommand(DRAFT_SPECS_CMD, taskId, force),
    });
    if (!endpoint) return { status: 'no-key' };
    const { settings, apiKey } = endpoint;
    let curator: string;
    try {
      curator = d.owner.requireCurator();
    } catch (e) {
      if (!(e instanceof CuratorRefusedError)) throw e;
      void notify.error(`SpecWeave: drafting specs needs your curator name: ${e.message}.`);
      return { status: 'no-curator' };
    }
    const client = endpoint.client();
    d.log.info(`draft specs ${taskId}: asking ${settings.model} at ${settings.baseUrl}`);
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Drafting specs for ${taskId}`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        try {
          return await draftTask({
            store: cs,
            taskId,
            curator,
            settings,
            ...(apiKey ? { apiKey } : {}),
            keyHint: VSCODE_KEY_HINT,
            client,
            redactor,
            force,
            signal: ac.signal,
            onLog: (l) => d.log.info(`draft specs: ${l}`),
            onProgress: (p) => progress.report({ message: `${p.phase}${p.tokens ? ` · ${p.tokens} tokens so far` : ''}` }),
          });
        } catch (e) {
          if (e instanceof LlmError && e.code === 'cancelled') return undefined;
          throw e;
        } finally {
          sub.dispose();
        }
      },
    );
    if (!outcome) return { status: 'cancelled' };
    if (outcome.status === 'failed') {
      void notify.error(`SpecWeave: no spec draft for ${taskId}: ${outcome.message}`);
      return outcome;
    }
    if (outcome.status === 'skipped') {
      void notify.warn(`SpecWeave: ${taskId} not drafted: ${outcome.message}`);
      return outcome;
    }
    await vscode.commands.executeCommand(REPAIR_CMD.review, taskId, outcome.record.id);
    const rejected = outcome.rejections.length ? ` ${outcome.rejections.length} rejected: ${outcome.rejections.map((r) => r.reason).join('; ')}.` : '';
    const [accept, reject] = ['Accept', 'Reject'];
    void notify.info(`SpecWeave: ${outcome.specs} spec(s) drafted for ${taskId}.${rejected} Review the diff of task.json, edit the suggested side if needed, then accept or reject.`, accept, reject).then((p) => {
      if (p === accept) void vscode.commands.executeCommand(REPAIR_CMD.accept, taskId, outcome.record.id);
      else if (p === reject) void vscode.commands.executeCommand(REPAIR_CMD.reject, taskId, outcome.record.id);
    });
    return outcome;
  });
}
