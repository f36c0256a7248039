// The probes feature of the task view: the "Probes" section (what the task's stored probe reports say, read through
// src/app/probeReports.ts and kept in memory per task until the dataset's watcher says probes/TASK/ changed, e.g. a
// CLI probe run), and the native diff of a probe's patch: `specweave-probe:/TASK/REPORT/ID/{gold,probe}.diff`.
// The diff is patch against patch: the gold patch on the left, the mutated (or LLM-written) patch on the right; an
// exploit of the cheat probe is a patch against the base commit, so its left side is empty. Patch against patch needs
// no clone (it works for a repository held in an image too), and a mutant keeps the gold patch's hunks, so the diff is
// exactly its one changed line in the patch's context.
import * as vscode from 'vscode';
import { notify } from '../notify';
import { readProbePatch } from '../../app/probeReports';
import { readDatasetText } from '../../adapters/fs/datasetLoader';
import { errorText } from '../../core/errorText';
import type { ProbeDiffReport } from '../../protocol/messages';
import type { DatasetService } from '../datasetService';
import type { TaskViewSection } from '../taskSections';
import { ProbeSection } from './probeSection';

export const PROBE_SCHEME = 'specweave-probe';
const REPORTS: readonly ProbeDiffReport[] = ['mutants', 'cheats', 'alternatives', 'variants'];
type Side = 'gold' | 'probe';

export function probeDocUri(taskId: string, report: ProbeDiffReport, id: string, side: Side): vscode.Uri {
  return vscode.Uri.from({ scheme: PROBE_SCHEME, path: `/${taskId}/${report}/${id}/${side}.diff` });
}

function parseProbeUri(uri: vscode.Uri): { taskId: string; report: ProbeDiffReport; id: string; side: Side } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\/([^/]+)\/(gold|probe)\.diff$/.exec(uri.path);
  if (!m || !REPORTS.includes(m[2] as ProbeDiffReport)) return undefined;
  return { taskId: m[1] as string, report: m[2] as ProbeDiffReport, id: m[3] as string, side: m[4] as Side };
}

export interface ProbesControllerDeps {
  dataset: Pick<DatasetService, 'root' | 'task' | 'onDidChange'>;
  log: Pick<vscode.LogOutputChannel, 'warn' | 'info'>;
}

export class ProbesController implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly probeSection: ProbeSection;
  private readonly docChanges = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.docChanges.event;
  readonly section: TaskViewSection;
  private readonly sub: { dispose(): void };

  constructor(private readonly d: ProbesControllerDeps) {
    this.probeSection = new ProbeSection(d.dataset);
    this.section = this.probeSection;
    this.sub = d.dataset.onDidChange((c) => {
      if (c.kind === 'probes' || c.kind === 'tasks') this.refreshDocs(c.taskIds === 'all' ? undefined : new Set(c.taskIds));
    });
  }

  dispose(): void {
    this.sub.dispose();
    this.probeSection.dispose();
    this.docChanges.dispose();
  }

  /** Opens the diff of one survivor, passing exploit, rejected alternative or surviving variant beside the panel. */
  async openDiff(taskId: string, report: ProbeDiffReport, id: string, viewColumn = vscode.ViewColumn.Beside): Promise<{ opened: boolean; message?: string }> {
    const root = this.d.dataset.root;
    if (!root || !this.d.dataset.task(taskId)) return this.refuse(`Task ${taskId} is not in the open dataset.`);
    const p = readProbePatch(root, taskId, report, id);
    if ('error' in p) return this.refuse(`Cannot show the diff of ${id}: ${p.error}`);
    const left = report === 'cheats' ? 'base commit (no change)' : 'gold patch';
    await vscode.commands.executeCommand('vscode.diff', probeDocUri(taskId, report, id, 'gold'), probeDocUri(taskId, report, id, 'probe'), `${left} ↔ ${id} · ${taskId}`, {
      preview: true,
      viewColumn,
    });
    return { opened: true };
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = parseProbeUri(uri);
    const root = this.d.dataset.root;
    if (!ref || !root) return `Not a SpecWeave probe document: ${uri.toString()}`;
    const task = this.d.dataset.task(ref.taskId);
    if (!task) return `Task ${ref.taskId} is not in the open dataset.`;
    if (ref.side === 'gold') {
      if (ref.report === 'cheats') return '';
      if (!task.files.goldPatch) return `(task ${ref.taskId} has no gold patch)`;
      try {
        return readDatasetText(root, task.files.goldPatch);
      } catch (e) {
        return `(the gold patch ${task.files.goldPatch} cannot be read: ${errorText(e)})`;
      }
    }
    const p = readProbePatch(root, ref.taskId, ref.report, ref.id);
    return 'error' in p ? `(${p.error})` : p.patch;
  }

  private refreshDocs(ids: ReadonlySet<string> | undefined): void {
    for (const doc of vscode.workspace.textDocuments) {
      const ref = doc.uri.scheme === PROBE_SCHEME ? parseProbeUri(doc.uri) : undefined;
      if (ref && (!ids || ids.has(ref.taskId))) this.docChanges.fire(doc.uri);
    }
  }

  private refuse(message: string): { opened: false; message: string } {
    void notify.warn(message);
    this.d.log.warn(message);
    return { opened: false, message };
  }
}
