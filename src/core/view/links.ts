// Deep links into the workbench: the query of `vscode://<extension>/open?…` for a task, an attempt, a trajectory
// step, a hunk of a patch or a line of a verifier run's log, and back. Pure; the URI handler (vscode/
// datasetSearchPick.ts) opens what a parsed link names.
import type { EvidenceLinkView } from '../../protocol/messages';

export type LinkTarget =
  | { task: string; attempt?: string; step?: number }
  | { task: string; evidence: Extract<EvidenceLinkView, { kind: 'diff_hunk' | 'log_line' }> };

const NAT = /^\d{1,9}$/;

/** The query string of a link (without `?`). */
export function linkQuery(t: LinkTarget): string {
  const q = new URLSearchParams({ task: t.task });
  if ('evidence' in t) {
    const e = t.evidence;
    if (e.kind === 'diff_hunk') {
      q.set('patch', e.patch);
      if (e.patch === 'attempt' && e.attempt !== undefined) q.set('attempt', e.attempt);
      q.set('file', e.file);
      q.set('hunk', String(e.hunk));
    } else {
      q.set('run', e.run);
      q.set('line', String(e.line));
      if (e.stream) q.set('stream', e.stream);
    }
    return q.toString();
  }
  if (t.attempt !== undefined) q.set('attempt', t.attempt);
  if (t.attempt !== undefined && t.step !== undefined) q.set('step', String(t.step));
  return q.toString();
}

/** What a link's query names, or why it names nothing the workbench can open. */
export function parseLinkQuery(query: string): { ok: true; target: LinkTarget } | { ok: false; message: string } {
  const q = new URLSearchParams(query);
  const task = q.get('task');
  if (!task) return { ok: false, message: 'the link names no task (…/open?task=ID)' };
  const hunk = q.get('hunk');
  const line = q.get('line');
  if (hunk !== null || q.has('file') || q.has('patch')) {
    const patch = q.get('patch') ?? 'attempt';
    const file = q.get('file');
    const attempt = q.get('attempt') ?? undefined;
    if (patch !== 'attempt' && patch !== 'gold' && patch !== 'tests') return { ok: false, message: `the link's patch "${patch.slice(0, 40)}" is not attempt, gold or tests` };
    if (!file) return { ok: false, message: 'the link names a hunk but no file (&file=PATH)' };
    if (hunk === null || !NAT.test(hunk)) return { ok: false, message: 'the link names a file but no hunk number (&hunk=N, from 0)' };
    if (patch === 'attempt' && !attempt) return { ok: false, message: "the link names a hunk of an attempt's patch but not the attempt (&attempt=ID)" };
    const evidence: Extract<EvidenceLinkView, { kind: 'diff_hunk' }> = { kind: 'diff_hunk', patch, ...(patch === 'attempt' ? { attempt } : {}), file, hunk: Number(hunk) };
    return { ok: true, target: { task, evidence } };
  }
  if (line !== null || q.has('run')) {
    const run = q.get('run');
    const stream = q.get('stream');
    if (!run) return { ok: false, message: 'the link names a log line but no run (&run=ID)' };
    if (line === null || !NAT.test(line) || Number(line) < 1) return { ok: false, message: 'the link names a run but no line (&line=N, from 1)' };
    if (stream !== null && stream !== 'stdout' && stream !== 'stderr') return { ok: false, message: `the link's stream "${stream.slice(0, 40)}" is not stdout or stderr` };
    return { ok: true, target: { task, evidence: { kind: 'log_line', run, line: Number(line), ...(stream === 'stderr' ? { stream } : {}) } } };
  }
  const attempt = q.get('attempt') ?? undefined;
  const step = q.get('step');
  if (step !== null && !NAT.test(step)) return { ok: false, message: `the link's step "${step.slice(0, 40)}" is not a number` };
  return { ok: true, target: { task, ...(attempt !== undefined ? { attempt } : {}), ...(attempt !== undefined && step !== null ? { step: Number(step) } : {}) } };
}
