// Read-only virtual documents of stored verifier runs: `specweave-run:/<taskId>/<runId>/<attemptId>.log` (so the
// editor tab reads `<attemptId>.log`) shows the run's header, the driver's report, stdout and stderr as stored under
// the dataset's runs/ folder.
import * as vscode from 'vscode';
import { listRuns, readRunLog } from '../../adapters/fs/runStore';
import type { RunLogDocument } from '../../core/view/results';
import { runLogDocument } from '../../core/view/results';
import type { VerifierRunRecord } from '../../core/verify/runResult';
import { errorText } from '../../core/errorText';

export const RUN_LOG_SCHEME = 'specweave-run';

export function runLogUri(taskId: string, attemptId: string, runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_LOG_SCHEME, path: `/${taskId}/${runId}/${attemptId}.log` });
}

/** The task, run and attempt a run log URI names. */
export function parseRunLogUri(uri: vscode.Uri): { taskId: string; attemptId: string; runId: string } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\/([^/]+)\.log$/.exec(uri.path);
  return m ? { taskId: m[1] as string, runId: m[2] as string, attemptId: m[3] as string } : undefined;
}

export class RunLogDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  /** Composed texts by URI: a run never changes once stored, so they stay valid while the dataset is open. */
  private readonly cache = new Map<string, RunLogDocument>();

  constructor(private readonly root: () => string | undefined) {}

  /** The composed log of a run, or an explanation when it cannot be read. */
  compose(uri: vscode.Uri, record?: VerifierRunRecord): RunLogDocument {
    const key = uri.toString();
    const hit = this.cache.get(key);
    if (hit) return hit;
    const root = this.root();
    const id = parseRunLogUri(uri);
    if (!root || !id) return { text: 'No dataset is open: this run log cannot be read.\n', stdoutLine: 0, stdoutLines: 0, stderrLines: 0 };
    let r = record;
    try {
      r ??= listRuns(root, id.taskId, id.attemptId).find((x) => x.runId === id.runId);
      if (!r) return { text: `Run ${id.runId} of ${id.taskId}/${id.attemptId} is not stored under ${root}/runs.\n`, stdoutLine: 0, stdoutLines: 0, stderrLines: 0 };
      const doc = runLogDocument(r, readRunLog(root, r, 'stdout'), readRunLog(root, r, 'stderr'));
      if (this.cache.size > 50) this.cache.clear();
      this.cache.set(key, doc);
      return doc;
    } catch (e) {
      return { text: `The log of run ${id.runId} cannot be read: ${errorText(e)}\n`, stdoutLine: 0, stdoutLines: 0, stderrLines: 0 };
    }
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.compose(uri).text;
  }

  /** Forgets composed texts (the dataset closed or changed). */
  clear(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.cache.clear();
    this.emitter.dispose();
  }
}
