// `specweave import harbor`: reads Harbor / Terminal-Bench 2 task folders and Harbor job outputs from disk, lets
// src/core/import/harbor.ts turn them into drafts, and writes them through the dataset writer. Folders are walked
// without following symlinks; trajectories are copied as streams.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AddedFile } from '../core/addedFiles';
import { MANIFEST_FILE, TASKS_DIR } from '../core/dataset';
import type { Problem } from '../core/model';
import { GOLD_PROBE } from '../core/model';
import {
  HARBOR_NO_SPECS_NOTE,
  harborTask,
  harborTrial,
  probeOf,
  trajectoryPreference,
  trialAttemptIds,
  trialVerdict,
} from '../core/import/harbor';
import type { EnvironmentFile, HarborTaskDraft, HarborTrial } from '../core/import/harbor';
import { MAX_FILE_BYTES, SKIP, UnreadableFileError, isDir, isFile, listFiles, readText, readTextIf } from '../adapters/fs/importTaskFolders';
import { loadDataset } from '../adapters/fs/datasetLoader';
import { writeManifest, writeTask } from '../adapters/fs/datasetWriter';
import type { AttemptWrite } from '../adapters/fs/datasetWriter';
import type { ImportDeps, TrajectoryListing } from './importSwebench';

/** sha256 of a file, read in chunks (build contexts can be large). */
function fileSha256(abs: string): string {
  const fd = fs.openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    const h = createHash('sha256');
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
    }
    return h.digest('hex');
  } finally {
    fs.closeSync(fd);
  }
}

// ---- Harbor ------------------------------------------------------------------------------------------------------

export interface HarborImportOptions {
  taskDirs: string[];
  jobs?: string[];
  out: string;
  replace?: boolean;
}

export interface HarborAttemptSummary {
  id: string;
  trial: string;
  model: string;
  agent: string;
  run: string;
  verdict: { status: string; reward?: number; detail?: string };
  trajectory?: { from: string; format?: string };
  /** Other logs of the same run (the agent's native log when the ATIF copy is used, or the other way round). */
  skippedTrajectories: string[];
}

export interface HarborTaskSummary {
  id: string;
  name: string;
  from: string;
  status: 'written' | 'replaced' | 'kept';
  image?: string;
  dockerfile?: string;
  workdir: string;
  timeoutSec: number;
  verifier: { command: string; parser: string; goldCommand?: string };
  gold: boolean;
  tests: { failToPass: number; passToPass: number };
  notes: string[];
  attempts: HarborAttemptSummary[];
}

/** What `specweave import harbor` reports; `--json` prints it (docs/import.md). */
export interface HarborImportSummary {
  out: string;
  taskDirs: Array<{ dir: string; tasks: number }>;
  jobDirs: Array<{ dir: string; trials: number }>;
  tasks: HarborTaskSummary[];
  unmatched: Array<{ kind: 'trial'; file: string; taskName: string; reason: string }>;
  skipped: Array<{ kind: 'trial' | 'trajectory'; file: string; reason: string }>;
  ignored: Array<{ file: string; reason: string }>;
  problems: Problem[];
  counts: { tasks: number; attempts: number; recordedResults: number; unmatched: number; skipped: number; errors: number; warnings: number };
}

interface FoundTask {
  abs: string;
  display: string;
}

/** The Harbor task folders a TASK_DIR names: itself, or its sub-folders holding a task.toml. */
function findTasks(given: string, problems: Problem[]): FoundTask[] {
  const root = path.resolve(given);
  if (!isDir(root)) {
    problems.push({ severity: 'error', file: given, message: isFile(root) ? 'a Harbor task is a folder (holding task.toml), not a file' : 'no such folder' });
    return [];
  }
  if (isFile(path.join(root, 'task.toml'))) return [{ abs: root, display: given }];
  const out: FoundTask[] = [];
  for (const e of fs.readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory() && isFile(path.join(root, e.name, 'task.toml'))) out.push({ abs: path.join(root, e.name), display: path.join(given, e.name) });
  }
  if (out.length > 0) return out;
  if (isFile(path.join(root, 'task.yaml'))) {
    let text = '';
    try {
      text = readText(path.join(root, 'task.yaml'));
    } catch {
      // Named below as what it is not; its contents only refine the message.
    }
    const what = /^instruction:/m.test(text)
      ? 'a Terminal-Bench 1 task (task.yaml with its instruction); Harbor reads Terminal-Bench 2 folders (task.toml): convert it with Harbor\'s terminal-bench adapter first'
      : "a SWE-bench per-task folder (task.yaml); import it with specweave import swebench --task-dirs";
    problems.push({ severity: 'error', file: path.join(given, 'task.yaml'), message: `not a Harbor task: ${what}` });
    return [];
  }
  problems.push({ severity: 'error', file: given, message: 'no Harbor task here: neither this folder nor its sub-folders hold a task.toml' });
  return [];
}

function readAdded(dir: string, problems: Problem[], display: string): AddedFile[] | undefined {
  if (!isDir(dir)) return undefined;
  const files: AddedFile[] = [];
  for (const f of listFiles(dir, (rel, why) => problems.push({ severity: 'warning', file: `${display}/${rel}`, message: `${why}; it is left out of the patch` }))) {
    const size = fs.statSync(f.abs).size;
    if (size > MAX_FILE_BYTES) {
      problems.push({ severity: 'error', file: `${display}/${f.rel}`, message: `${size} bytes: files over ${MAX_FILE_BYTES} bytes are not put into a patch; the task is skipped` });
      return undefined;
    }
    files.push({ path: f.rel, content: fs.readFileSync(f.abs), executable: (fs.statSync(f.abs).mode & 0o111) !== 0 });
  }
  return files;
}

/** A folder holding a result.json: a trial (the job it belongs to is its parent), or a job's own summary. */
interface FoundTrial {
  abs: string;
  display: string;
  job: string;
}

/** The trial folders under a JOB_DIR (a job, a folder of jobs, or one trial). */
function findTrials(given: string, problems: Problem[]): FoundTrial[] {
  const root = path.resolve(given);
  if (!isDir(root)) {
    problems.push({ severity: 'error', file: given, message: isFile(root) ? 'a Harbor job is a folder (of trial folders), not a file' : 'no such folder' });
    return [];
  }
  const out: FoundTrial[] = [];
  const visit = (abs: string, display: string, depth: number) => {
    if (isFile(path.join(abs, 'result.json'))) {
      out.push({ abs, display, job: path.basename(path.dirname(abs)) });
      // A trial's own folders hold agent logs, not more trials; a job's folder holds its trials.
      if (isDir(path.join(abs, 'agent')) || isDir(path.join(abs, 'verifier')) || isFile(path.join(abs, 'trial.log'))) return;
    }
    if (depth >= 3) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.')) visit(path.join(abs, e.name), path.join(display, e.name), depth + 1);
    }
  };
  visit(root, given, 0);
  return out;
}

class HarborImporter {
  readonly problems: Problem[] = [];
  readonly unmatched: HarborImportSummary['unmatched'] = [];
  readonly skipped: HarborImportSummary['skipped'] = [];
  readonly ignored: HarborImportSummary['ignored'] = [];

  constructor(private readonly deps: ImportDeps) {}

  warn(file: string, message: string): void {
    this.problems.push({ severity: 'warning', file, message });
  }

  readTask(t: FoundTask): { draft: HarborTaskDraft; abs: string; display: string } | undefined {
    return this.guarded(t.display, t.abs, 'task', () => this.readTaskFiles(t));
  }

  private readTaskFiles(t: FoundTask): { draft: HarborTaskDraft; abs: string; display: string } | undefined {
    const envDir = path.join(t.abs, 'environment');
    let environment: { files: EnvironmentFile[]; dockerfile?: string } | undefined;
    if (isDir(envDir)) {
      const files = listFiles(envDir, (rel, why) => this.warn(`${t.display}/environment/${rel}`, `${why}; it is not copied`));
      environment = {
        files: files.map((f) => ({ path: f.rel, size: fs.statSync(f.abs).size, sha256: fileSha256(f.abs) })),
        ...(isFile(path.join(envDir, 'Dockerfile')) ? { dockerfile: readText(path.join(envDir, 'Dockerfile')) } : {}),
      };
    }
    const before = this.problems.length;
    const tests = readAdded(path.join(t.abs, 'tests'), this.problems, `${t.display}/tests`);
    const solution = readAdded(path.join(t.abs, 'solution'), this.problems, `${t.display}/solution`);
    if (this.problems.slice(before).some((p) => p.severity === 'error')) return undefined;
    const instruction = readTextIf(path.join(t.abs, 'instruction.md'));
    const r = harborTask({
      dir: t.display,
      folderName: path.basename(t.abs),
      taskToml: readText(path.join(t.abs, 'task.toml')),
      ...(instruction !== undefined ? { instruction } : {}),
      ...(environment ? { environment } : {}),
      ...(tests ? { tests } : {}),
      ...(solution ? { solution } : {}),
      entries: fs.readdirSync(t.abs),
    });
    if (!r.ok) {
      this.problems.push(...r.problems);
      return undefined;
    }
    for (const w of r.draft.warnings) this.warn(t.display, w);
    return { draft: r.draft, abs: t.abs, display: t.display };
  }

  /** A file that cannot be read skips its task or trial, named as an error. */
  guarded<T>(display: string, abs: string, what: string, f: () => T): T | undefined {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof UnreadableFileError)) throw e;
      this.problems.push({ severity: 'error', file: path.join(display, path.relative(abs, e.file)), message: `${e.message}; the ${what} is skipped` });
      return undefined;
    }
  }

  readTrial(t: FoundTrial): HarborTrial | undefined {
    return this.guarded(t.display, t.abs, 'trial', () => this.readTrialFiles(t));
  }

  private readTrialFiles(t: FoundTrial): HarborTrial | undefined {
    const rewardTxt = readTextIf(path.join(t.abs, 'verifier', 'reward.txt'));
    const rewardJson = readTextIf(path.join(t.abs, 'verifier', 'reward.json'));
    const r = harborTrial({
      dir: t.display,
      job: t.job,
      resultJson: readText(path.join(t.abs, 'result.json')),
      ...(rewardTxt !== undefined ? { rewardTxt } : {}),
      ...(rewardJson !== undefined ? { rewardJson } : {}),
    });
    if (r.ok) {
      for (const w of r.trial.warnings) this.warn(r.trial.resultFile, w);
      return r.trial;
    }
    if (r.notTrial) this.ignored.push({ file: path.join(t.display, 'result.json'), reason: r.reason });
    else this.problems.push(r.problem);
    return undefined;
  }

  /** The trial's trajectory: Harbor's ATIF copy when the reader reads it, else the agent's native log. */
  async trajectoryOf(t: FoundTrial): Promise<{ chosen?: { abs: string; display: string; format?: string }; skipped: string[] }> {
    const agentDir = path.join(t.abs, 'agent');
    const files = isDir(agentDir) ? listFiles(agentDir, () => undefined).map((f) => f.rel) : [];
    let chosen: { abs: string; display: string; format?: string } | undefined;
    const skipped: string[] = [];
    for (const rel of trajectoryPreference(files)) {
      const abs = path.join(agentDir, ...rel.split('/'));
      const display = path.join(t.display, 'agent', rel);
      let listing: TrajectoryListing;
      try {
        listing = await this.deps.listTrajectoryInstances(abs);
      } catch (e) {
        this.problems.push({ severity: 'warning', file: display, message: `cannot read the trajectory: ${(e as Error).message}` });
        continue;
      }
      if (!listing.ok) {
        this.ignored.push({ file: display, reason: listing.problem.message });
        continue;
      }
      const format = listing.instances[0]?.summary.format;
      if (!chosen) chosen = { abs, display, ...(format ? { format } : {}) };
      else {
        skipped.push(display);
        this.skipped.push({ kind: 'trajectory', file: display, reason: `the same run as ${chosen.display} (Harbor keeps the agent's own log and its ATIF conversion); one is imported` });
      }
    }
    return { ...(chosen ? { chosen } : {}), skipped };
  }
}

function trajectoryName(abs: string): string {
  const base = path.basename(abs);
  const ext = /\.traj\.json$/.test(base) ? '.traj.json' : path.extname(base) || '.json';
  return `trajectory${ext}`;
}

/** Runs the whole Harbor import; problems are values in the summary, only programming errors throw. */
export async function importHarbor(opts: HarborImportOptions, deps: ImportDeps): Promise<HarborImportSummary> {
  const imp = new HarborImporter(deps);
  const outAbs = path.resolve(opts.out);
  const taskDirs: HarborImportSummary['taskDirs'] = [];
  const jobDirs: HarborImportSummary['jobDirs'] = [];
  const finish = (tasks: HarborTaskSummary[]): HarborImportSummary => ({
    out: outAbs,
    taskDirs,
    jobDirs,
    tasks,
    unmatched: imp.unmatched,
    skipped: imp.skipped,
    ignored: imp.ignored,
    problems: imp.problems,
    counts: {
      tasks: tasks.filter((t) => t.status !== 'kept').length,
      attempts: tasks.reduce((n, t) => n + t.attempts.length, 0),
      recordedResults: tasks.reduce((n, t) => n + t.attempts.length, 0),
      unmatched: imp.unmatched.length,
      skipped: imp.skipped.length,
      errors: imp.problems.filter((p) => p.severity === 'error').length,
      warnings: imp.problems.filter((p) => p.severity === 'warning').length,
    },
  });

  let existing = false;
  if (fs.existsSync(outAbs)) {
    if (!isDir(outAbs)) {
      imp.problems.push({ severity: 'error', file: opts.out, message: '--out is a file; it must be a new or empty folder, or a SpecWeave dataset' });
      return finish([]);
    }
    existing = fs.existsSync(path.join(outAbs, MANIFEST_FILE));
    if (!existing && fs.readdirSync(outAbs).length > 0) {
      imp.problems.push({ severity: 'error', file: opts.out, message: '--out is a folder that is neither empty nor a SpecWeave dataset (no specweave.json); nothing was written' });
      return finish([]);
    }
  }

  const drafts: Array<{ draft: HarborTaskDraft; abs: string; display: string }> = [];
  for (const given of opts.taskDirs) {
    const found = findTasks(given, imp.problems);
    let n = 0;
    for (const t of found) {
      const d = imp.readTask(t);
      if (d) {
        drafts.push(d);
        n++;
      }
    }
    taskDirs.push({ dir: given, tasks: n });
  }
  // Two folders giving one task id: the first wins.
  const byId = new Map<string, (typeof drafts)[number]>();
  for (const d of drafts) {
    const prev = byId.get(d.draft.task.id);
    if (prev) imp.problems.push({ severity: 'error', file: d.display, message: `task ${d.draft.task.id} is also ${prev.display}; this one is skipped` });
    else byId.set(d.draft.task.id, d);
  }
  if (byId.size === 0) {
    imp.problems.push({ severity: 'error', file: opts.taskDirs.join(', ') || 'TASK_DIR', message: 'no Harbor task could be read; nothing was written' });
    return finish([]);
  }

  // Trials, matched to tasks by their task_name (the folder name truncates it), else by the task path they ran.
  const byName = new Map<string, string>();
  for (const [id, d] of byId) for (const n of d.draft.names) if (!byName.has(n)) byName.set(n, id);
  const trialsOf = new Map<string, Array<{ trial: HarborTrial; found: FoundTrial }>>();
  for (const given of opts.jobs ?? []) {
    const found = findTrials(given, imp.problems);
    let n = 0;
    for (const f of found) {
      const trial = imp.readTrial(f);
      if (!trial) continue;
      n++;
      const id = byName.get(trial.taskName) ?? (trial.taskPath ? byName.get(path.basename(trial.taskPath)) : undefined);
      if (!id) {
        imp.unmatched.push({ kind: 'trial', file: trial.resultFile, taskName: trial.taskName, reason: 'no task folder of this name among the TASK_DIRs' });
        continue;
      }
      trialsOf.set(id, [...(trialsOf.get(id) ?? []), { trial, found: f }]);
    }
    jobDirs.push({ dir: given, trials: n });
  }

  if (!existing) {
    writeManifest(outAbs, {
      format: 1,
      name: path.basename(outAbs),
      description: 'Imported from Harbor task folders by `specweave import harbor`.',
      defaults: { workdir: '/app', timeoutSec: 1200 },
    });
  }

  const tasks: HarborTaskSummary[] = [];
  for (const [id, d] of byId) {
    const { draft } = d;
    const task = draft.task;
    const notes = (task.notes ??= []);
    const all = trialsOf.get(id) ?? [];
    const attempts = all.filter((x) => !probeOf(x.trial));
    for (const p of all.filter((x) => probeOf(x.trial))) {
      const v = trialVerdict(p.trial, task.tests.map((t) => t.name));
      const which = probeOf(p.trial) === GOLD_PROBE ? "the oracle agent (it runs solution/solve.sh: Harbor's gold probe)" : 'the nop agent (it does nothing: the empty probe)';
      imp.skipped.push({ kind: 'trial', file: p.trial.resultFile, reason: `${which}; not a solver attempt: ${v.status}${v.detail ? `, ${v.detail}` : ''}` });
      notes.push(`Harbor trial ${p.trial.trialName} ran ${which}: ${v.status}${v.detail ? ` (${v.detail})` : ''}.`);
    }
    const ids = trialAttemptIds(attempts.map((x) => x.trial));
    const writes: AttemptWrite[] = [];
    const attemptSummaries: HarborAttemptSummary[] = [];
    for (const { trial, found } of [...attempts].sort((a, b) => ((ids.get(a.trial) ?? '') < (ids.get(b.trial) ?? '') ? -1 : 1))) {
      const aid = ids.get(trial) as string;
      const verdict = trialVerdict(trial, task.tests.map((t) => t.name));
      const traj = await imp.trajectoryOf(found);
      writes.push({
        id: aid,
        meta: {
          model: trial.model,
          agent: trial.agentVersion ? `${trial.agent} ${trial.agentVersion}` : trial.agent,
          run: trial.job,
          ...(trial.costUsd !== undefined ? { costUsd: trial.costUsd } : {}),
          ...(trial.tokens ? { tokens: trial.tokens } : {}),
          claimed: { status: trial.exitStatus, ...(trial.exceptionMessage ? { summary: trial.exceptionMessage.split('\n')[0]?.slice(0, 500) } : {}) },
          recordedResults: [verdict],
        },
        patch: '',
        ...(traj.chosen ? { trajectory: { fileName: trajectoryName(traj.chosen.abs), copyFrom: traj.chosen.abs } } : {}),
      });
      attemptSummaries.push({
        id: aid,
        trial: trial.trialName,
        model: trial.model,
        agent: trial.agent,
        run: trial.job,
        verdict: { status: verdict.status ?? 'error', ...(trial.rewards?.reward !== undefined ? { reward: trial.rewards.reward } : {}), ...(verdict.detail ? { detail: verdict.detail } : {}) },
        ...(traj.chosen ? { trajectory: { from: traj.chosen.display, ...(traj.chosen.format ? { format: traj.chosen.format } : {}) } } : {}),
        skippedTrajectories: traj.skipped,
      });
    }
    if (writes.length > 0) {
      notes.push(
        `Attempt(s) ${writes.map((w) => w.id).join(', ')} come from Harbor trials, which grade the container the agent left and record no patch: ` +
          'their patch.diff is empty and the reward in their recorded result is their verdict. Running the verifier on them runs the unchanged environment, as the empty probe does.',
      );
    }
    const taskDir = path.join(outAbs, TASKS_DIR, task.id);
    const exists = fs.existsSync(taskDir);
    let status: HarborTaskSummary['status'] = exists ? 'replaced' : 'written';
    if (exists && !opts.replace) {
      status = 'kept';
      imp.warn(path.join(opts.out, TASKS_DIR, task.id), `${task.id}: the task folder exists and was left as it is (pass --replace to overwrite it)`);
    } else {
      await writeTask(outAbs, {
        task,
        request: draft.request,
        testPatch: draft.testPatch,
        ...(draft.goldPatch !== undefined ? { goldPatch: draft.goldPatch } : {}),
        attempts: writes,
        files: draft.copy.map((c) => ({ path: c.to, copyFrom: path.join(d.abs, ...c.from.split('/')) })),
      });
    }
    tasks.push({
      id: task.id,
      name: typeof task.source?.name === 'string' ? task.source.name : task.id,
      from: d.display,
      status,
      ...(task.environment?.image ? { image: task.environment.image } : {}),
      ...(task.environment?.dockerfile ? { dockerfile: task.environment.dockerfile } : {}),
      workdir: task.environment?.workdir ?? '/app',
      timeoutSec: task.environment?.timeoutSec ?? 1200,
      verifier: { command: task.verifier.command, parser: task.verifier.parser ?? 'pytest', ...(task.verifier.goldCommand ? { goldCommand: task.verifier.goldCommand } : {}) },
      gold: draft.goldPatch !== undefined,
      tests: { failToPass: task.tests.filter((t) => t.kind === 'fail_to_pass').length, passToPass: task.tests.filter((t) => t.kind === 'pass_to_pass').length },
      notes: notes.filter((n) => n !== HARBOR_NO_SPECS_NOTE),
      attempts: status === 'kept' ? [] : attemptSummaries,
    });
  }

  const written = tasks.filter((t) => t.status !== 'kept').map((t) => t.id);
  if (written.length > 0) {
    const check = loadDataset(outAbs, { deep: true, only: written });
    for (const p of check.problems) if (p.severity === 'error') imp.problems.push({ ...p, message: `in the written dataset: ${p.message}` });
  }
  return finish(tasks);
}

