// A stored run record around a judgement, for tests of what is shown from records (CLI lines, the task view).
import type { CandidateTask } from '../../../src/core/model';
import { runInputs } from '../../../src/core/verify/inputs';
import type { Judgement } from '../../../src/core/verify/judge';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';

export function recordOf(task: CandidateTask, attemptId: string, j: Judgement, runId = `20260101T000000000Z-${attemptId.padEnd(6, 'x').slice(0, 6)}`): VerifierRunRecord {
  return {
    format: 1,
    runId,
    taskId: task.id,
    taskRevision: task.revision,
    attemptId,
    repeat: 1,
    ...j,
    image: 'img',
    imageId: 'sha256:1',
    apply: { test: { method: 'git-apply' }, attempt: { method: attemptId === 'empty' ? 'empty' : 'git-apply' } },
    driverReport: '',
    exitCode: 0,
    oomKilled: false,
    timedOut: false,
    timeoutSec: 60,
    stdout: { totalBytes: 10, headBytes: 10, tailBytes: 0, cutBytes: 0 },
    stderr: { totalBytes: 0, headBytes: 0, tailBytes: 0, cutBytes: 0 },
    inputs: runInputs({ task, testPatch: '', attemptPatch: '', imageId: 'sha256:1', timeoutSec: 60 }),
    timings: { startedAt: '2026-01-01T00:00:00.000Z', totalMs: 1200 },
  };
}
