// `specweave import swebench`: reads instance rows, predictions, trajectory folders and evaluation output from disk,
// lets src/core/import pair them, and writes the dataset. Trajectories are copied as streams, never read whole.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MANIFEST_FILE, TASKS_DIR } from '../core/dataset';
import type { Problem, RecordedResult, TrajectorySummary } from '../core/model';
import { parseJson } from '../core/json';
import type { InstanceRow } from '../core/import/instances';
import { parseInstances, repoParts, sameInstance } from '../core/import/instances';
import {
  assignAttemptIds,
  attachReports,
  attemptsOfRun,
  mergeSameSolver,
  placeAttempts,
} from '../core/import/pairing';
import type { Hint, MergedPrediction, PlannedAttempt, ReportEntry, Skipped, SolverRun, TrajectoryItem, Unmatched } from '../core/import/pairing';
import { findFence } from '../core/import/fences';
import { AIDER_REASON, ignoredReason, isAiderHistory } from '../core/import/ignored';
import { readRunMetadata, RUN_METADATA_FILES } from '../core/import/runMetadata';
import type { RunMetadata } from '../core/import/runMetadata';
import { patchChecker, stripFence } from '../core/import/patchFlags';
import { parsePredictions } from '../core/import/predictions';
import type { Prediction } from '../core/import/predictions';
import {
  classifyReport,
  readHarnessLog,
  readOpenHandsLog,
  readOpenHandsSummary,
} from '../core/import/reports';
import type { CustomPatch, HarnessLog, ReportDoc, Verdict } from '../core/import/reports';
import type { AttemptSummary, ImportSummary, MergedFile, TaskSummary } from '../core/import/summary';
import { buildTask, taskIdFor } from '../core/import/toTask';
import type { AttemptDraft, TaskDraft } from '../core/serialize';
import { applyTaskFolder } from '../core/import/taskFolder';
import { loadDataset } from '../adapters/fs/datasetLoader';
import { readSwebenchTaskDirs } from '../adapters/fs/importTaskFolders';
import type { TaskFolderRow } from '../adapters/fs/importTaskFolders';
import { writeManifest, writeTask } from '../adapters/fs/datasetWriter';
import { DatasetFileError, resolveForWrite } from '../adapters/fs/datasetPaths';
import type { AttemptWrite, TrajectorySource } from '../adapters/fs/datasetWriter';

export interface ImportOptions {
  instances: string[];
  /** The SWE-bench team's per-task folders (`tasks/<id>/task.yaml` ...), read as rows (src/adapters/fs/importHarbor.ts). */
  taskDirs?: string[];
  predictions?: string[];
  trajectories?: string[];
  reports?: string[];
  /** Folder of local git clones. */
  repos?: string;
  /** Environment image; `{instance_id}`, `{repo}`, `{owner}`, `{name}`, `{swebench_id}` are expanded. */
  image?: string;
  testCmd?: string;
  out: string;
  /** Overwrite task folders that already exist in --out (else they are kept as they are). */
  replace?: boolean;
  /** Store the diff inside a patch's Markdown fence instead of the patch as written. */
  stripFences?: boolean;
}

/** What the trajectory adapter says about a file: the instances it holds, or why it is not a trajectory. */
export type TrajectoryListing =
  | {
      ok: true;
      instances: Array<{ instanceId?: string; summary: TrajectorySummary; byteRange?: [number, number] }>;
      problems: Problem[];
    }
  | { ok: false; problem: Problem };

export interface ImportDeps {
  listTrajectoryInstances(absPath: string): TrajectoryListing | Promise<TrajectoryListing>;
  /** Whether a clone has a commit; undefined when it cannot tell. Defaults to `git cat-file -e`. */
  hasCommit?(repoDir: string, commit: string): boolean | undefined;
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '__pycache__', 'llm_completions', '.venv']);
const GENERIC_DIRS = new Set([
  'logs', 'run_evaluation', 'harness_logs', 'eval_outputs', 'evaluation', 'evaluation_outputs', 'outputs', 'results', 'reports',
  'run_reports', 'swebench', 'trajectories', 'trajs', 'runs', 'run_validation',
]);

interface Walked {
  abs: string;
  /** Path as shown in reports: the given path joined with the relative part. */
  display: string;
}

/** Every file under `given` (or `given` itself), sorted, without following symlinked folders. */
function walk(given: string): Walked[] {
  const root = path.resolve(given);
  const out: Walked[] = [];
  const visit = (abs: string, display: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childAbs = path.join(abs, e.name);
      const childDisplay = path.join(display, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.') && depth < 16) visit(childAbs, childDisplay, depth + 1);
      } else if (e.isFile() || (e.isSymbolicLink() && isFile(childAbs))) out.push({ abs: childAbs, display: childDisplay });
    }
  };
  if (isFile(root)) return [{ abs: root, display: given }];
  visit(root, given, 0);
  return out;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const isPredictionsFile = (name: string) =>
  name === 'preds.json' || name === 'all_preds.jsonl' || name.endsWith('.pred') || /^(predictions|preds)([._-].*)?\.jsonl?$/.test(name) || /\.preds\.jsonl?$/.test(name);

const NOT_TRAJECTORY = /^(report|metadata|metrics|config|results|package|tsconfig|package-lock)\.json$|^(eval|patches)_.*\.json$|\.config\.json$/;

const isTrajectoryCandidate = (name: string) =>
  /\.traj$/.test(name) || ((/\.json$/.test(name) || /\.jsonl$/.test(name)) && !isPredictionsFile(name) && !NOT_TRAJECTORY.test(name));

/**
 * `<run>/<id>/<id>.traj` and `<run>/<id>/<id>.pred` live in a per-instance folder; the run is the folder above.
 * A `trajs/` or `trajectories/` folder inside a run (mini-swe-agent's `trajs/` beside `logs/`, SWE-bench
 * experiments' `trajs/`) is not the run either: the run is the folder that holds it.
 */
function runDirOf(abs: string): string {
  const parent = path.dirname(abs);
  const stem = stemOf(path.basename(abs));
  let dir = path.basename(parent) === stem ? path.dirname(parent) : parent;
  while (TRAJ_FOLDERS.has(path.basename(dir).toLowerCase()) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const TRAJ_FOLDERS = new Set(['trajs', 'trajectories']);

/** How many trajectory files are read at the same time. */
const TRAJECTORY_READS = 8;

/** `fn` over `items`, at most `limit` at a time; the results in the order of `items`. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The real path of a file or folder (symlinks and `a//b` resolved), or the absolute path when it cannot be resolved. */
function realPath(p: string, cache?: Map<string, string>): string {
  const known = cache?.get(p);
  if (known !== undefined) return known;
  let real: string;
  try {
    real = fs.realpathSync(p);
  } catch {
    real = path.resolve(p);
  }
  cache?.set(p, real);
  return real;
}

function stemOf(name: string): string {
  return name.replace(/(\.traj\.json|\.traj|\.trajectory\.json|\.pred|\.jsonl|\.json)$/, '');
}

function trajectoryFileName(item: TrajectoryItem): string {
  if (item.byteRange) return 'trajectory.json'; // one JSON document cut out of a JSON Lines file
  const base = path.basename(item.path);
  const ext = /\.traj\.json$/.test(base) ? '.traj.json' : /\.trajectory\.json$/.test(base) ? '.json' : path.extname(base) || '.json';
  return `trajectory${ext}`;
}

/** The first bytes of a file (to recognize a Markdown file), or undefined when it cannot be read. */
function readHead(file: string, bytes = 512): string | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(bytes);
      return buf.subarray(0, fs.readSync(fd, buf, 0, bytes, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function readText(file: string, problems: Problem[], maxBytes?: number): string | undefined {
  try {
    if (maxBytes !== undefined && fs.statSync(file).size > maxBytes) {
      const fd = fs.openSync(file, 'r');
      try {
        const buf = Buffer.alloc(maxBytes);
        const n = fs.readSync(fd, buf, 0, maxBytes, 0);
        return buf.subarray(0, n).toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    }
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    problems.push({ severity: 'error', file, message: `cannot read: ${(e as Error).message}` });
    return undefined;
  }
}

function defaultHasCommit(repoDir: string, commit: string): boolean | undefined {
  try {
    execFileSync('git', ['-C', repoDir, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch (e) {
    const code = (e as { status?: number | null }).status;
    return typeof code === 'number' ? false : undefined;
  }
}

class Importer {
  readonly problems: Problem[] = [];
  readonly unmatched: Unmatched[] = [];
  readonly skipped: Skipped[] = [];
  /** Files not read, with the reason; dropped at the end if another option read them after all. */
  private readonly ignoredFiles: Array<{ real: string; file: string; reason: string }> = [];
  /** Real paths of every file read as predictions, a trajectory, a report or a report's companion. */
  private readonly usedFiles = new Set<string>();
  private readonly seenReports = new Map<string, string>();
  readonly instanceFiles: ImportSummary['instanceFiles'] = [];
  readonly predictionFiles: ImportSummary['predictionFiles'] = [];
  readonly rows = new Map<string, InstanceRow>();
  private readonly alsoIn = new Map<string, string[]>();
  /** What the trajectory adapter said about each file; reported only for trajectories that become attempts. */
  readonly trajectoryProblems = new Map<string, Problem[]>();
  /** Every model name seen in predictions and trajectories, to read run-report file names. */
  readonly knownModels = new Set<string>();
  readonly mergedFiles: MergedFile[] = [];
  readonly mergedPredictions: MergedPrediction[] = [];
  /** Predictions and trajectory files read so far, by real path, with the path they were read under. */
  private readonly seenInputs = new Map<string, string>();
  /** Real paths of the solver run folders attempts came from: a report inside one belongs to its attempts. */
  readonly runRoots = new Set<string>();
  /** Metadata read per folder (real path), so a folder given to --trajectories and --reports is read once. */
  private readonly metadataByDir = new Map<string, RunMetadata>();
  /** Folders whose per-instance reports name their solver themselves (SWE-smith). */
  private readonly reportModelsByDir: Array<{ dir: string; models: string[] }> = [];
  /** Prediction files under --trajectories, by real path: a --predictions naming one is read there, with its run. */
  readonly predictionsUnderRuns = new Map<string, { display: string; root: string }>();
  /** Rows rebuilt from per-task folders, with what only the folder has. */
  readonly folderRows = new Map<string, TaskFolderRow>();

  constructor(
    private readonly opts: ImportOptions,
    private readonly deps: ImportDeps,
  ) {}

  warn(file: string, message: string, line?: number): void {
    this.problems.push({ severity: 'warning', file, ...(line !== undefined ? { line } : {}), message });
  }

  readInstances(): void {
    const sources: Array<{ file: string; text?: string; folder?: TaskFolderRow }> = this.opts.instances.map((file) => ({ file }));
    for (const d of this.opts.taskDirs ?? []) {
      const rows = readSwebenchTaskDirs(d, this.problems);
      sources.push(...rows.map((r) => ({ file: r.file, text: r.text, folder: r })));
      if (rows.length > 0) this.instanceFiles.push({ file: d, shape: 'task-folders', rows: rows.length });
    }
    for (const { file: f, text: folderText, folder } of sources) {
      if (folderText !== undefined) {
        const r = parseInstances(folderText, f);
        this.problems.push(...r.problems);
        for (const row of r.rows) {
          if (this.rows.has(row.instanceId)) {
            this.warn(f, `${row.instanceId} is also in ${this.rows.get(row.instanceId)?.file}; the first one is imported`);
            continue;
          }
          this.rows.set(row.instanceId, row);
          if (folder) this.folderRows.set(row.instanceId, folder);
        }
        continue;
      }
      if (isDir(f)) {
        this.problems.push({ severity: 'error', file: f, message: '--instances needs a file (JSONL or a JSON array), not a folder' });
        continue;
      }
      // Bytes, not text: benchmark rows come in UTF-16 too (SWE-PolyBench).
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(f);
      } catch (e) {
        this.problems.push({ severity: 'error', file: f, message: `cannot read: ${(e as Error).message}` });
        continue;
      }
      const r = parseInstances(bytes, f);
      this.problems.push(...r.problems);
      this.instanceFiles.push({ file: f, ...(r.shape ? { shape: r.shape } : {}), rows: r.rows.length });
      for (const row of r.rows) {
        const prev = this.rows.get(row.instanceId);
        if (!prev) {
          this.rows.set(row.instanceId, row);
          continue;
        }
        this.alsoIn.set(row.instanceId, [...(this.alsoIn.get(row.instanceId) ?? []), `${row.file}:${row.line}`]);
        const cmp = sameInstance(prev, row);
        if (!cmp.same) {
          this.warn(row.file, `${row.instanceId} is also in ${prev.file}:${prev.line} with a different ${cmp.differences.join(', ')}; the first one is imported`, row.line);
        }
      }
    }
  }

  /** Folder listings, once per path given (a --trajectories folder is listed for its predictions first). */
  private readonly walks = new Map<string, Walked[]>();

  walk(given: string): Walked[] {
    const known = this.walks.get(given);
    if (known) return known;
    const files = walk(given);
    this.walks.set(given, files);
    return files;
  }

  /** Real paths, resolved once per import. */
  private readonly realPaths = new Map<string, string>();

  real(p: string): string {
    return realPath(p, this.realPaths);
  }

  ignore(w: Walked, reason: string): void {
    this.ignoredFiles.push({ real: this.real(w.abs), file: w.display, reason });
  }

  use(w: Walked): void {
    this.usedFiles.add(this.real(w.abs));
  }

  /** What was not read by any option, once per file (with each option's reason when both looked at it). */
  ignored(): Array<{ file: string; reason: string }> {
    const byReal = new Map<string, { file: string; reason: string }>();
    for (const i of this.ignoredFiles) {
      if (this.usedFiles.has(i.real)) continue;
      const prev = byReal.get(i.real);
      if (!prev) byReal.set(i.real, { file: i.file, reason: i.reason });
      else if (!prev.reason.split('; ').includes(i.reason)) prev.reason = `${prev.reason}; ${i.reason}`;
    }
    return [...byReal.values()];
  }

  /** False (and recorded as merged) when this file was already read under another path. */
  private firstVisit(w: Walked, seen = this.seenInputs): boolean {
    const real = this.real(w.abs);
    const first = seen.get(real);
    if (first === undefined) {
      seen.set(real, w.display);
      return true;
    }
    this.mergedFiles.push({ file: w.display, sameAs: first, why: `the same file as ${first}${real !== path.resolve(w.abs) ? ` (both are ${real})` : ''}` });
    return false;
  }

  /** The run metadata files directly in `dir` (metadata.yaml, args.yaml, run_batch.config.yaml, metadata.json). */
  runMetadata(dir: string, displayDir: string, files: Walked[]): RunMetadata {
    const real = this.real(dir);
    const cached = this.metadataByDir.get(real);
    if (cached) return cached;
    const meta: RunMetadata = { models: [], names: [] };
    // Read from the folder itself: a run found through its trajs/ folder has its metadata one level up.
    for (const name of [...RUN_METADATA_FILES].sort()) {
      const w = { abs: path.join(dir, name), display: path.join(displayDir, name) };
      if (!isFile(w.abs)) continue;
      const text = readText(w.abs, this.problems, 4 * 1024 * 1024);
      if (text === undefined) continue;
      const r = readRunMetadata(name, text, w.display);
      this.problems.push(...r.problems);
      if (r.problems.length === 0) this.use(w);
      meta.models.push(...r.meta.models.filter((m) => !meta.models.includes(m)));
      meta.names.push(...r.meta.names.filter((m) => !meta.names.includes(m)));
    }
    if (meta.models.length === 0) {
      // `sweagent run` (one instance) writes no run_batch.config.yaml, only <id>/<id>.config.yaml with the same model.
      const perInstance = files.find((w) => /\.config\.yaml$/.test(w.abs) && path.dirname(path.dirname(w.abs)) === dir && path.basename(path.dirname(w.abs)) === path.basename(w.abs).replace(/\.config\.yaml$/, ''));
      const text = perInstance ? readText(perInstance.abs, this.problems, 4 * 1024 * 1024) : undefined;
      if (perInstance && text !== undefined) {
        const r = readRunMetadata('run_batch.config.yaml', text, perInstance.display);
        this.problems.push(...r.problems);
        if (r.problems.length === 0) this.use(perInstance);
        meta.models.push(...r.meta.models);
      }
    }
    this.metadataByDir.set(real, meta);
    return meta;
  }

  /** Notes the prediction files each --trajectories folder holds, before any --predictions file is read. */
  notePredictionsUnderRuns(roots: string[]): void {
    for (const root of roots) {
      if (!fs.existsSync(root) || isFile(root)) continue;
      for (const w of this.walk(root)) {
        const real = this.real(w.abs);
        if (isPredictionsFile(path.basename(w.abs)) && !this.predictionsUnderRuns.has(real)) this.predictionsUnderRuns.set(real, { display: w.display, root });
      }
    }
  }

  private parsePredictionsFile(w: Walked): Prediction[] {
    const text = readText(w.abs, this.problems);
    if (text === undefined) return [];
    this.use(w);
    const r = parsePredictions(text, w.display);
    this.problems.push(...r.problems);
    for (const e of r.errorEntries) {
      this.skipped.push({ kind: 'prediction', instanceId: e.instanceId, file: w.display, line: e.line, reason: `an error entry, not a prediction: ${JSON.stringify(e.error)}` });
    }
    this.predictionFiles.push({ file: w.display, ...(r.shape ? { shape: r.shape } : {}), predictions: r.predictions.length });
    return r.predictions;
  }

  /** Solver runs under a --predictions or --trajectories path. */
  async discoverRuns(given: string, explicitPredictions: boolean): Promise<SolverRun[]> {
    if (!fs.existsSync(given)) {
      this.problems.push({ severity: 'error', file: given, message: 'no such file or folder' });
      return [];
    }
    const single = isFile(given);
    if (single && (explicitPredictions || isPredictionsFile(path.basename(given)))) {
      const w = { abs: path.resolve(given), display: given };
      const inRun = explicitPredictions ? this.predictionsUnderRuns.get(this.real(w.abs)) : undefined;
      if (inRun) {
        // The run folder that holds it says more (its name, trajectories, reports): it is read there, once.
        this.mergedFiles.push({ file: given, sameAs: inRun.display, why: `also under --trajectories ${inRun.root}: read once, as part of its run folder` });
        return [];
      }
      if (!this.firstVisit(w)) return [];
      return [{ dir: given, folderName: stemOf(path.basename(given)), predictions: this.parsePredictionsFile(w), trajectories: [], loose: true }];
    }
    const files = this.walk(given).filter((w) => this.firstVisit(w));
    const predFiles = files.filter((w) => isPredictionsFile(path.basename(w.abs)));
    const trajFiles = files.filter((w) => !isPredictionsFile(path.basename(w.abs)) && isTrajectoryCandidate(path.basename(w.abs)));
    for (const w of files) {
      const name = path.basename(w.abs);
      if (isPredictionsFile(name) || isTrajectoryCandidate(name)) continue;
      this.ignore(w, ignoredReason(name, /\.md$/i.test(name) ? readHead(w.abs) : undefined, 'trajectories'));
    }
    const predRunDirs = new Set(predFiles.map((w) => (w.abs.endsWith('.pred') ? runDirOf(w.abs) : path.dirname(w.abs))));
    const groups = new Map<string, { display: string; preds: Walked[]; trajs: Walked[] }>();
    const group = (runAbs: string, w: Walked) => {
      const rel = path.relative(path.dirname(w.abs), runAbs);
      const display = path.join(path.dirname(w.display), rel);
      const g = groups.get(runAbs) ?? { display, preds: [], trajs: [] };
      groups.set(runAbs, g);
      return g;
    };
    for (const w of predFiles) group(w.abs.endsWith('.pred') ? runDirOf(w.abs) : path.dirname(w.abs), w).preds.push(w);
    for (const w of trajFiles) {
      let runAbs: string | undefined;
      for (let d = path.dirname(w.abs); ; d = path.dirname(d)) {
        if (predRunDirs.has(d)) {
          runAbs = d;
          break;
        }
        if (d === path.dirname(d) || !d.startsWith(path.resolve(given))) break;
      }
      group(runAbs ?? runDirOf(w.abs), w).trajs.push(w);
    }
    const runs: SolverRun[] = [];
    for (const [runAbs, g] of [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      // Aggregate files (preds.json) first: SWE-agent also writes one <id>.pred per instance with the same content.
      // all_preds.jsonl and preds.json may both be there too. A prediction is its instance, model and patch bytes
      // (SWE-agent's null in .pred is preds.json's ""): the second copy is noted and dropped.
      const ordered = [...g.preds].sort((a, b) => Number(a.abs.endsWith('.pred')) - Number(b.abs.endsWith('.pred')));
      const predictions: Prediction[] = [];
      const seen = new Map<string, Prediction>();
      for (const w of ordered) {
        for (const p of this.parsePredictionsFile(w)) {
          const key = `${p.instanceId}\u0000${p.model ?? ''}\u0000${p.patch}`;
          const first = seen.get(key);
          if (first) {
            this.mergedPredictions.push({ instanceId: p.instanceId, model: p.model ?? '', kept: `${first.file}:${first.line}`, dropped: `${p.file}:${p.line}` });
            continue;
          }
          seen.set(key, p);
          predictions.push(p);
        }
      }
      const trajectories: TrajectoryItem[] = [];
      // Many small files: read several at once (each read is a stream; the order of the results is kept).
      for (const items of await mapLimit(g.trajs, TRAJECTORY_READS, (w) => this.listTrajectories(w, single))) trajectories.push(...items);
      const meta = single ? undefined : this.runMetadata(runAbs, g.display, files);
      runs.push({
        dir: g.display,
        folderName: path.basename(runAbs),
        ...(single ? {} : { root: this.real(runAbs) }),
        ...(meta && meta.models.length > 0 ? { metadataModels: meta.models } : {}),
        ...(meta && meta.names.length > 0 ? { metadataNames: meta.names } : {}),
        predictions,
        trajectories,
      });
    }
    return runs;
  }

  private async listTrajectories(w: Walked, explicit: boolean): Promise<TrajectoryItem[]> {
    let listing: TrajectoryListing;
    try {
      listing = await this.deps.listTrajectoryInstances(w.abs);
    } catch (e) {
      this.problems.push({ severity: 'error', file: w.display, message: `cannot read the trajectory: ${(e as Error).message}` });
      return [];
    }
    if (!listing.ok) {
      if (explicit) this.problems.push({ ...listing.problem, file: w.display });
      else this.ignore(w, listing.problem.message);
      return [];
    }
    this.use(w);
    this.trajectoryProblems.set(w.abs, listing.problems.map((p) => ({ ...p, file: w.display, severity: 'warning' })));
    const out: TrajectoryItem[] = [];
    for (const inst of listing.instances) {
      const format = inst.summary.format;
      // SWE-agent may keep the instance id only in the file name (`<id>.traj`, `<id>/<id>.traj.json`).
      const byName = listing.instances.length === 1 && /^(swe-agent|swe-agent-retry|mini-swe-agent)$/.test(format) ? stemOf(path.basename(w.abs)) : undefined;
      const instanceId = inst.instanceId ?? inst.summary.instanceId ?? byName;
      if (!instanceId) {
        this.unmatched.push({ kind: 'trajectory', file: w.display, reason: `the trajectory (${format}) names no instance` });
        continue;
      }
      out.push({ path: w.abs, display: w.display, ...(inst.byteRange ? { byteRange: inst.byteRange } : {}), summary: inst.summary, instanceId });
    }
    return out;
  }

  /** Recorded results from evaluation output under a --reports path. */
  collectReports(given: string): ReportEntry[] {
    if (!fs.existsSync(given)) {
      this.problems.push({ severity: 'error', file: given, message: 'no such file or folder' });
      return [];
    }
    const rootAbs = path.resolve(given);
    const rootIsFile = isFile(rootAbs);
    // A file read as predictions or a trajectory (the same run folder given to --trajectories) is not read again.
    const files = this.walk(given).filter((w) => this.firstVisit(w, this.seenReports) && !this.usedFiles.has(this.real(w.abs)));
    const byFolder = new Map<string, Walked[]>();
    for (const w of files) {
      const d = path.dirname(w.abs);
      byFolder.set(d, [...(byFolder.get(d) ?? []), w]);
    }
    const known = new Set(this.rows.keys());
    const entries: ReportEntry[] = [];
    const runReports: Array<{ dir: string; hints: Hint[]; from: number; to: number }> = [];
    const metadataHints = new Map<string, string[]>();
    for (const [dir, list] of byFolder) {
      const first = list.find((w) => RUN_METADATA_FILES.has(path.basename(w.abs)));
      if (!first) continue;
      const m = this.runMetadata(dir, path.dirname(first.display), list);
      metadataHints.set(dir, [...m.models, ...m.names]);
    }
    const metaFor = (dir: string): string[] => {
      for (let d = dir; ; d = path.dirname(d)) {
        // Metadata read with the run's trajectories (the folder given to --trajectories too) counts here as well.
        const cached = this.metadataByDir.get(this.real(d));
        const m = metadataHints.get(d) ?? (cached ? [...cached.models, ...cached.names] : undefined);
        if (m && m.length > 0) return m;
        if (d === rootAbs || d === path.dirname(d) || !d.startsWith(rootIsFile ? path.dirname(rootAbs) : rootAbs)) return [];
      }
    };

    for (const [dir, list] of [...byFolder.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      // Folder names from the given root's own name down: the solver and the instance are often only named there.
      const segBase = rootIsFile ? path.dirname(path.dirname(rootAbs)) : path.dirname(rootAbs);
      const relSegs = path.relative(segBase, dir).split(path.sep).filter((s) => s && s !== '..');
      const verdicts: Array<{ instanceId?: string; verdict: Verdict; file: string }> = [];
      const runDocs: Array<{ doc: Extract<ReportDoc, { kind: 'run-report' }>; file: string; stem: string }> = [];
      let harness: { log: HarnessLog; file: string } | undefined;
      let patch: { text: string; from: string } | undefined;
      let custom: { c: CustomPatch; file: string } | undefined;
      let patchDiff: Walked | undefined;
      const validation = relSegs.includes('run_validation');
      let goldValidation = false;
      const reportModels: string[] = [];
      for (const w of list) {
        const name = path.basename(w.abs);
        if (RUN_METADATA_FILES.has(name)) continue;
        if (name === 'run_instance.log') {
          const text = readText(w.abs, this.problems, 8 * 1024 * 1024);
          if (text !== undefined) {
            harness = { log: readHarnessLog(text), file: w.display };
            this.use(w);
          }
        } else if (/^instance_.*\.log$/.test(name)) {
          const text = readText(w.abs, this.problems, 64 * 1024 * 1024);
          if (text === undefined) continue;
          const r = readOpenHandsLog(text);
          if (r.entries.length === 0) this.ignore(w, r.error ?? 'no report in this log');
          else this.use(w);
          for (const e of r.entries) verdicts.push({ ...(e.instanceId ? { instanceId: e.instanceId } : {}), verdict: e.verdict, file: w.display });
        } else if (name === 'patch.diff') {
          patchDiff = w;
        } else if (isPredictionsFile(name)) {
          this.ignore(w, 'a predictions file: read with --predictions or --trajectories');
        } else if (name.endsWith('.json')) {
          const text = readText(w.abs, this.problems);
          if (text === undefined) continue;
          const parsed = parseJson(text, w.display);
          if (!parsed.ok) {
            this.problems.push(parsed.problem);
            continue;
          }
          const doc = classifyReport(parsed.value);
          if (doc.kind !== 'unknown') this.use(w);
          if (doc.kind === 'instance-report' || doc.kind === 'custom-eval' || doc.kind === 'gold-validation') {
            if (doc.kind === 'gold-validation') goldValidation = true;
            for (const e of doc.entries) {
              verdicts.push({ ...(e.instanceId ? { instanceId: e.instanceId } : {}), verdict: e.verdict, file: w.display });
              if ('model' in e && e.model) reportModels.push(e.model);
            }
          } else if (doc.kind === 'run-report') runDocs.push({ doc, file: w.display, stem: name.replace(/\.json$/, '') });
          else if (doc.kind === 'custom-patch') custom = { c: doc.patch, file: w.display };
          else this.ignore(w, doc.reason);
        } else if (name.endsWith('.md')) {
          const text = readText(w.abs, this.problems);
          if (text === undefined) continue;
          if (isAiderHistory(name, text.slice(0, 512))) {
            this.ignore(w, AIDER_REASON);
            continue;
          }
          const doc = readOpenHandsSummary(text);
          if (doc.kind === 'run-report') {
            runDocs.push({ doc, file: w.display, stem: name.replace(/\.md$/, '') });
            this.use(w);
          } else this.ignore(w, doc.reason);
        } else {
          this.ignore(w, ignoredReason(name, undefined, 'reports'));
        }
      }
      if (patchDiff) {
        const text = readText(patchDiff.abs, this.problems);
        if (text !== undefined) {
          patch = { text, from: patchDiff.display };
          this.use(patchDiff);
        }
      }
      if (!patch && custom) patch = { text: custom.c.patch, from: `${custom.file} (its "patch")` };
      if (verdicts.length === 0 && harness && (harness.log.modelDir !== undefined || harness.log.patchApplied !== undefined)) {
        // The harness wrote no report.json: the instance errored (most often, its patch did not apply).
        verdicts.push({
          ...(harness.log.instanceId ? { instanceId: harness.log.instanceId } : {}),
          verdict: {
            imported: true,
            source: 'swebench-harness-log',
            status: 'error',
            resolved: false,
            ...(harness.log.patchApplied !== undefined ? { patchApplied: harness.log.patchApplied } : {}),
          },
          file: harness.file,
        });
        if (harness.log.applyError) this.warn(harness.file, `${harness.log.instanceId ?? 'instance'}: the patch did not apply (${harness.log.applyError})`);
      }
      if (verdicts.length === 0 && patchDiff) {
        this.usedFiles.delete(this.real(patchDiff.abs));
        this.ignore(patchDiff, 'a patch.diff with no report or harness log beside it');
      }
      if (patchDiff && (goldValidation || validation)) {
        // SWE-smith's validation applies the bug: its patch.diff is no solver's patch.
        this.usedFiles.delete(this.real(patchDiff.abs));
        this.ignore(patchDiff, 'the patch a gold validation run applied: not an attempt');
      }

      const folderInstance = this.instanceFromPath(relSegs, known);
      const hints: Hint[] = [...reportModels.map((m) => ({ name: m, exact: true })), ...this.folderHints(relSegs, folderInstance, harness?.log, metaFor(dir), custom?.c)];
      const runRoot = this.runRootOf(dir);
      // A gold run: SWE-bench's model folder "gold" (`--predictions_path gold`), SWE-smith's run_validation.
      const gold = goldValidation || (validation && verdicts.length > 0) || hints.some((h) => h.exact && !h.run && h.name.toLowerCase() === 'gold');
      if (reportModels.length > 0) this.reportModelsByDir.push({ dir, models: reportModels });
      for (const v of verdicts) {
        const instanceId = v.instanceId ?? harness?.log.instanceId ?? custom?.c.instanceId ?? folderInstance;
        if (!instanceId) {
          this.ignoredFiles.push({ real: v.file, file: v.file, reason: 'a report that names no instance (not in the report, its log or its path)' });
          continue;
        }
        entries.push({
          instanceId,
          hints,
          verdict: v.verdict,
          file: v.file,
          level: 'instance',
          ...(runRoot ? { runRoot } : {}),
          ...(gold ? { gold: true } : {}),
          ...(patch && !gold ? { patch } : {}),
          ...(custom?.c.agent ? { agent: custom.c.agent } : {}),
          ...(custom?.c.costUsd !== undefined ? { costUsd: custom.c.costUsd } : {}),
          ...(custom?.c.tokens ? { tokens: custom.c.tokens } : {}),
          ...(custom?.c.rawOutput ? { trajectoryText: { fileName: 'trajectory.jsonl', content: custom.c.rawOutput, from: `${custom.file} (its "raw_output")` } } : {}),
        });
      }
      for (const r of runDocs) {
        const runHints: Hint[] = [];
        // `<model with / as __>.<run_id>.json`, where both parts may hold dots: try every split.
        for (let i = r.stem.indexOf('.'); i > 0; i = r.stem.indexOf('.', i + 1)) runHints.push({ name: r.stem.slice(0, i), exact: true });
        // The split that names a model seen elsewhere comes first: it is the one shown for unmatched verdicts.
        const known = [...this.knownModels].map((m) => m.toLowerCase().replace(/\//g, '__'));
        runHints.sort((x, y) => Number(known.includes(y.name.toLowerCase())) - Number(known.includes(x.name.toLowerCase())));
        runHints.push({ name: r.stem, exact: false });
        for (const m of metaFor(dir)) runHints.push({ name: m, exact: true });
        // Folder names as for a per-instance report, but none of them is the instance.
        for (const h of this.folderHints(relSegs, undefined, undefined, [], undefined)) runHints.push(h);
        const runRoot = this.runRootOf(dir);
        const gold = validation || runHints.some((h) => h.exact && h.name.toLowerCase() === 'gold');
        const at = entries.length;
        for (const e of r.doc.entries) {
          if (!e.instanceId) continue;
          entries.push({ instanceId: e.instanceId, hints: runHints, verdict: e.verdict, file: r.file, level: 'run', ...(runRoot ? { runRoot } : {}), ...(gold ? { gold: true } : {}) });
        }
        runReports.push({ dir, hints: runHints, from: at, to: entries.length });
      }
    }
    // A run summary names no solver (SWE-smith's report.json): the per-instance reports in its folder do.
    for (const r of runReports) {
      const models = new Set(this.reportModelsByDir.filter((x) => x.dir.startsWith(r.dir + path.sep)).flatMap((x) => x.models));
      if (models.size === 1) r.hints.unshift({ name: [...models][0] as string, exact: true });
    }
    return entries;
  }

  /** The nearest solver run folder (of an imported attempt) that holds `dir`. */
  private runRootOf(dir: string): string | undefined {
    if (this.runRoots.size === 0) return undefined;
    for (let d = this.real(dir); ; d = path.dirname(d)) {
      if (this.runRoots.has(d)) return d;
      if (d === path.dirname(d)) return undefined;
    }
  }

  private instanceFromPath(segs: string[], known: Set<string>): string | undefined {
    for (let i = segs.length - 1; i >= 0; i--) if (known.has(segs[i] as string)) return segs[i];
    for (let i = segs.length - 1; i >= 0; i--) {
      const s = segs[i] as string;
      if (/^[A-Za-z0-9][\w.-]*__[\w.-]+-\d+$/.test(s)) return s;
    }
    return undefined;
  }

  private folderHints(segs: string[], instanceId: string | undefined, log: HarnessLog | undefined, meta: string[], custom: CustomPatch | undefined): Hint[] {
    const hints: Hint[] = [];
    if (log?.modelDir) hints.push({ name: log.modelDir, exact: true });
    if (log?.runId) hints.push({ name: log.runId, exact: true, run: true });
    for (const m of meta) hints.push({ name: m, exact: true });
    if (custom?.agent && custom.model) hints.push({ name: `${custom.agent}/${custom.model}`, exact: true });
    const at = instanceId ? segs.lastIndexOf(instanceId) : -1;
    const specific = (s: string | undefined): s is string => s !== undefined && !GENERIC_DIRS.has(s.toLowerCase());
    const parent = at >= 1 ? segs[at - 1] : undefined;
    const grand = at >= 2 ? segs[at - 2] : undefined;
    if (at === segs.length - 1 && grand === 'run_evaluation' && specific(parent)) {
      // SWE-smith's layout: logs/run_evaluation/<run_id>/<instance_id>/ has no model folder.
      hints.push({ name: parent, exact: true, run: true });
    } else if (at === segs.length - 1 && at >= 3 && segs[at - 3] === 'run_evaluation' && specific(parent)) {
      // SWE-bench's layout: logs/run_evaluation/<run_id>/<model>/<instance_id>/
      hints.push({ name: parent, exact: true });
      if (specific(grand)) hints.push({ name: grand, exact: true, run: true });
    }
    for (let i = segs.length - 1; i >= 0; i--) {
      const s = segs[i] as string;
      if (i === at || GENERIC_DIRS.has(s.toLowerCase())) continue;
      hints.push({ name: s, exact: false });
    }
    return hints;
  }

  /** The task's repository: a local clone under --repos, else the image's own copy. */
  repoFor(row: InstanceRow, outAbs: string): { repo: TaskDraft['repo']; notes: string[] } {
    const notes: string[] = [];
    const inImage = (): TaskDraft['repo'] => ({ name: row.repo, inImage: true, ...(row.baseCommit ? { baseCommit: row.baseCommit } : row.flavor === 'swe-smith' ? { baseCommit: row.instanceId } : {}) });
    if (!this.opts.repos) {
      this.unmatched.push({ kind: 'instance', instanceId: row.instanceId, file: row.file, line: row.line, reason: `no repository clone for ${row.repo} (no --repos given): the task expects the repository in its image` });
      return { repo: inImage(), notes };
    }
    const { owner, name } = repoParts(row.repo);
    const base = path.resolve(this.opts.repos);
    const tried = [...(owner ? [path.join(base, `${owner}__${name}`), path.join(base, owner, name)] : []), path.join(base, name)];
    const clone = tried.find((c) => fs.existsSync(path.join(c, '.git')));
    if (!clone) {
      this.unmatched.push({
        kind: 'instance',
        instanceId: row.instanceId,
        file: row.file,
        line: row.line,
        reason: `no repository clone for ${row.repo} (looked for ${tried.map((t) => path.relative(base, t)).join(', ')} under ${this.opts.repos}): the task expects the repository in its image`,
      });
      return { repo: inImage(), notes };
    }
    if (!row.baseCommit) {
      this.warn(row.file, `${row.instanceId}: the row has no base_commit, so the clone at ${clone} cannot be used; the task expects the repository in its image`, row.line);
      return { repo: inImage(), notes };
    }
    const rel = path.relative(outAbs, clone);
    const repoPath = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : clone;
    const has = (this.deps.hasCommit ?? defaultHasCommit)(clone, row.baseCommit);
    if (has === false) {
      this.warn(row.file, `${row.instanceId}: the clone at ${clone} lacks base commit ${row.baseCommit}; fetch it before running the verifier`, row.line);
      notes.push(`The clone at ${repoPath} lacked base commit ${row.baseCommit} when the task was imported.`);
    }
    return { repo: { name: row.repo, path: repoPath, baseCommit: row.baseCommit }, notes };
  }

  alsoInOf(id: string): string[] {
    return this.alsoIn.get(id) ?? [];
  }
}

/** Runs the whole import; problems are values in the summary, only programming errors throw. */
export async function importSwebench(opts: ImportOptions, deps: ImportDeps): Promise<ImportSummary> {
  const imp = new Importer(opts, deps);
  const outAbs = path.resolve(opts.out);
  const summary = (tasks: TaskSummary[]): ImportSummary => finish(imp, outAbs, tasks);

  let existing = false;
  if (fs.existsSync(outAbs)) {
    if (!isDir(outAbs)) {
      imp.problems.push({ severity: 'error', file: opts.out, message: '--out is a file; it must be a new or empty folder, or a SpecWeave dataset' });
      return summary([]);
    }
    existing = fs.existsSync(path.join(outAbs, MANIFEST_FILE));
    if (!existing && fs.readdirSync(outAbs).length > 0) {
      imp.problems.push({ severity: 'error', file: opts.out, message: '--out is a folder that is neither empty nor a SpecWeave dataset (no specweave.json); nothing was written' });
      return summary([]);
    }
    // Nothing is written through a symlink under the dataset (datasetPaths): say so before reading any input.
    for (const rel of [MANIFEST_FILE, TASKS_DIR]) {
      try {
        resolveForWrite(outAbs, rel);
      } catch (e) {
        if (!(e instanceof DatasetFileError)) throw e;
        imp.problems.push({ severity: 'error', file: path.join(opts.out, e.file), message: `${e.detail}; nothing was written` });
        return summary([]);
      }
    }
  }

  imp.readInstances();
  if (imp.rows.size === 0) {
    imp.problems.push({ severity: 'error', file: [...opts.instances, ...(opts.taskDirs ?? [])].join(', ') || '--instances', message: 'no instance row could be read; nothing was written' });
    return summary([]);
  }

  const runs: SolverRun[] = [];
  imp.notePredictionsUnderRuns(opts.trajectories ?? []);
  for (const p of opts.predictions ?? []) runs.push(...(await imp.discoverRuns(p, true)));
  for (const t of opts.trajectories ?? []) runs.push(...(await imp.discoverRuns(t, false)));
  const planned: PlannedAttempt[] = [];
  for (const run of runs) {
    const r = attemptsOfRun(run);
    for (const w of r.warnings) imp.warn(w.file, w.message, w.line);
    planned.push(...r.attempts);
  }
  const placed = placeAttempts(planned, imp.rows);
  imp.unmatched.push(...placed.unmatched);
  imp.skipped.push(...placed.skipped);
  const merged = mergeSameSolver(placed.kept);
  imp.mergedPredictions.push(...merged.merged);
  for (const a of merged.attempts) if (a.runRoot !== undefined) imp.runRoots.add(a.runRoot);
  for (const a of merged.attempts) imp.knownModels.add(a.model);
  const reported = new Set<string>();
  for (const a of merged.attempts) {
    if (!a.trajectory || reported.has(a.trajectory.path)) continue;
    reported.add(a.trajectory.path);
    imp.problems.push(...(imp.trajectoryProblems.get(a.trajectory.path) ?? []));
  }

  const reportEntries: ReportEntry[] = [];
  for (const r of opts.reports ?? []) reportEntries.push(...imp.collectReports(r));
  const attached = attachReports(merged.attempts, reportEntries, imp.rows);
  imp.unmatched.push(...attached.unmatched);
  for (const a of attached.attached) if (a.note) imp.warn(a.entry.file, `${a.entry.instanceId}: ${a.note}`);
  const attempts = [...merged.attempts, ...attached.created];
  assignAttemptIds(attempts);
  const attemptsByInstance = new Map<string, PlannedAttempt[]>();
  for (const a of attempts) attemptsByInstance.set(a.instanceId, [...(attemptsByInstance.get(a.instanceId) ?? []), a]);
  const goldResults = new Map<string, RecordedResult[]>();
  for (const g of attached.gold) goldResults.set(g.instanceId, [...(goldResults.get(g.instanceId) ?? []), g.result]);

  if (!existing) {
    writeManifest(outAbs, {
      format: 1,
      name: path.basename(outAbs),
      description: 'Imported from SWE-bench-style rows by `specweave import swebench`.',
      // SWE-bench's images hold the repository in /testbed, and its harness allows 30 minutes per instance.
      defaults: { workdir: '/testbed', timeoutSec: 1800 },
    });
  }

  const tasks: TaskSummary[] = [];
  const usedTaskIds = new Map<string, string>();
  for (const row of imp.rows.values()) {
    const taskId = taskIdFor(row.instanceId);
    const clash = usedTaskIds.get(taskId);
    if (clash) {
      imp.problems.push({ severity: 'error', file: row.file, line: row.line, message: `${row.instanceId} and ${clash} both become task "${taskId}"; ${row.instanceId} is skipped` });
      continue;
    }
    usedTaskIds.set(taskId, row.instanceId);
    const { repo, notes } = imp.repoFor(row, outAbs);
    const alsoIn = imp.alsoInOf(row.instanceId);
    const built = buildTask({
      row,
      repo,
      ...(opts.image !== undefined ? { image: opts.image } : {}),
      ...(opts.testCmd !== undefined ? { testCmd: opts.testCmd } : {}),
      ...(alsoIn.length > 0 ? { alsoIn } : {}),
      notes,
    });
    if ('error' in built) {
      const n = attempts.filter((a) => a.instanceId === row.instanceId).length;
      imp.problems.push({ severity: 'error', file: row.file, line: row.line, message: `${row.instanceId}: ${built.error}${n > 0 ? ` (its ${n} attempt(s) are not imported)` : ''}` });
      continue;
    }
    // A per-task folder's own eval script, image, Dockerfile, split and assets.
    const folder = imp.folderRows.get(row.instanceId);
    const folderFiles: Array<{ path: string; copyFrom: string }> = [];
    if (folder) {
      const applied = applyTaskFolder(built, folder.extras, { imageGiven: opts.image !== undefined });
      for (const w of applied.warnings) built.warnings.push(w);
      for (const c of applied.copy) folderFiles.push({ path: c.to, copyFrom: path.join(folder.abs, ...c.from.split('/')) });
    }
    for (const w of built.warnings) imp.warn(row.file, `${row.instanceId}: ${w}`, row.line);
    // Verdicts on the gold patch (a gold validation run) belong to the task's gold probe, not to an attempt.
    const gold = goldResults.get(row.instanceId) ?? [];
    if (gold.length > 0) {
      built.task.source = { ...built.task.source, goldResults: gold };
      built.task.notes = [
        ...(built.task.notes ?? []),
        `The gold patch: ${gold.length} recorded result(s) from an earlier validation run (${[...new Set(gold.map((g) => g.source))].join(', ')}) are kept in source.goldResults.`,
      ];
    }
    const mine = (attemptsByInstance.get(row.instanceId) ?? []).sort((x, y) => ((x.id ?? '') < (y.id ?? '') ? -1 : 1));
    const check = patchChecker(built.goldPatch, built.testPatch);
    const attemptSummaries: AttemptSummary[] = [];
    const writes: AttemptWrite[] = [];
    for (const a of mine) {
      let fence: AttemptSummary['fence'];
      const before: string[] = [];
      if (opts.stripFences) {
        const s = stripFence(a.patch, a.patchFrom);
        if (s.fence && s.flag) {
          a.patch = s.patch;
          before.push(s.flag);
          fence = { open: s.fence.open.line, close: s.fence.close.line, stripped: true };
        }
      } else {
        const f = findFence(a.patch);
        if (f) fence = { open: f.open.line, close: f.close.line, stripped: false };
      }
      const flags = [...before, ...check(a.patch)];
      for (const f of flags) {
        const m = /^(.*):(\d+)$/.exec(a.patchFrom);
        imp.warn(m ? (m[1] as string) : a.patchFrom, `${row.instanceId}, attempt ${a.id}: ${f}`, m ? Number(m[2]) : undefined);
        built.task.notes = [...(built.task.notes ?? []), `Attempt ${a.id} (${a.model}): ${f}.`];
      }
      const trajectory = trajectorySource(a);
      writes.push({ id: a.id as string, meta: attemptMeta(a), patch: a.patch, ...(trajectory ? { trajectory } : {}) });
      attemptSummaries.push({
        id: a.id as string,
        model: a.model,
        agent: a.agent,
        run: a.run,
        patchFrom: a.patchFrom,
        patchBytes: Buffer.byteLength(a.patch, 'utf8'),
        ...(fence ? { fence } : {}),
        ...(a.trajectory
          ? { trajectory: { from: a.trajectory.display, format: a.trajectory.summary.format, ...(a.trajectory.byteRange ? { byteRange: a.trajectory.byteRange } : {}) } }
          : a.trajectoryText
            ? { trajectory: { from: a.trajectoryText.from } }
            : {}),
        recordedResults: a.recorded.map(shortResult),
        flags,
      });
    }
    const taskDir = path.join(outAbs, TASKS_DIR, built.task.id);
    const exists = fs.existsSync(taskDir);
    let status: TaskSummary['status'] = exists ? 'replaced' : 'written';
    if (exists && !opts.replace) {
      status = 'kept';
      imp.warn(path.join(opts.out, TASKS_DIR, built.task.id), `${row.instanceId}: the task folder exists and was left as it is (pass --replace to overwrite it)`);
    } else {
      try {
        await writeTask(outAbs, {
          task: built.task,
          request: built.request,
          testPatch: built.testPatch,
          ...(built.goldPatch !== undefined ? { goldPatch: built.goldPatch } : {}),
          attempts: writes,
          ...(folderFiles.length > 0 ? { files: folderFiles } : {}),
        });
      } catch (e) {
        // The task's folder is a symlink (or became one): refused, the other tasks go on.
        if (!(e instanceof DatasetFileError)) throw e;
        imp.problems.push({ severity: 'error', file: path.join(opts.out, e.file), message: `${e.detail}; ${row.instanceId} was not written` });
        continue;
      }
    }
    tasks.push({
      id: built.task.id,
      instanceId: row.instanceId,
      status,
      from: { file: row.file, line: row.line },
      repo: 'path' in repo ? { name: repo.name, kind: 'git', path: repo.path, baseCommit: repo.baseCommit } : { name: repo.name, kind: 'image', ...(repo.baseCommit ? { baseCommit: repo.baseCommit } : {}) },
      ...(built.task.environment?.image ? { image: built.task.environment.image } : {}),
      tests: { failToPass: built.task.tests.filter((t) => t.kind === 'fail_to_pass').length, passToPass: built.task.tests.filter((t) => t.kind === 'pass_to_pass').length },
      verifier: { command: built.verifier.command, from: built.verifier.from },
      ...(gold.length > 0 && status !== 'kept' ? { gold: { recordedResults: gold.map(shortResult) } } : {}),
      attempts: status === 'kept' ? [] : attemptSummaries,
    });
  }
  if (opts.image === undefined && tasks.some((t) => !t.image)) {
    imp.warn('--image', 'no --image given: tasks without an image of their own get none (set one with --image, e.g. "swebench/sweb.eval.x86_64.{swebench_id}:latest", or defaults.image in specweave.json)');
  }

  // Read back what was written, the way every other command will: the import must produce a valid dataset.
  const written = tasks.filter((t) => t.status !== 'kept').map((t) => t.id);
  if (written.length > 0) {
    const check = loadDataset(outAbs, { deep: true, only: written });
    for (const p of check.problems) if (p.severity === 'error') imp.problems.push({ ...p, message: `in the written dataset: ${p.message}` });
  }
  return summary(tasks);
}

function shortResult(r: RecordedResult): AttemptSummary['recordedResults'][number] {
  return {
    source: r.source,
    file: r.file,
    ...(r.status !== undefined ? { status: r.status } : {}),
    ...(r.resolved !== undefined ? { resolved: r.resolved } : {}),
    ...(r.patchApplied !== undefined ? { patchApplied: r.patchApplied } : {}),
    ...(r.detail !== undefined ? { detail: r.detail } : {}),
  };
}

function trajectorySource(a: PlannedAttempt): TrajectorySource | undefined {
  if (a.trajectory) {
    const fileName = trajectoryFileName(a.trajectory);
    return { fileName, copyFrom: a.trajectory.path, ...(a.trajectory.byteRange ? { byteRange: a.trajectory.byteRange } : {}) };
  }
  if (a.trajectoryText) return { fileName: a.trajectoryText.fileName, content: a.trajectoryText.content };
  return undefined;
}

function attemptMeta(a: PlannedAttempt): AttemptDraft {
  const tokens = a.tokens
    ? {
        ...(a.tokens.input !== undefined && a.tokens.input >= 0 ? { input: Math.round(a.tokens.input) } : {}),
        ...(a.tokens.output !== undefined && a.tokens.output >= 0 ? { output: Math.round(a.tokens.output) } : {}),
      }
    : undefined;
  return {
    model: a.model || 'unknown',
    ...(a.agent ? { agent: a.agent } : {}),
    run: a.run,
    ...(a.costUsd !== undefined && Number.isFinite(a.costUsd) && a.costUsd >= 0 ? { costUsd: a.costUsd } : {}),
    ...(tokens && Object.keys(tokens).length > 0 ? { tokens } : {}),
    ...(a.claimed ? { claimed: a.claimed } : {}),
    ...(a.recorded.length > 0 ? { recordedResults: a.recorded } : {}),
  };
}

function finish(imp: Importer, outAbs: string, tasks: TaskSummary[]): ImportSummary {
  return {
    out: outAbs,
    instanceFiles: imp.instanceFiles,
    predictionFiles: imp.predictionFiles,
    tasks,
    unmatched: imp.unmatched,
    skipped: imp.skipped,
    merged: { files: imp.mergedFiles, predictions: imp.mergedPredictions },
    ignored: imp.ignored(),
    problems: imp.problems,
    counts: {
      tasks: tasks.filter((t) => t.status !== 'kept').length,
      attempts: tasks.reduce((n, t) => n + t.attempts.length, 0),
      recordedResults: tasks.reduce((n, t) => n + t.attempts.reduce((m, a) => m + a.recordedResults.length, 0), 0),
      unmatched: imp.unmatched.length,
      skipped: imp.skipped.length,
      merged: imp.mergedFiles.length + imp.mergedPredictions.length,
      errors: imp.problems.filter((p) => p.severity === 'error').length,
      warnings: imp.problems.filter((p) => p.severity === 'warning').length,
    },
  };
}
