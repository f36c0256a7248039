// `specweave verify DATASET [TASK ...]`: runs tasks' verifiers in local containers (attempts plus the gold and
// empty-patch oracle probes), prints one line (or JSON object) per run, and stores every run under DATASET/runs/.
import { openDataset } from '../adapters/fs/datasetLoader';
import { EngineUnavailableError } from '../adapters/docker/engine';
import type { VerifyRequest } from '../adapters/docker/verifyService';
import { RunsFolderError, VerifierService, checkRunsWritable, machineConcurrency } from '../adapters/docker/verifyService';
import type { CandidateTask } from '../core/model';
import type { OracleFlag } from '../core/verify/oracle';
import { taskReport } from '../core/verify/oracle';
import type { VerifierRunRecord } from '../core/verify/runResult';
import { EMPTY_PROBE, GOLD_PROBE } from '../core/model';
import { runSummary } from '../core/verify/summary';
import { UsageError } from './args';
import { defineCommand } from './command';
import { cancelOnSigint, engineAnswers, executionFlags, executionOptions } from './containerRun';
import { err, formatProblem, jsonText, one, out } from './output';
import { errorText } from '../core/errorText';

function positiveNumber(flag: string, v: string | undefined, integer: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} needs a positive ${integer ? 'integer' : 'number'}, got "${v}"`);
  }
  return n;
}

export interface Selection {
  attempts: string[];
  gold: boolean;
  empty: boolean;
  all: boolean;
}

/**
 * The runs a selection asks for on one task: `--all` (or no selector) = every attempt plus the probes; `--attempt`
 * = those attempts plus the probes (the probes are what tell a suspect verdict); `--gold` / `--empty` alone = just
 * that probe. A missing gold patch drops the gold probe, with a note.
 */
export function selectRuns(task: CandidateTask, s: Selection): { attemptIds: string[]; notes: string[] } {
  const notes: string[] = [];
  const none = s.attempts.length === 0 && !s.gold && !s.empty;
  const ids: string[] = [];
  if (s.all || none) ids.push(...task.attempts.map((a) => a.id));
  else ids.push(...s.attempts.filter((id) => task.attempts.some((a) => a.id === id)));
  const probes = s.all || none || s.attempts.length > 0;
  const wantGold = probes || s.gold;
  if (wantGold && task.files.goldPatch) ids.push(GOLD_PROBE);
  else if (s.gold) notes.push(`task ${task.id} has no gold patch; no gold run`);
  if (probes || s.empty) ids.push(EMPTY_PROBE);
  return { attemptIds: [...new Set(ids)], notes };
}

/**
 * The flags about one run: an attempt's verdict flags and its run's own flags (skipped tests, a patch touching the
 * tests...); for the gold and empty probes, the task's flags and the probe run's own; flaky tests of that run.
 */
export function runFlags(r: VerifierRunRecord, report: { task: OracleFlag[]; attempts: Record<string, OracleFlag[]> }): OracleFlag[] {
  const own = report.task.filter((f) => f.attemptId === r.attemptId);
  if (r.attemptId === GOLD_PROBE || r.attemptId === EMPTY_PROBE) return [...report.task.filter((f) => f.attemptId === undefined), ...own];
  return [...(report.attempts[r.attemptId] ?? []), ...own];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** One run as the CLI prints it: its line, its reason, then the flags about that run (`    ! kind: message`). */
export function formatRun(r: VerifierRunRecord, report: { task: OracleFlag[]; attempts: Record<string, OracleFlag[]> }): string {
  const f2p = r.grade.failToPass;
  const p2p = r.grade.passToPass;
  const n = (l: typeof f2p) => l.success.length + l.failure.length + l.missing.length + l.skipped.length;
  const count = (l: typeof f2p) => `${l.success.length}/${n(l)}${l.skipped.length > 0 ? ` (${l.skipped.length} skipped)` : ''}`;
  const parts = [
    one(r.taskId),
    one(r.attemptId) + (r.repeat > 1 ? `#${r.repeat}` : ''),
    r.status.toUpperCase(),
    `F2P ${count(f2p)}`,
    `P2P ${count(p2p)}`,
    `apply=${r.apply.attempt.method}`,
    r.reused ? 'reused' : seconds(r.timings.totalMs),
  ];
  const probe = r.attemptId === GOLD_PROBE || r.attemptId === EMPTY_PROBE;
  // A probe's task-level flags are printed once for the task, after its runs.
  const flags = probe ? report.task.filter((f) => f.attemptId === r.attemptId) : runFlags(r, report);
  return `${parts.join('  ')}\n    ${one(r.reason)}\n${flags.map((f) => `    ! ${f.kind}: ${one(f.message)}\n`).join('')}`;
}

export const verifyCommand = defineCommand({
  name: 'verify',
  summary: "run tasks' verifiers on attempts, gold and empty patches in local containers",
  usage:
    'specweave verify DATASET [TASK ...] [--attempt ID ... | --gold | --empty | --all] [--concurrency N] ' +
    '[--timeout SECONDS] [--repeat N] [--json] [--force] [--host ADDRESS]... [--backend local|pool|swarm] [--constraint EXPR]... [--warm]',
  flags: {
    attempt: { type: 'list', help: 'verify this attempt (plus the gold and empty probes)' },
    gold: { type: 'boolean', help: 'run the gold patch' },
    empty: { type: 'boolean', help: 'run the empty patch' },
    all: { type: 'boolean', help: 'every attempt plus the gold and empty probes (the default)' },
    concurrency: { type: 'string', help: 'runs at a time (default: cores, capped by memory)' },
    timeout: { type: 'string', help: "seconds before a run is killed (default: the task's)" },
    repeat: { type: 'string', help: 'run each N times and flag tests whose outcome changes (flaky)' },
    json: { type: 'boolean', help: 'one JSON object per run per line on stdout' },
    force: { type: 'boolean', help: 'run again even when a stored run has the same inputs' },
    ...executionFlags,
  },
  positional: { min: 1, max: Number.MAX_SAFE_INTEGER },
  async run(a) {
    const [root, ...taskIds] = a.positional as [string, ...string[]];
    const timeoutSec = positiveNumber('timeout', a.strings.timeout, false);
    const repeat = positiveNumber('repeat', a.strings.repeat, true) ?? 1;
    const concurrencyFlag = positiveNumber('concurrency', a.strings.concurrency, true);
    const json = a.booleans.json === true;
    const execution = executionOptions(a);
    const sel: Selection = {
      attempts: a.lists.attempt ?? [],
      gold: a.booleans.gold === true,
      empty: a.booleans.empty === true,
      all: a.booleans.all === true,
    };
    if (sel.all && (sel.attempts.length > 0 || sel.gold || sel.empty)) throw new UsageError('--all cannot be combined with --attempt, --gold or --empty');

    const dataset = openDataset(root);
    for (const p of dataset.problems.filter((x) => x.severity === 'error')) err(`${formatProblem(p)}\n`);
    let tasks = dataset.tasks;
    if (taskIds.length > 0) {
      const unknown = taskIds.filter((id) => !tasks.some((t) => t.id === id));
      if (unknown.length > 0) throw new UsageError(`no task ${unknown.map((u) => `"${u}"`).join(', ')} in ${root}`);
      tasks = taskIds.map((id) => tasks.find((t) => t.id === id) as CandidateTask);
    }
    const missingAttempts = sel.attempts.filter((id) => !tasks.some((t) => t.attempts.some((x) => x.id === id)));
    if (missingAttempts.length > 0) throw new UsageError(`no attempt ${missingAttempts.map((m) => `"${m}"`).join(', ')} in the selected tasks`);

    const requests: VerifyRequest[] = [];
    for (const task of tasks) {
      const { attemptIds, notes } = selectRuns(task, sel);
      for (const n of notes) err(`note: ${one(n)}\n`);
      for (const attemptId of attemptIds) {
        for (let i = 1; i <= repeat; i++) requests.push({ task, attemptId, repeat: i, force: a.booleans.force === true, timeoutSec });
      }
    }
    if (requests.length === 0) {
      err('nothing to verify\n');
      return 0;
    }

    try {
      checkRunsWritable(dataset.root);
    } catch (e) {
      if (!(e instanceof RunsFolderError)) throw e;
      err(`specweave verify: ${one(e.message)}\n`);
      return 1;
    }

    const maxMem = Math.max(...tasks.map((t) => t.environment.limits.memoryMb));
    const concurrency = concurrencyFlag ?? machineConcurrency(maxMem);
    let finished = 0;
    const service = new VerifierService({
      datasetRoot: dataset.root,
      concurrency,
      log: (l) => err(`${one(l)}\n`),
      ...execution,
    });
    if (!(await engineAnswers(service, 'verify'))) return 1;

    const sigint = cancelOnSigint(service);

    let infraErrors = 0;
    let requestErrors = 0;
    let engineError: EngineUnavailableError | undefined;
    const started = Date.now();
    try {
      // Runs are queued together; a task's lines are printed once all its runs are in, so its flags are known.
      const byTask = new Map<string, { task: CandidateTask; ids: { req: VerifyRequest; id: string }[] }>();
      for (const req of requests) {
        const e = byTask.get(req.task.id) ?? { task: req.task, ids: [] };
        e.ids.push({ req, id: service.enqueue(req) });
        byTask.set(req.task.id, e);
      }
      await Promise.all(
        [...byTask.values()].map(async ({ task, ids }) => {
          const runs: VerifierRunRecord[] = [];
          for (const { req, id } of ids) {
            const o = await service.queue.result(id);
            finished++;
            if (o.state === 'done') {
              runs.push(o.value);
              if (!json) {
                const p = service.queue.progress();
                const eta = p.etaMs !== undefined ? `, about ${seconds(p.etaMs)} left` : '';
                err(`[${finished}/${requests.length}] ${one(task.id)} ${one(req.attemptId)} ${o.value.status}${eta}\n`);
              }
            } else if (o.state === 'failed') {
              if (o.error instanceof EngineUnavailableError) engineError = o.error;
              else {
                requestErrors++;
                err(`error: ${one(task.id)} ${one(req.attemptId)}: ${one(errorText(o.error))}\n`);
              }
            }
          }
          const report = taskReport(task, runs);
          runs.sort((x, y) => (x.attemptId === y.attemptId ? x.repeat - y.repeat : x.attemptId < y.attemptId ? -1 : 1));
          for (const r of runs) {
            if (r.status === 'infra_error') infraErrors++;
            if (json) out(`${jsonText(runSummary(r, runFlags(r, report)))}\n`);
            else out(formatRun(r, report));
          }
          if (!json) for (const f of report.task.filter((x) => x.attemptId === undefined)) out(`  ${one(task.id)} ! ${f.kind}: ${one(f.message)}\n`);
        }),
      );
    } finally {
      sigint.dispose();
      await service.close();
    }
    if (engineError) {
      err(`specweave verify: ${one(engineError.message)}\n`);
      return 1;
    }
    if (!json) {
      err(
        `${finished} run(s) in ${seconds(Date.now() - started)} at concurrency ${concurrency}` +
          `${infraErrors > 0 ? `; ${infraErrors} infrastructure error(s)` : ''}\n`,
      );
    }
    if (sigint.interrupted) return 130;
    return infraErrors > 0 || requestErrors > 0 ? 1 : 0;
  },
});
