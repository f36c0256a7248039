// Following the evidence links the webview cannot show itself: a line of a verifier run's log, a hunk of a patch.
// Both open the file in an editor with the place selected. Trajectory steps, tests and specs are shown by the webview.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolveDatasetPath } from '../../adapters/fs/datasetLoader';
import { kindForRead, listFolder, readText } from '../../adapters/fs/datasetPaths';
import { RUNS_DIR } from '../../adapters/fs/runStore';
import type { CandidateTask } from '../../core/model';
import { hunkLines } from '../../core/view/reviewView';
import type { EvidenceLinkView } from '../../protocol/messages';
import type { DiffDocuments } from '../diffDocuments';
import { errorText } from '../../core/errorText';

type Opened = { opened: boolean; message?: string };

/** The stored log of run `run` of a task: runs/<task>/<attempt>/<run>.<stream>.log, whichever attempt it belongs to. */
export function findRunLog(root: string, taskId: string, run: string, stream: 'stdout' | 'stderr'): string | undefined {
  // Through datasetPaths: a runs/ folder (or run) symlinked out of the dataset is not opened.
  const dir = `${RUNS_DIR}/${taskId}`;
  let attempts: string[];
  try {
    attempts = listFolder(root, dir).map((e) => e.name);
  } catch {
    return undefined;
  }
  const name = `${path.basename(run)}.${stream}.log`;
  for (const a of attempts) {
    const rel = `${dir}/${a}/${name}`;
    try {
      if (kindForRead(root, rel) === 'file') return resolveDatasetPath(root, rel);
    } catch {
      // an unsafe name is no log
    }
  }
  return undefined;
}

/** The patch file a diff-hunk link names, relative to the dataset. */
export function hunkPatchFile(task: CandidateTask, link: Extract<EvidenceLinkView, { kind: 'diff_hunk' }>): string | undefined {
  if (link.patch === 'tests') return task.files.testPatch;
  if (link.patch === 'gold') return task.files.goldPatch;
  return task.attempts.find((a) => a.id === link.attempt)?.patchFile;
}

async function showAt(file: string, from: number, to: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const last = Math.max(0, Math.min(to, doc.lineCount) - 1);
  const first = Math.max(0, Math.min(from, doc.lineCount) - 1);
  const range = new vscode.Range(first, 0, last, doc.lineAt(last).text.length);
  const editor = await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside, selection: range });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
}

export async function openEvidence(o: { root: string | undefined; task: CandidateTask | undefined; diffs: DiffDocuments }, link: EvidenceLinkView): Promise<Opened> {
  const { root, task } = o;
  if (!root || !task) return { opened: false, message: 'The task is not in the open dataset.' };
  switch (link.kind) {
    case 'log_line': {
      const stream = link.stream ?? 'stdout';
      const file = findRunLog(root, task.id, link.run, stream);
      if (!file) return { opened: false, message: `The ${stream} log of run ${link.run} is not stored with this task (runs/${task.id}/…).` };
      await showAt(file, link.line, link.line);
      return { opened: true, message: `Opened line ${link.line} of the ${stream} of run ${link.run}.` };
    }
    case 'diff_hunk': {
      const rel = hunkPatchFile(task, link);
      if (!rel) return { opened: false, message: `The ${link.patch === 'attempt' ? `attempt ${link.attempt ?? '?'}` : link.patch} patch does not exist.` };
      let abs: string;
      let text: string;
      try {
        abs = resolveDatasetPath(root, rel);
        text = readText(root, rel);
      } catch (e) {
        return { opened: false, message: `Cannot read ${rel}: ${errorText(e)}` };
      }
      const lines = hunkLines(text, link.file, link.hunk);
      if (!lines) return { opened: false, message: `${rel} has no hunk ${link.hunk} in ${link.file}.` };
      await showAt(abs, lines.from, lines.to);
      return { opened: true, message: `Opened hunk ${link.hunk} of ${link.file} in ${rel}.` };
    }
    case 'test': {
      const r = await o.diffs.openTest(task.id, link.test, vscode.ViewColumn.Beside);
      return r;
    }
    default:
      return { opened: false, message: 'The task view shows this link itself.' };
  }
}
