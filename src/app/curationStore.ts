// The one place that loads a dataset, its review log and its verifier runs into review state, and records new
// decisions. The CLI and the extension both use it; the decisions themselves are made in src/core/review.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import type { CandidateTask, Dataset, Problem } from '../core/model';
import type { ConsensusPolicy } from '../core/review/consensus';
import type { CuratorSource } from '../core/review/curator';
import { chooseCurator } from '../core/review/curator';
import type { EventDraft, ReviewEvent } from '../core/review/events';
import type { ExportFormat, ExportPlan, TaskTexts } from '../core/review/exportSet';
import { approvedTasks, planExport } from '../core/review/exportSet';
import type { CurrentPatches } from '../core/review/fromRuns';
import { verifierResultsFromRuns } from '../core/review/fromRuns';
import type { DatasetDifficulty, SolveBand, TaskDifficulty } from '../core/solver/difficulty';
import { MIXED_SUCCESS, datasetDifficulty, taskDifficulty } from '../core/solver/difficulty';
import type { Refusal, ReviewIntent } from '../core/review/intents';
import { prepareEvent } from '../core/review/intents';
import type { ReviewState } from '../core/review/reducer';
import { addEvents, reduceLog } from '../core/review/reducer';
import type { CurationStats } from '../core/review/stats';
import { curationStats, isReviewed } from '../core/review/stats';
import type { CalibrationStats } from '../core/findings/calibration';
import { calibrationStats } from '../core/findings/calibration';
import type { ReviewQueue, TaskDisagreement, TaskReview } from '../core/review/taskReview';
import { listDisagreements, reviewQueue, reviewTask } from '../core/review/taskReview';
import type { TaskVerifierResults, VerifierVerdicts } from '../core/review/verdicts';
import type { CurrentFinding } from '../core/findings/current';
import { currentFindings } from '../core/findings/current';
import { taskState } from '../core/review/reducer';
import { GOLD_PROBE } from '../core/model';
import type { LoadOptions } from '../adapters/fs/datasetLoader';
import { loadDataset, openDataset, readDatasetText, readDatasetTextIfExists } from '../adapters/fs/datasetLoader';
import { readBytesIfExists } from '../adapters/fs/datasetPaths';
import type { LogRead, ReviewLogOptions } from '../adapters/fs/reviewLog';
import { ReviewLog } from '../adapters/fs/reviewLog';
import { listTaskRuns, RunStoreError } from '../adapters/fs/runStore';
import type { VerifierRunRecord } from '../core/verify/runResult';

/** Reads a task's runs and current patches from disk each time (the CLI's source; the extension caches). */
export function diskRunSource(root: string): RunSource {
  return {
    runs(taskId) {
      try {
        return listTaskRuns(root, taskId);
      } catch (e) {
        // A task id that cannot name a runs/ folder has no runs; anything else is a real failure.
        if (e instanceof RunStoreError) return new Map();
        throw e;
      }
    },
    currentPatches(task) {
      const read = (rel: string | undefined) => {
        if (!rel) return undefined;
        try {
          return readBytesIfExists(root, rel);
        } catch {
          return undefined;
        }
      };
      const testPatch = read(task.files.testPatch) ?? Buffer.alloc(0);
      const attempts = new Map<string, Buffer>();
      const gold = read(task.files.goldPatch);
      if (gold) attempts.set(GOLD_PROBE, gold);
      for (const a of task.attempts) {
        const p = read(a.patchFile);
        if (p) attempts.set(a.id, p);
      }
      return { testPatch, attempts };
    },
  };
}

export interface CurationStoreOptions {
  /** How disagreements settle (default `adjudicate`). */
  policy?: ConsensusPolicy;
  /** Read verifier runs from `runs/` (default true); false uses only imported results. */
  runs?: boolean;
  /** Compare runs' input hashes with the current patches to mark them stale (reads the patches; default true). */
  checkStaleRuns?: boolean;
  log?: Omit<ReviewLogOptions, 'label'>;
  dataset?: LoadOptions;
  /**
   * Where the store gets a task's stored runs and current patch bytes. Default: read from disk on each (uncached)
   * lookup. The extension passes its one run index, so runs are listed and patches read once per change.
   */
  runIndex?: RunSource;
}

/** A task's verifier runs and the bytes of its current patches (to mark stale runs). */
export interface RunSource {
  /** The stored runs per attempt id; empty when none (or the id cannot name a runs/ folder). */
  runs(taskId: string): Map<string, VerifierRunRecord[]>;
  currentPatches(task: CandidateTask): CurrentPatches;
}

export type ActResult = { ok: true; event: ReviewEvent } | { ok: false; refusal: Refusal };

export class CurationStore {
  readonly root: string;
  readonly log: ReviewLog;
  private datasetValue: Dataset;
  private policyValue: ConsensusPolicy;
  private reviewState: ReviewState;
  private logProblems: Problem[] = [];
  private readonly verifierCache = new Map<string, TaskVerifierResults>();
  private readonly difficultyCache = new WeakMap<TaskVerifierResults, TaskDifficulty>();
  /** SHA-256 of each attempt's current patch bytes, per task (read only for tasks that have findings). */
  private readonly patchHashCache = new Map<string, Map<string, string>>();
  private tasksById: Map<string, CandidateTask>;
  private readonly runSource: RunSource;

  private constructor(
    dataset: Dataset,
    private readonly opts: CurationStoreOptions,
  ) {
    this.root = dataset.root;
    this.datasetValue = dataset;
    this.tasksById = new Map(dataset.tasks.map((t) => [t.id, t]));
    this.policyValue = opts.policy ?? 'adjudicate';
    this.runSource = opts.runIndex ?? diskRunSource(this.root);
    this.log = ReviewLog.forDataset(this.root, opts.log);
    const read = this.log.load();
    this.logProblems = read.problems;
    this.reviewState = reduceLog(read.events);
  }

  /** Loads the dataset at `root` with its review log; a folder without specweave.json throws NotADatasetError. */
  static open(root: string, opts: CurationStoreOptions = {}): CurationStore {
    return new CurationStore(openDataset(root, opts.dataset), opts);
  }

  /** Review state over an already loaded dataset. */
  static forDataset(dataset: Dataset, opts: CurationStoreOptions = {}): CurationStore {
    return new CurationStore(dataset, opts);
  }

  get dataset(): Dataset {
    return this.datasetValue;
  }

  /** The current review state. Live: it changes as events are added; render views from it, do not keep it. */
  get state(): ReviewState {
    return this.reviewState;
  }

  /** Reads the dataset again (e.g. after repair wrote a new task revision) and forgets cached verifier results. */
  reloadDataset(): void {
    this.datasetValue = loadDataset(this.root, this.opts.dataset);
    this.tasksById = new Map(this.datasetValue.tasks.map((t) => [t.id, t]));
    this.verifierCache.clear();
    this.patchHashCache.clear();
  }

  /**
   * Takes in what changed in some task folders, from tasks already loaded by the caller (no disk read): `lookup`
   * gives each id's task now, undefined when it is gone. Their cached verifier results are forgotten.
   */
  updateTasks(ids: Iterable<string>, lookup: (id: string) => CandidateTask | undefined): void {
    let reorder = false;
    const replaced = new Map<string, CandidateTask>();
    for (const id of ids) {
      const t = lookup(id);
      this.verifierCache.delete(id);
      this.patchHashCache.delete(id);
      if (t) {
        if (!this.tasksById.has(id)) reorder = true;
        else replaced.set(id, t);
        this.tasksById.set(id, t);
      } else if (this.tasksById.delete(id)) reorder = true;
    }
    const tasks = reorder
      ? [...this.tasksById.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      : replaced.size === 0
        ? this.datasetValue.tasks
        : this.datasetValue.tasks.map((t) => replaced.get(t.id) ?? t);
    this.datasetValue = { ...this.datasetValue, tasks };
  }

  get policy(): ConsensusPolicy {
    return this.policyValue;
  }

  set policy(p: ConsensusPolicy) {
    this.policyValue = p;
  }

  task(id: string): CandidateTask | undefined {
    return this.tasksById.get(id);
  }

  /** Problems with the review log: lines set aside, events that could not be replayed. */
  problems(): Problem[] {
    const replay: Problem[] = [];
    const file = 'curation/events.jsonl';
    for (const i of this.reviewState.issues) replay.push({ severity: 'warning', file, message: `event ${i.event} (task ${i.task}): ${i.message}` });
    for (const st of this.reviewState.tasks.values()) {
      for (const i of st.issues) replay.push({ severity: 'warning', file, message: `event ${i.event} (task ${i.task}): ${i.message}` });
      if (!this.tasksById.has(st.task)) replay.push({ severity: 'warning', file, message: `${st.events.length} event(s) about task "${st.task}", which the dataset does not have` });
    }
    return [...this.logProblems, ...replay];
  }

  /** Takes in what other writers appended (another window, the CLI); true when the state changed. */
  refresh(): boolean {
    return this.absorb(this.log.refresh());
  }

  private absorb(read: LogRead): boolean {
    this.logProblems = read.reset ? read.problems : [...this.logProblems, ...read.problems];
    if (read.reset) {
      this.reviewState = reduceLog(read.events);
      return true;
    }
    if (read.events.length === 0) return false;
    this.reviewState = addEvents(this.reviewState, read.events, { inPlace: true });
    return true;
  }

  /** Forgets cached verifier results (all, or one task's) after new runs. */
  invalidateRuns(taskId?: string): void {
    if (taskId === undefined) {
      this.verifierCache.clear();
      this.patchHashCache.clear();
    } else {
      this.verifierCache.delete(taskId);
      this.patchHashCache.delete(taskId);
    }
  }

  /** SHA-256 (hex) of each attempt's current patch bytes (what a `review.findings` event's `patchHash` names). */
  patchHashes(taskId: string): Map<string, string> {
    const task = this.tasksById.get(taskId);
    if (!task) return new Map();
    const cached = this.patchHashCache.get(taskId);
    if (cached) return cached;
    const out = new Map<string, string>();
    for (const [attempt, bytes] of this.runSource.currentPatches(task).attempts) out.set(attempt, createHash('sha256').update(bytes).digest('hex'));
    this.patchHashCache.set(taskId, out);
    return out;
  }

  /** The review agent's current findings on a task (none without `review.findings` events: no patch is read then). */
  findings(taskId: string): CurrentFinding[] {
    const task = this.tasksById.get(taskId);
    if (!task) return [];
    const st = taskState(this.reviewState, taskId);
    if (st.findings.length === 0) return [];
    return currentFindings(task, st, this.patchHashes(taskId));
  }

  /** A task's solve rates, overall and per model (core/solver/difficulty.ts). */
  difficulty(taskId: string): TaskDifficulty | undefined {
    const task = this.tasksById.get(taskId);
    if (!task) return undefined;
    // Kept with the verifier results they come from: new runs or a new task object make new results (the tree asks
    // for every task's rates again after each review event, which does not change them).
    const results = this.verifier(taskId);
    const known = results ? this.difficultyCache.get(results) : undefined;
    if (known) return known;
    const d = taskDifficulty(task, results);
    if (results) this.difficultyCache.set(results, d);
    return d;
  }

  /** Solve rates across the dataset: the band's funnel (imported -> in band -> reviewed -> approved) and per model. */
  datasetDifficulty(band: SolveBand = MIXED_SUCCESS): DatasetDifficulty {
    return datasetDifficulty(
      this.dataset.tasks,
      (t) => this.difficulty(t.id) ?? taskDifficulty(t, undefined),
      (t) => isReviewed(this.reviewState.tasks.get(t.id)),
      (t) => this.reviewState.tasks.get(t.id)?.status === 'approved',
      band,
    );
  }

  /** The verifier side of a task: its stored runs, the oracle flags, imported results as the fallback. */
  verifier(taskId: string): TaskVerifierResults | undefined {
    const task = this.tasksById.get(taskId);
    if (!task) return undefined;
    const cached = this.verifierCache.get(taskId);
    if (cached) return cached;
    const runs = this.opts.runs !== false ? this.runSource.runs(taskId) : new Map<string, VerifierRunRecord[]>();
    const current = runs.size > 0 && this.opts.checkStaleRuns !== false ? this.runSource.currentPatches(task) : undefined;
    const r = verifierResultsFromRuns(task, runs, current);
    this.verifierCache.set(taskId, r);
    return r;
  }

  verdicts(): VerifierVerdicts {
    const out: VerifierVerdicts = {};
    for (const t of this.dataset.tasks) out[t.id] = this.verifier(t.id) as TaskVerifierResults;
    return out;
  }

  /** The review of a task as a UI renders it; blind mode hides other curators until `viewer` has submitted. */
  review(taskId: string, opts: { viewer?: string; blind?: boolean } = {}): TaskReview | undefined {
    const task = this.tasksById.get(taskId);
    if (!task) return undefined;
    const verifier = this.verifier(taskId);
    return reviewTask({ task, state: this.reviewState, ...(verifier ? { verifier } : {}), policy: this.policyValue, ...opts });
  }

  /** Open disagreements across the dataset (all of them with `all`), for adjudication. */
  disagreements(opts: { all?: boolean } = {}): TaskDisagreement[] {
    const verdicts: VerifierVerdicts = {};
    for (const [id, st] of this.reviewState.tasks) if (st.labels.size + st.scores.size >= 2 && this.tasksById.has(id)) verdicts[id] = this.verifier(id) as TaskVerifierResults;
    return listDisagreements({ tasks: this.dataset.tasks, state: this.reviewState, verdicts, policy: this.policyValue, ...opts });
  }

  queue(viewer: string): ReviewQueue {
    return reviewQueue({ tasks: this.dataset.tasks, state: this.reviewState, viewer });
  }

  stats(): CurationStats {
    return curationStats({ tasks: this.dataset.tasks, state: this.reviewState, verdicts: this.verdicts(), policy: this.policyValue });
  }

  /**
   * The review agent's calibration against the curators (docs/calibration.md). Reads the current patch of each
   * attempt that has findings, so findings on an older patch do not count.
   */
  calibration(opts: { resamples?: number; seed?: number } = {}): CalibrationStats {
    const patchHashes: Record<string, Record<string, string>> = {};
    for (const [id, st] of this.reviewState.tasks) {
      const task = this.tasksById.get(id);
      if (!task || st.findings.length === 0) continue;
      const current = this.runSource.currentPatches(task).attempts;
      const hashes: Record<string, string> = {};
      for (const a of task.attempts) hashes[a.id] = createHash('sha256').update(current.get(a.id) ?? Buffer.alloc(0)).digest('hex');
      patchHashes[id] = hashes;
    }
    return calibrationStats({ tasks: this.dataset.tasks, state: this.reviewState, verdicts: this.verdicts(), policy: this.policyValue, patchHashes, ...opts });
  }

  /**
   * Records what `curator` asks for on a task. The intent is checked against the log as it is on disk at the moment
   * of writing (under the lock), so two writers cannot both make a transition only one of them may make. Resolves
   * once the event is on disk; throws ReviewLogError when it is not (disk full, lock held too long).
   */
  async act(taskId: string, curator: string, intent: ReviewIntent): Promise<ActResult> {
    let refusal: Refusal | undefined;
    const r = await this.log.transact<Refusal>((fresh) => {
      this.absorb(fresh);
      const verifier = this.verifier(taskId);
      const p = prepareEvent(intent, {
        task: this.tasksById.get(taskId),
        taskId,
        state: this.reviewState,
        ...(verifier ? { verifier } : {}),
        ...(intent.kind === 'acceptFinding' ? { patchHashes: this.patchHashes(taskId) } : {}),
        curator,
        policy: this.policyValue,
      });
      if (!p.ok) {
        refusal = p.refusal;
        return { abort: p.refusal };
      }
      return [p.draft];
    });
    if (!r.ok) return { ok: false, refusal: refusal ?? r.abort };
    this.reviewState = addEvents(this.reviewState, r.events, { inPlace: true });
    return { ok: true, event: r.events[0] as ReviewEvent };
  }

  /**
   * Appends what `prepare` drafts against the log as it is on disk (under the lock), and takes in both what other
   * writers appended meanwhile and the events written, so the store's state is current when it resolves. Every
   * writer through this store's log should come here (a bare `log.transact` leaves the state behind the log).
   */
  async record<A>(prepare: (state: ReviewState) => EventDraft[] | { abort: A }): Promise<{ ok: true; events: ReviewEvent[] } | { ok: false; abort: A }> {
    const r = await this.log.transact<A>((fresh) => {
      this.absorb(fresh);
      return prepare(this.reviewState);
    });
    if (!r.ok) return r;
    this.reviewState = addEvents(this.reviewState, r.events, { inPlace: true });
    return { ok: true, events: r.events };
  }

  /** Undoes an event by id (its task is the event's). */
  async undo(eventId: string, curator: string, note?: string): Promise<ActResult> {
    this.refresh();
    const target = this.reviewState.byId.get(eventId);
    if (!target) return { ok: false, refusal: { code: 'unknown_event', message: `the review log has no event "${eventId}"` } };
    return this.act(target.task, curator, { kind: 'undo', event: eventId, ...(note ? { note } : {}) });
  }

  /** The files of the curated set (approved tasks only). */
  exportPlan(format: ExportFormat): ExportPlan {
    const approved = approvedTasks(this.dataset.tasks, this.reviewState);
    const texts = new Map<string, TaskTexts>();
    for (const t of approved) {
      const gold = t.files.goldPatch ? readDatasetTextIfExists(this.root, t.files.goldPatch) : undefined;
      texts.set(t.id, {
        request: readDatasetText(this.root, t.files.request),
        testPatch: readDatasetTextIfExists(this.root, t.files.testPatch) ?? '',
        ...(gold !== undefined ? { goldPatch: gold } : {}),
      });
    }
    const verdicts: VerifierVerdicts = {};
    for (const t of approved) verdicts[t.id] = this.verifier(t.id) as TaskVerifierResults;
    return planExport({ datasetName: this.dataset.manifest.name, format, policy: this.policyValue, tasks: this.dataset.tasks, state: this.reviewState, verdicts, texts });
  }
}

/**
 * The curator's name: the explicit option (CLI `--curator`, the VS Code setting), else git's user.name in the
 * dataset's folder, else the login name.
 */
export function resolveCurator(opts: { option?: string; setting?: string; cwd?: string; env?: NodeJS.ProcessEnv }): { ok: true; name: string; source: CuratorSource } | { ok: false; message: string } {
  const env = opts.env ?? process.env;
  const candidates: Array<{ source: CuratorSource; value: string | undefined }> = [
    { source: 'option', value: opts.option },
    { source: 'setting', value: opts.setting === '' ? undefined : opts.setting },
  ];
  if (opts.option === undefined && (opts.setting === undefined || opts.setting === '')) {
    candidates.push({ source: 'git', value: gitUserName(opts.cwd, env) });
    let login = env.USER ?? env.USERNAME;
    if (login === undefined) {
      try {
        login = os.userInfo().username;
      } catch {
        login = undefined;
      }
    }
    candidates.push({ source: 'env', value: login });
  }
  const r = chooseCurator(candidates);
  return r.ok ? r : { ok: false, message: r.message };
}

function gitUserName(cwd: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  try {
    const out = execFileSync('git', ['config', 'user.name'], { cwd, env, encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'] });
    return out.replace(/\r?\n$/, '');
  } catch {
    return undefined;
  }
}
