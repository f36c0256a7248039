// A small task made in memory for the repair unit tests: three specs, four tests, two attempts, and events.
import type { CandidateTask, TrajectoryStep } from '../../../src/core/model';
import type { EventEnvelope, KnownReviewEvent, ReviewEventKind, ReviewPayloads } from '../../../src/core/review/events';
import type { TaskVerifierResults } from '../../../src/core/review/verdicts';
import type { VerifierStatus } from '../../../src/core/review/verdicts';

export const BASE_TEST = `import pytest


def test_existing():
    assert True
`;

export const TEST_PATCH = `diff --git a/tests/test_x.py b/tests/test_x.py
--- a/tests/test_x.py
+++ b/tests/test_x.py
@@ -3,3 +3,13 @@ import pytest
 
 def test_existing():
     assert True
+
+
+def test_message_exact():
+    out = run()
+    assert out == "error: f.txt:3: bad"
+
+
+def test_exit_code():
+    assert run_code() == 1
+
diff --git a/tests/test_new.py b/tests/test_new.py
new file mode 100644
--- /dev/null
+++ b/tests/test_new.py
@@ -0,0 +1,2 @@
+def test_other():
+    assert 1
`;

export function task(over: Partial<CandidateTask> = {}): CandidateTask {
  return {
    id: 't1',
    title: 'A task',
    revision: 1,
    repo: { name: 'r', kind: 'git', path: '../repo', baseCommit: 'a'.repeat(40) },
    environment: { image: 'img', workdir: '/repo', limits: { memoryMb: 512, cpus: 1, pids: 64 }, timeoutSec: 60 },
    specs: [
      { id: 'S1', text: 'Report bad lines with the file name and the line number.', category: 'error-handling', dependsOn: [] },
      { id: 'S2', text: 'Exit with status 1 on a bad line.', category: 'error-handling', dependsOn: [] },
      { id: 'S3', text: 'Something nobody tests.', category: 'other', dependsOn: [] },
    ],
    tests: [
      { id: 'T1', name: 'tests/test_x.py::test_message_exact', kind: 'fail_to_pass', specs: ['S1'] },
      { id: 'T2', name: 'tests/test_x.py::test_exit_code', kind: 'fail_to_pass', specs: ['S2'] },
      { id: 'P1', name: 'tests/test_x.py::test_existing', kind: 'pass_to_pass', specs: [] },
      { id: 'T3', name: 'tests/test_new.py::test_other', kind: 'fail_to_pass', specs: ['S2'] },
    ],
    verifier: { command: 'pytest -rA', parser: 'pytest' },
    notes: [],
    dir: 'tasks/t1',
    files: { task: 'tasks/t1/task.json', request: 'tasks/t1/request.md', testPatch: 'tasks/t1/tests.patch', goldPatch: 'tasks/t1/gold.patch' },
    attempts: [
      { id: 'a1', model: 'm1', agent: 'x', dir: 'tasks/t1/attempts/a1', patchFile: 'tasks/t1/attempts/a1/patch.diff', recordedResults: [] },
      { id: 'a2', model: 'm2', agent: 'y', dir: 'tasks/t1/attempts/a2', patchFile: 'tasks/t1/attempts/a2/patch.diff', recordedResults: [] },
    ],
    ...over,
  };
}

/** Verifier results: a1 fails T1 only (S1 fails), a2 passes all; gold passes; empty fails the F2P tests. */
export function verifier(revision = 1, a1T1 = 'FAILED'): TaskVerifierResults {
  const t = task();
  const all = (st: string) => Object.fromEntries(t.tests.map((x) => [x.name, st]));
  const run = (id: string, tests: Record<string, string>, specs: Record<string, 'pass' | 'fail' | 'unknown'>, status: VerifierStatus) => ({ source: 'run' as const, runId: `run-${id}-${revision}`, status, specs, tests, revision });
  return {
    attempts: {
      a1: run('a1', { ...all('PASSED'), 'tests/test_x.py::test_message_exact': a1T1 }, { S1: a1T1 === 'PASSED' ? 'pass' : 'fail', S2: 'pass', S3: 'unknown' }, a1T1 === 'PASSED' ? 'passed' : 'failed'),
      a2: run('a2', all('PASSED'), { S1: 'pass', S2: 'pass', S3: 'unknown' }, 'passed'),
      gold: run('gold', all('PASSED'), { S1: 'pass', S2: 'pass', S3: 'unknown' }, 'passed'),
      empty: run('empty', { ...all('FAILED'), 'tests/test_x.py::test_existing': 'PASSED' }, { S1: 'fail', S2: 'fail', S3: 'unknown' }, 'failed'),
    },
    flags: [{ id: 'spec_without_test::S3', kind: 'spec_without_test', message: 'spec S3 is covered by no test', spec: 'S3' }],
  };
}

let n = 0;
export function ev<K extends ReviewEventKind>(kind: K, payload: ReviewPayloads[K], o: Partial<EventEnvelope> = {}): KnownReviewEvent {
  n++;
  const id = `E${String(n).padStart(10, '0')}`;
  return { id, time: new Date(Date.UTC(2026, 11, 1, 10) + n * 1000).toISOString(), curator: 'alice', task: 't1', revision: 1, kind, payload, ...o } as KnownReviewEvent;
}

/** `count` steps of about `bytes` characters each; every 50th mentions test_message_exact. */
export function steps(count: number, bytes = 400): TrajectoryStep[] {
  const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(bytes / 27)).slice(0, bytes);
  return Array.from({ length: count }, (_, i) => ({
    index: i,
    kind: i % 2 === 0 ? ('action' as const) : ('observation' as const),
    text: i % 50 === 7 ? `running test_message_exact ... ${filler}` : `${filler} #${i}`,
  }));
}
