// The cheat probe of a task: make the fixed exploit set for it (from its test patch, listed tests and the base files
// they touch, read from its clone), run each exploit in the verifier's hardened container exactly as the gold probe
// runs, and store the report under DATASET/probes/<task>/cheats.json (docs/probes.md). Runs are never attempts.
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { VerifierService, VerifyRequest } from '../adapters/docker/verifyService';
import { repoPath } from '../adapters/fs/datasetLoader';
import { readBytes, writeFileAtomicInAsync } from '../adapters/fs/datasetPaths';
import { gitShow } from '../adapters/fs/git';
import { errorText } from '../core/errorText';
import type { CandidateTask } from '../core/model';
import { GOLD_PROBE } from '../core/model';
import type { CheatReport, ExploitRun } from '../core/probes/cheatReport';
import { cheatReport } from '../core/probes/cheatReport';
import type { ExploitSet } from '../core/probes/cheats';
import { cheatExploits, libraryCandidates, testFileOf, wantedBaseFiles } from '../core/probes/cheats';
import { testFilesAfterPatch } from '../core/repair/revision';
import { ProbeError, mutantsReportPath } from './probes';

/** Dataset-relative path of a task's cheat report (beside its mutation report). */
export function cheatsReportPath(taskId: string): string {
  return mutantsReportPath(taskId).replace(/mutants\.json$/, 'cheats.json');
}

export interface GeneratedExploits extends ExploitSet {
  /** The gold patch as bytes, when the task has one (run beside the exploits). */
  gold?: Buffer;
}

/** Reads base files of a git clone: text, null when absent at the base commit; a clone-less task knows none. */
async function readBase(datasetRoot: string, task: CandidateTask, paths: readonly string[], into: Map<string, string | null>): Promise<void> {
  if (task.repo.kind !== 'git') return;
  const repo = repoPath(datasetRoot, task.repo);
  for (const p of paths) {
    if (into.has(p)) continue;
    const r = await gitShow(repo, task.repo.baseCommit, p);
    if (r.ok) into.set(p, r.text);
    else if (r.kind === 'no-path') into.set(p, null);
    else if (r.kind !== 'too-big') throw new ProbeError(`task ${task.id}: cannot read ${p} at the base commit: ${r.message}`);
  }
}

/** The task's exploits. Base files come from its git clone; for a repository held in an image they are not known. */
export async function generateExploits(datasetRoot: string, task: CandidateTask): Promise<GeneratedExploits> {
  const read = (rel: string, what: string) => {
    try {
      return readBytes(datasetRoot, rel);
    } catch (e) {
      throw new ProbeError(`task ${task.id}: cannot read its ${what} ${rel}: ${errorText(e)}`);
    }
  };
  const testPatch = task.files.testPatch ? read(task.files.testPatch, 'test patch').toString('utf8') : '';
  const gold = task.files.goldPatch ? read(task.files.goldPatch, 'gold patch') : undefined;
  const base = new Map<string, string | null>();
  const ctx = { testPatch, tests: task.tests };
  await readBase(datasetRoot, task, wantedBaseFiles(ctx), base);
  // The tests as the test patch leaves them say which library modules they import.
  const after = testFilesAfterPatch(testPatch, new Map([...base].map(([k, v]) => [k, v ?? undefined])));
  const texts = new Map<string, string>();
  for (const [p, t] of after.files) if (t !== undefined) texts.set(p, t);
  for (const t of task.tests) {
    const f = testFileOf(t.name);
    const b = f ? base.get(f) : undefined;
    if (f && !texts.has(f) && typeof b === 'string') texts.set(f, b);
  }
  await readBase(datasetRoot, task, libraryCandidates(texts), base);
  return { ...cheatExploits({ ...ctx, base }), ...(gold ? { gold } : {}) };
}

export interface RunExploitsOptions {
  service: VerifierService;
  datasetRoot: string;
  timeoutSec?: number;
  onResult?: (task: CandidateTask, r: ExploitRun) => void;
  /** Store the report under probes/ (default true). */
  persist?: boolean;
  now?: () => Date;
}

export interface TaskCheatResult {
  report: CheatReport;
  file?: string;
  cancelled: number;
}

/**
 * Runs every exploit (and the gold patch beside them) through the service's queue as gold probes, builds the
 * task's cheat report and stores it unless a run was cancelled. Rejects with EngineUnavailableError without an engine.
 */
export async function runExploits(task: CandidateTask, set: GeneratedExploits, o: RunExploitsOptions): Promise<TaskCheatResult> {
  const req = (id: string, patch: Buffer): VerifyRequest => ({ task, attemptId: GOLD_PROBE, probe: { id, patch }, force: true, ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}) });
  const goldId = set.gold ? o.service.enqueue(req(GOLD_PROBE, set.gold)) : undefined;
  const ids = set.exploits.map((exploit) => ({ exploit, id: o.service.enqueue(req(`cheat-${exploit.id}`, Buffer.from(exploit.patch, 'utf8'))) }));
  let cancelled = 0;
  let engineError: EngineUnavailableError | undefined;
  const runs = await Promise.all(
    ids.map(async ({ exploit, id }): Promise<ExploitRun | undefined> => {
      const out = await o.service.queue.result(id);
      let r: ExploitRun | undefined;
      if (out.state === 'done') r = { exploit, run: out.value };
      else if (out.state === 'failed') {
        if (out.error instanceof EngineUnavailableError) engineError = out.error;
        r = { exploit, error: errorText(out.error) };
      } else cancelled++;
      if (r) o.onResult?.(task, r);
      return r;
    }),
  );
  let gold = { status: 'none', reason: 'the task has no gold patch' };
  if (goldId) {
    const g = await o.service.queue.result(goldId);
    if (g.state === 'failed' && g.error instanceof EngineUnavailableError) throw g.error;
    if (g.state === 'cancelled') cancelled++;
    gold = g.state === 'done' ? { status: g.value.status, reason: g.value.reason } : { status: g.state === 'failed' ? 'error' : 'cancelled', reason: g.state === 'failed' ? errorText(g.error) : 'cancelled' };
  }
  if (engineError) throw engineError;
  const report = cheatReport(task, gold, set.skipped, runs.filter((r): r is ExploitRun => r !== undefined), (o.now ?? (() => new Date()))());
  if (cancelled > 0 || o.persist === false) return { report, cancelled };
  const file = cheatsReportPath(task.id);
  await writeFileAtomicInAsync(o.datasetRoot, file, `${JSON.stringify(report, null, 2)}\n`);
  return { report, file, cancelled };
}

/** `generateExploits` then `runExploits`. */
export async function probeCheats(task: CandidateTask, o: RunExploitsOptions): Promise<TaskCheatResult> {
  return runExploits(task, await generateExploits(o.datasetRoot, task), o);
}
