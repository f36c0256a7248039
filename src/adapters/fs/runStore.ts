// Verifier runs stored under the dataset: `runs/<taskId>/<attemptId>/<runId>.json` with the kept output bytes
// beside it (`<runId>.stdout.log`, `<runId>.stderr.log`: the head then the tail, byte-exact). See docs/verifier.md.
// Every path goes through datasetPaths: runs/ or a run folder symlinked out is neither written nor read.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { parseRecordJson } from '../../core/json';
import type { VerifierRunRecord } from '../../core/verify/runResult';
import { DatasetFileError, listFolder, readBytes, readText, writeFileAtomicInAsync } from './datasetPaths';

export const RUNS_DIR = 'runs';
const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export class RunStoreError extends Error {}

function segment(kind: string, s: string): string {
  if (!SEGMENT_RE.test(s) || s.includes('..')) throw new RunStoreError(`${kind} "${s}" cannot name a folder under ${RUNS_DIR}/`);
  return s;
}

/** A sortable, unique run id: UTC time to the millisecond plus random hex. */
export function newRunId(now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${t}-${randomBytes(3).toString('hex')}`;
}

/** Dataset-relative folder of an attempt's runs. */
export function runFolder(taskId: string, attemptId: string): string {
  return `${RUNS_DIR}/${segment('task id', taskId)}/${segment('attempt id', attemptId)}`;
}

export interface RunLogs {
  stdout: { head: Buffer; tail: Buffer };
  stderr: { head: Buffer; tail: Buffer };
}

/** Stores a run: the logs first, the record last, so a record never points at a log that is not there. */
export async function saveRun(root: string, record: VerifierRunRecord, logs: RunLogs): Promise<VerifierRunRecord> {
  const folder = runFolder(record.taskId, record.attemptId);
  segment('run id', record.runId);
  const out: VerifierRunRecord = { ...record, stdout: { ...record.stdout }, stderr: { ...record.stderr } };
  for (const which of ['stdout', 'stderr'] as const) {
    const rel = `${folder}/${record.runId}.${which}.log`;
    const { head, tail } = logs[which];
    await writeFileAtomicInAsync(root, rel, Buffer.concat([head, tail]), { fsync: false });
    out[which].file = rel;
  }
  delete out.reused;
  await writeFileAtomicInAsync(root, `${folder}/${record.runId}.json`, `${JSON.stringify(out, null, 2)}\n`);
  return out;
}

function isRecord(v: unknown): v is VerifierRunRecord {
  const r = v as Partial<VerifierRunRecord> | null;
  return !!r && r.format === 1 && typeof r.runId === 'string' && typeof r.status === 'string' && !!r.inputs && !!r.grade;
}

/** The entries of a runs/ folder; none when it is missing or leads out of the dataset (validate reports that). */
function entries(root: string, rel: string): Array<{ name: string; dir: boolean }> {
  try {
    return listFolder(root, rel).map((e) => ({ name: e.name, dir: e.isDirectory() || e.isSymbolicLink() }));
  } catch (e) {
    if (e instanceof DatasetFileError) return [];
    throw e;
  }
}

/** An attempt's stored runs, newest first; unreadable files (damaged, foreign, symlinked out) are skipped. */
export function listRuns(root: string, taskId: string, attemptId: string): VerifierRunRecord[] {
  const folder = runFolder(taskId, attemptId);
  const names = entries(root, folder)
    .filter((e) => !e.dir && e.name.endsWith('.json') && !e.name.startsWith('.'))
    .map((e) => e.name);
  const out: VerifierRunRecord[] = [];
  for (const n of names.sort().reverse()) {
    try {
      const v = parseRecordJson(readText(root, `${folder}/${n}`));
      if (v.ok && isRecord(v.value)) out.push(v.value);
    } catch {
      // A foreign or damaged file is not a run.
    }
  }
  return out;
}

/** Every stored run of a task, by attempt id (gold and empty included), newest first. */
export function listTaskRuns(root: string, taskId: string): Map<string, VerifierRunRecord[]> {
  const out = new Map<string, VerifierRunRecord[]>();
  for (const e of entries(root, `${RUNS_DIR}/${segment('task id', taskId)}`)) {
    if (e.dir && SEGMENT_RE.test(e.name)) {
      out.set(e.name, listRuns(root, taskId, e.name));
    }
  }
  return out;
}

/** Stored runs with exactly these inputs that reached a result (infra errors are never reused), newest first. */
export function findReusable(root: string, taskId: string, attemptId: string, inputsKey: string): VerifierRunRecord[] {
  return listRuns(root, taskId, attemptId).filter((r) => r.inputs.key === inputsKey && r.status !== 'infra_error');
}

/**
 * A stored stream as text, with a line saying how many bytes were cut between the kept head and tail. Bytes that
 * are not UTF-8 show as U+FFFD; use `readRunLogBytes` for the exact bytes.
 */
export function readRunLog(root: string, record: VerifierRunRecord, which: 'stdout' | 'stderr'): string {
  const { head, tail, cutBytes } = readRunLogBytes(root, record, which);
  if (cutBytes === 0) return Buffer.concat([head, tail]).toString('utf8');
  return `${head.toString('utf8')}\n[... ${cutBytes} bytes cut ...]\n${tail.toString('utf8')}`;
}

export function readRunLogBytes(root: string, record: VerifierRunRecord, which: 'stdout' | 'stderr'): { head: Buffer; tail: Buffer; cutBytes: number } {
  const s = record[which];
  if (!s.file) return { head: Buffer.alloc(0), tail: Buffer.alloc(0), cutBytes: s.cutBytes };
  const all = readBytes(root, `${runFolder(record.taskId, record.attemptId)}/${path.basename(s.file)}`);
  return { head: all.subarray(0, s.headBytes), tail: all.subarray(s.headBytes), cutBytes: s.cutBytes };
}
