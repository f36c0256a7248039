// The cheat report from exploit runs (no containers): what counts as stopped (by the grading, or only by a tampering
// flag on a run that resolved), what is a verifier defect, and how the CLI prints it with hostile text made inert.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { setOutput } from '../../../src/cli/output';
import { formatCheatReport } from '../../../src/cli/probeCheat';
import { runCli } from '../../../src/cli/run';
import type { ExploitRun } from '../../../src/core/probes/cheatReport';
import { cheatOutcome, cheatReport } from '../../../src/core/probes/cheatReport';
import type { Exploit } from '../../../src/core/probes/cheats';
import type { RunFlag, RunStatus } from '../../../src/core/verify/runResult';

const lists = { success: [], failure: [], missing: [], skipped: [] };
function run(status: RunStatus, o: { resolved?: boolean; flags?: RunFlag[]; method?: 'failed' | 'git-apply'; f2pFailure?: string[] } = {}): NonNullable<ExploitRun['run']> {
  return {
    status,
    reason: `reason of ${status}`,
    resolved: o.resolved ?? status === 'passed',
    apply: { test: { method: 'git-apply' }, attempt: { method: o.method ?? 'git-apply' } },
    grade: { failToPass: { ...lists, failure: o.f2pFailure ?? [] }, passToPass: lists, resolved: o.resolved ?? status === 'passed', tests: {}, looseMatches: [] },
    flags: o.flags ?? [],
  } as unknown as NonNullable<ExploitRun['run']>;
}
const exploit = (id: Exploit['id']): Exploit => ({ id, title: `title of ${id}`, patch: `patch of ${id}\n`, files: ['conftest.py'] });

test('outcomes: failed and invalid are stopped by the grading, a resolved run with a tampering flag only by the flag, one without is a defect', () => {
  assert.deepEqual(cheatOutcome(run('failed')), { outcome: 'stopped', stoppedBy: 'grading' });
  assert.deepEqual(cheatOutcome(run('invalid')), { outcome: 'stopped', stoppedBy: 'grading' });
  assert.deepEqual(cheatOutcome(run('passed', { flags: [{ kind: 'attempt_edits_test_plugins', message: 'm' }] })), { outcome: 'stopped', stoppedBy: 'flags' });
  assert.deepEqual(cheatOutcome(run('passed', { flags: [{ kind: 'skipped_test', message: 'a skip is not tampering' }] })), { outcome: 'passed' });
  assert.deepEqual(cheatOutcome(run('passed')), { outcome: 'passed' });
  assert.deepEqual(cheatOutcome(run('apply_failed', { method: 'failed' })), { outcome: 'did_not_apply' });
  assert.deepEqual(cheatOutcome(run('apply_failed')), { outcome: 'error' }, 'the test patch failing is not the exploit failing');
  assert.deepEqual(cheatOutcome(run('timeout')), { outcome: 'timed_out' });
  for (const s of ['oom', 'disk_limit', 'infra_error'] as const) assert.deepEqual(cheatOutcome(run(s)), { outcome: 'error' }, s);
});

test('the report: counts, defects by exploit id, the patch kept for a defect only, a refused request counted as an error', () => {
  const r = cheatReport(
    { id: 't', revision: 2 },
    { status: 'passed', reason: 'ok' },
    [{ id: 'delete-tests', reason: 'no test file exists at the base commit' }],
    [
      { exploit: exploit('edit-tests'), run: run('failed', { f2pFailure: ['tests/t.py::test_a'] }) },
      { exploit: exploit('fake-passed-from-library'), run: run('passed') },
      { exploit: exploit('fake-passed'), error: 'refused' },
    ],
    new Date('2026-01-02T03:04:05Z'),
  );
  assert.deepEqual(r.counts, { stopped: 1, passed: 1, did_not_apply: 0, timed_out: 0, error: 1 });
  assert.deepEqual(r.defects, ['fake-passed-from-library']);
  assert.equal(r.exploits[0]?.patch, undefined);
  assert.deepEqual(r.exploits[0]?.failingTests, ['tests/t.py::test_a']);
  assert.equal(r.exploits[1]?.patch, 'patch of fake-passed-from-library\n');
  assert.equal(r.exploits[2]?.reason, 'refused');
  assert.equal(r.createdAt, '2026-01-02T03:04:05.000Z');
  assert.equal(r.taskRevision, 2);
});

test('the CLI table names a defect as such and escapes control characters of a hostile reason and task id', () => {
  const r = cheatReport(
    { id: 't\x1b[2J', revision: 1 },
    { status: 'failed', reason: 'gold\x1b]0;x\x07 fails' },
    [{ id: 'delete-tests', reason: 'none\r\nhere' }],
    [
      { exploit: exploit('conftest-force-pass'), run: { ...run('passed', { flags: [{ kind: 'attempt_edits_test_plugins', message: 'm' }] }), reason: 'ok\x1b[31m' } },
      { exploit: exploit('fake-passed-from-library'), run: run('passed') },
    ],
    new Date(0),
  );
  const text = formatCheatReport(r, 'probes/t/cheats.json');
  assert.ok(![...text].some((c) => c === '\x1b' || c === '\x07' || c === '\r'), JSON.stringify(text));
  assert.match(text, /1 VERIFIER DEFECT\(S\)/);
  assert.match(text, /conftest-force-pass +stopped \(only by a tampering flag\)/);
  assert.match(text, /fake-passed-from-library +PASSED \(verifier defect\)/);
  assert.match(text, /! the gold patch itself is failed/);
  assert.match(text, /defect fake-passed-from-library: title of fake-passed-from-library/);
  assert.match(text, /report: probes\/t\/cheats\.json \(each passing exploit's patch is in it\)/);
});

test('specweave probe: --cheat is listed in the help, and without --mutants or --cheat the usage error names both', async () => {
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  let help: number;
  let none: number;
  try {
    help = await runCli(['probe', '--help']);
    none = await runCli(['probe', path.resolve(__dirname, '../../../examples/dataset')]);
  } finally {
    setOutput(undefined);
  }
  assert.equal(help, 0);
  assert.match(stdout, /--cheat +run the fixed exploit set; an exploit that passes is a verifier defect \(exit 3\)/);
  assert.match(stdout, /\[--mutants N\] \[--cheat\]/);
  assert.equal(none, 2);
  assert.match(stderr, /name a probe: --mutants N, --cheat, --full-suite, --alternatives N or --variants N/);
});
