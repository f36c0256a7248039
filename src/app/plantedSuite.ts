// The planted-defect suite on disk (docs/calibration.md): copy tasks of a dataset into a new dataset, each beside
// copies whose test patch carries a planted false positive or false negative (core/probes/plant.ts), with the ground
// truth in DIR/planted.json; then score what the gold mutants (DIR/probes/<task>/mutants.json), the alternative
// solutions (DIR/probes/<task>/alternatives.json) and the review agent (`review.findings` in DIR's review log) caught. Shared by the CLI (`specweave plant`) and tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataset } from '../adapters/fs/datasetLoader';
import { kindForRead, listFolder, readBytes, readText, readTextIfExists, writeFileAtomicIn } from '../adapters/fs/datasetPaths';
import { ReviewLog } from '../adapters/fs/reviewLog';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import type { AlternativesReport } from '../core/probes/llmPatches';
import type { MutationReport } from '../core/probes/mutantReport';
import type { PlantKind, PlantOutcome, PlantedScore, PlantedTruth } from '../core/probes/plant';
import { PLANT_KINDS, plantFalseNegative, plantFalsePositive, scorePlanted } from '../core/probes/plant';
import type { FindingsRecord } from '../core/review/reducer';
import { reduceLog } from '../core/review/reducer';
import { llmProbeReportPath } from './llmProbes';
import { mutantsReportPath } from './probes';

export const PLANTED_FILE = 'planted.json';

/** A dataset that cannot be planted or scored as asked; the message names the file or task. */
export class PlantError extends Error {}

/** The task id of a task's copy with a planted defect of `kind`. */
export function plantedCopyId(task: string, kind: PlantKind): string {
  return `${task}--${kind === 'false_positive' ? 'fp' : 'fn'}`;
}

export interface PlantOptions {
  /** Task ids to plant (default: every task of the dataset). */
  tasks?: readonly string[];
  kinds?: readonly PlantKind[];
  /** The test to drop an assertion of, per task id (default: the first spec-mapped test with two or more). */
  fpTests?: Readonly<Record<string, string>>;
  now?: () => Date;
}

/** Copies the folder `rel` of `from` into `to` (files and folders; anything else, or a link out, is refused). */
function copyFolder(from: string, to: string, rel: string, toRel: string, skip: (name: string) => boolean = () => false): void {
  for (const e of listFolder(from, rel)) {
    if (skip(e.name)) continue;
    const src = `${rel}/${e.name}`;
    const dst = `${toRel}/${e.name}`;
    const kind = kindForRead(from, src);
    if (kind === 'dir') copyFolder(from, to, src, dst);
    else if (kind === 'file') writeFileAtomicIn(to, dst, readBytes(from, src), { fsync: false });
    else throw new PlantError(`${src}: ${kind === 'outside' ? 'a link out of the dataset' : 'not a file or folder'}; not copied`);
  }
}

function emptyOrMissing(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
}

/**
 * Plants defects in copies of a dataset's tasks into the new dataset `outDir` (missing or empty): each task is copied
 * unchanged (the baseline) and, for each kind it can be planted with, as `<task>--fp` / `<task>--fn`. The review log,
 * runs and probes are not copied: the new dataset has no labels. Returns the ground truth, also in DIR/planted.json.
 */
export function plantDataset(sourceRoot: string, outDir: string, o: PlantOptions = {}): PlantedTruth {
  const source = path.resolve(sourceRoot);
  const out = path.resolve(outDir);
  if (out === source || out.startsWith(source + path.sep)) throw new PlantError(`--out ${outDir} is inside the dataset it copies from`);
  if (!emptyOrMissing(out)) throw new PlantError(`--out ${outDir} exists and is not empty: nothing is overwritten`);
  const ds = loadDataset(source);
  const byId = new Map(ds.tasks.map((t) => [t.id, t]));
  const unknown = (o.tasks ?? []).filter((t) => !byId.has(t));
  if (unknown.length > 0) throw new PlantError(`no task ${unknown.map((t) => `"${t}"`).join(', ')} in ${sourceRoot}`);
  const tasks: CandidateTask[] = o.tasks && o.tasks.length > 0 ? [...new Set(o.tasks)].map((t) => byId.get(t) as CandidateTask) : ds.tasks;
  if (tasks.length === 0) throw new PlantError(`${sourceRoot} has no task to plant`);
  const kinds = o.kinds ?? PLANT_KINDS;
  fs.mkdirSync(out, { recursive: true });

  // specweave.json under a new name; its guidelines file with it.
  const manifest = JSON.parse(readText(source, 'specweave.json')) as Record<string, unknown>;
  manifest.name = `${typeof manifest.name === 'string' ? manifest.name : path.basename(source)}-planted`;
  if (typeof manifest.guidelines === 'string' && kindForRead(source, manifest.guidelines) === 'file') writeFileAtomicIn(out, manifest.guidelines, readBytes(source, manifest.guidelines), { fsync: false });
  writeFileAtomicIn(out, 'specweave.json', `${JSON.stringify(manifest, null, 2)}\n`);

  const truth: PlantedTruth = { format: 1, source, createdAt: (o.now ?? (() => new Date()))().toISOString(), planted: [], skipped: [] };
  for (const task of tasks) {
    const taskRel = task.dir;
    const relIn = (p: string) => path.posix.relative(taskRel, p);
    const testPatch = readText(source, task.files.testPatch);
    const copy = (id: string, patch?: string) => {
      const dir = `tasks/${id}`;
      copyFolder(source, out, taskRel, dir, (n) => n === 'task.json');
      const raw = JSON.parse(readText(source, task.files.task)) as Record<string, unknown>;
      raw.id = id;
      const repo = raw.repo as Record<string, unknown> | undefined;
      if (repo && typeof repo.path === 'string') repo.path = path.relative(out, path.resolve(source, repo.path)).split(path.sep).join('/');
      writeFileAtomicIn(out, `${dir}/task.json`, `${JSON.stringify(raw, null, 2)}\n`, { fsync: false });
      if (patch !== undefined) writeFileAtomicIn(out, `${dir}/${relIn(task.files.testPatch)}`, patch, { fsync: false });
    };
    copy(task.id);
    for (const kind of kinds) {
      let r: PlantOutcome;
      if (kind === 'false_positive') r = plantFalsePositive(task, testPatch, o.fpTests?.[task.id] !== undefined ? { test: o.fpTests[task.id] as string } : {});
      else {
        const gold = task.files.goldPatch ? readTextIfExists(source, task.files.goldPatch) : undefined;
        r = gold === undefined ? { ok: false, reason: 'the task has no gold patch to take an exact message from' } : plantFalseNegative(task, testPatch, gold);
      }
      if (!r.ok) {
        truth.skipped.push({ task: task.id, kind, reason: r.reason });
        continue;
      }
      const id = plantedCopyId(task.id, kind);
      if (byId.has(id)) {
        truth.skipped.push({ task: task.id, kind, reason: `the dataset already has a task ${id}` });
        continue;
      }
      copy(id, r.patch);
      truth.planted.push({ copy: id, baseline: task.id, task: task.id, ...r.defect });
    }
  }
  writeFileAtomicIn(out, PLANTED_FILE, `${JSON.stringify(truth, null, 2)}\n`);
  return truth;
}

const isStr = (v: unknown): v is string => typeof v === 'string';

/** DIR/planted.json, checked: a clear error naming the file and the entry when it is not what `plant` wrote. */
export function readPlantedTruth(dir: string): PlantedTruth {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(dir, PLANTED_FILE));
  } catch (e) {
    throw new PlantError(`${path.join(dir, PLANTED_FILE)}: ${errorText(e)}`);
  }
  const bad = (where: string) => new PlantError(`${path.join(dir, PLANTED_FILE)}: ${where} is not what specweave plant writes`);
  if (typeof raw !== 'object' || raw === null || (raw as { format?: unknown }).format !== 1) throw bad('format');
  const t = raw as PlantedTruth;
  if (!Array.isArray(t.planted) || !Array.isArray(t.skipped)) throw bad('planted / skipped');
  t.planted.forEach((d, i) => {
    if (
      typeof d !== 'object' ||
      d === null ||
      !isStr(d.copy) ||
      !isStr(d.baseline) ||
      !isStr(d.test) ||
      !PLANT_KINDS.includes(d.kind) ||
      !Array.isArray(d.specs) ||
      !d.specs.every(isStr)
    )
      throw bad(`planted[${i}]`);
  });
  return t;
}

/**
 * A task's report of `kind` under DIR/probes/, if there is one; one that cannot be read, or is not of the shape the
 * scoring uses, is an error naming the file.
 */
function readReport<T>(dir: string, taskId: string, kind: 'mutants' | 'alternatives', isReport: (r: Record<string, unknown>) => boolean): T | undefined {
  let rel: string;
  try {
    rel = kind === 'mutants' ? mutantsReportPath(taskId) : llmProbeReportPath(taskId, kind);
  } catch {
    return undefined;
  }
  const text = readTextIfExists(dir, rel);
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as Record<string, unknown> | null;
    if (typeof r !== 'object' || r === null || Array.isArray(r) || !isReport(r)) throw new Error(`not ${kind === 'mutants' ? 'a mutation report (format 1)' : 'an alternatives report (kind alternatives, alternatives: a list with failingTests)'}`);
    return r as T;
  } catch (e) {
    throw new PlantError(`${path.join(dir, rel)}: ${errorText(e)}`);
  }
}

const isMutationReport = (r: Record<string, unknown>) => r.format === 1 && Array.isArray(r.mutants) && Array.isArray(r.specs);
const isAlternativesReport = (r: Record<string, unknown>) =>
  r.kind === 'alternatives' &&
  Array.isArray(r.alternatives) &&
  r.alternatives.every((a: unknown) => typeof a === 'object' && a !== null && typeof (a as { id?: unknown }).id === 'string' && Array.isArray((a as { failingTests?: unknown }).failingTests));

/** The recall of the probes and the agent on a planted dataset (after `specweave probe` and `specweave review` on it). */
export function scorePlantedDataset(dir: string): { truth: PlantedTruth; score: PlantedScore } {
  const truth = readPlantedTruth(dir);
  const ids = new Set(truth.planted.flatMap((d) => [d.copy, d.baseline]));
  const mutants = new Map<string, MutationReport>();
  const alternatives = new Map<string, AlternativesReport>();
  for (const id of ids) {
    const m = readReport<MutationReport>(dir, id, 'mutants', isMutationReport);
    if (m) mutants.set(id, m);
    const a = readReport<AlternativesReport>(dir, id, 'alternatives', isAlternativesReport);
    if (a) alternatives.set(id, a);
  }
  const state = reduceLog(ReviewLog.forDataset(dir).load().events);
  const findings = new Map<string, readonly FindingsRecord[]>();
  for (const id of ids) {
    const st = state.tasks.get(id);
    if (st) findings.set(id, st.findings);
  }
  return { truth, score: scorePlanted(truth, { mutants, findings, alternatives }) };
}
