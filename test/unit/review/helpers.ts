// Test helpers for the review tests: the review fixture dataset with verifier runs, and hand-made events.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadDataset, readDatasetText } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask, Dataset } from '../../../src/core/model';
import type { EventEnvelope, ReviewEvent, ReviewEventKind, ReviewPayloads } from '../../../src/core/review/events';
import { runInputs } from '../../../src/core/verify/inputs';
import type { GradedTestStatus, VerifierRunRecord } from '../../../src/core/verify/runResult';
import { specVerdicts } from '../../../src/core/verify/specVerdicts';
import { copyFixture } from '../helpers/tmp';

/** A fresh copy of test/fixtures/review/ds. */
export function reviewDataset(): string {
  return copyFixture('review/ds');
}

let runCounter = 0;

/** Writes a verifier run record for `attemptId` (gold, empty or an attempt) with the current inputs' hashes. */
export function writeRun(
  root: string,
  taskId: string,
  attemptId: string,
  tests: Record<string, GradedTestStatus>,
  opts: { status?: VerifierRunRecord['status']; revision?: number; runId?: string; timeoutSec?: number } = {},
): VerifierRunRecord {
  const ds: Dataset = loadDataset(root);
  const task = ds.tasks.find((t) => t.id === taskId) as CandidateTask;
  const testPatch = readDatasetText(root, task.files.testPatch);
  const attemptPatch =
    attemptId === 'empty' ? '' : attemptId === 'gold' ? readDatasetText(root, task.files.goldPatch as string) : readDatasetText(root, task.attempts.find((a) => a.id === attemptId)?.patchFile as string);
  const ok = (s: GradedTestStatus | undefined) => s === 'PASSED' || s === 'XFAIL';
  const f2p = task.tests.filter((t) => t.kind === 'fail_to_pass').map((t) => t.name);
  const p2p = task.tests.filter((t) => t.kind === 'pass_to_pass').map((t) => t.name);
  const lists = (names: string[]) => ({
    success: names.filter((n) => ok(tests[n])),
    failure: names.filter((n) => tests[n] !== undefined && !ok(tests[n]) && tests[n] !== 'MISSING'),
    missing: names.filter((n) => tests[n] === undefined || tests[n] === 'MISSING'),
    skipped: [],
  });
  const resolved = [...f2p, ...p2p].every((n) => ok(tests[n]));
  const status = opts.status ?? (resolved ? 'passed' : 'failed');
  const graded = status === 'passed' || status === 'failed';
  const timeoutSec = opts.timeoutSec ?? task.environment.timeoutSec;
  runCounter++;
  const runId = opts.runId ?? `20261201T1000${String(runCounter).padStart(5, '0')}-abcdef`;
  const record: VerifierRunRecord = {
    format: 1,
    runId,
    taskId,
    taskRevision: opts.revision ?? task.revision,
    attemptId,
    repeat: 1,
    status,
    reason: 'test run',
    resolved: graded && resolved,
    image: task.environment.image,
    imageId: 'sha256:0000',
    apply: { test: { method: 'git-apply' }, attempt: { method: attemptId === 'empty' ? 'empty' : 'git-apply' } },
    driverReport: '',
    exitCode: resolved ? 0 : 1,
    oomKilled: false,
    timedOut: false,
    timeoutSec,
    testsFrom: 'pytest',
    reported: {},
    grade: { failToPass: lists(f2p), passToPass: lists(p2p), resolved: graded && resolved, tests, looseMatches: [] },
    specs: specVerdicts(task.specs, task.tests, tests, graded),
    stdout: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
    stderr: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
    inputs: runInputs({ task, testPatch, attemptPatch, imageId: 'sha256:0000', timeoutSec }),
    timings: { startedAt: '2026-12-01T10:00:00.000Z', totalMs: 1000 },
  };
  const dir = path.join(root, 'runs', taskId, attemptId);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${runId}.json`), JSON.stringify(record, null, 2));
  return record;
}

/**
 * The runs behind the fixture's story for task t1: the gold patch passes everything; the empty patch fails the
 * FAIL_TO_PASS tests; a1 passes everything (so a1 × S2 "violated" is a false positive); a2 fails T2 (so a2 × S2
 * "satisfied" is a false negative).
 */
export function writeT1Runs(root: string): void {
  const pass = 'PASSED';
  writeRun(root, 't1', 'gold', { 'tests/test_hello.py::test_greet_type': pass, 'tests/test_hello.py::test_greet_text': pass, 'tests/test_hello.py::test_existing': pass });
  writeRun(root, 't1', 'empty', { 'tests/test_hello.py::test_greet_type': 'FAILED', 'tests/test_hello.py::test_greet_text': 'FAILED', 'tests/test_hello.py::test_existing': pass });
  writeRun(root, 't1', 'a1', { 'tests/test_hello.py::test_greet_type': pass, 'tests/test_hello.py::test_greet_text': pass, 'tests/test_hello.py::test_existing': pass });
  writeRun(root, 't1', 'a2', { 'tests/test_hello.py::test_greet_type': pass, 'tests/test_hello.py::test_greet_text': 'FAILED', 'tests/test_hello.py::test_existing': pass });
}

let seq = 0;

/** An event with a deterministic id and time (minutes after a fixed start, or the given time). */
export function ev<K extends ReviewEventKind>(
  kind: K,
  payload: ReviewPayloads[K],
  env: Partial<EventEnvelope> & { at?: number } = {},
): ReviewEvent {
  seq++;
  const at = env.at ?? seq;
  const time = env.time ?? new Date(Date.UTC(2026, 11, 1, 10, 0, 0) + at * 60_000).toISOString();
  return {
    id: env.id ?? `E${String(seq).padStart(9, '0')}`,
    time,
    curator: env.curator ?? 'alice',
    task: env.task ?? 't1',
    revision: env.revision ?? 1,
    kind,
    payload,
  } as ReviewEvent;
}

export const label = (attempt: string, spec: string, verdict: 'satisfied' | 'violated' | 'unsure', env: Partial<EventEnvelope> & { at?: number } = {}) =>
  ev('label', { attempt, spec, verdict, evidence: [] }, env);
