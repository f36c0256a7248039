// Reads a task's stored probe reports (DATASET/probes/TASK/*.json, docs/probes.md) for the views, through
// datasetPaths (a symlink out of the dataset is refused, not followed): the text of each, missing, or the reason it
// could not be read. What they say is core's (src/core/view/probesView.ts).
import { readTextIfExists } from '../adapters/fs/datasetPaths';
import { errorText } from '../core/errorText';
import { PROBE_REPORT_FILES, buildProbesView, probePatchOf } from '../core/view/probesView';
import type { ProbeReportName, ProbeReportText } from '../core/view/probesView';
import type { CandidateTask } from '../core/model';
import type { ProbeDiffReport, ProbesView } from '../protocol/messages';
import { PROBES_DIR } from './probes';

const SEGMENT_RE = /^[A-Za-z0-9._-]+$/;

/** The folder of a task's reports, or undefined for an id that cannot name one (such a task has none). */
export function probeFolder(taskId: string): string | undefined {
  return SEGMENT_RE.test(taskId) && !taskId.includes('..') ? `${PROBES_DIR}/${taskId}` : undefined;
}

export function readProbeReport(root: string, taskId: string, name: ProbeReportName): ProbeReportText {
  const dir = probeFolder(taskId);
  const file = `${dir ?? `${PROBES_DIR}/?`}/${PROBE_REPORT_FILES[name]}`;
  if (!dir) return { file, readError: `task id ${JSON.stringify(taskId.slice(0, 80))} cannot name a folder under ${PROBES_DIR}/` };
  try {
    const text = readTextIfExists(root, file);
    return text === undefined ? { file } : { file, text };
  } catch (e) {
    return { file, readError: errorText(e) };
  }
}

/** The Probes part of a task's view, as its reports are on disk now. */
export function readProbesView(root: string, task: Pick<CandidateTask, 'id' | 'tests'> & Partial<Pick<CandidateTask, 'specs'>>): ProbesView {
  const names = Object.keys(PROBE_REPORT_FILES) as ProbeReportName[];
  const found = Object.fromEntries(names.map((n) => [n, readProbeReport(root, task.id, n)])) as Record<ProbeReportName, ProbeReportText>;
  return buildProbesView(task, found);
}

/** The patch of one survivor, passing exploit, alternative or variant, read from its report now. */
export function readProbePatch(root: string, taskId: string, report: ProbeDiffReport, id: string): { patch: string; file: string } | { error: string } {
  const r = readProbeReport(root, taskId, report);
  if (r.readError !== undefined) return { error: `${r.file}: ${r.readError}` };
  if (r.text === undefined) return { error: `${r.file} is not there (the task was not probed, or the report was removed)` };
  const p = probePatchOf(r.text, r.file, report, id);
  return 'error' in p ? p : { patch: p.patch, file: r.file };
}
