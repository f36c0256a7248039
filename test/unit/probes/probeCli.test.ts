// `specweave probe` before any container: usage errors say what is wrong, and the printed report is inert whatever
// the dataset's names and the mutated lines hold.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { setOutput } from '../../../src/cli/output';
import { formatMutationReport } from '../../../src/cli/probe';
import { runCli } from '../../../src/cli/run';
import type { MutationReport } from '../../../src/core/probes/mutantReport';

const DATASET = path.resolve(__dirname, '../../../examples/dataset');

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  try {
    return { code: await runCli(args), stdout, stderr };
  } finally {
    setOutput(undefined);
  }
}

test('probe without --mutants, with a bad count or an unknown task is a usage error (exit 2) naming the problem', async () => {
  const none = await run(['probe', DATASET]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /name a probe: --mutants N, --cheat, --full-suite, --alternatives N or --variants N/);
  for (const flag of ['--alternatives', '--variants']) {
    const r = await run(['probe', DATASET, flag, '0']);
    assert.equal(r.code, 2, flag);
    assert.match(r.stderr, new RegExp(`${flag} needs a positive integer, got "0"`));
  }
  const budget = await run(['probe', DATASET, '--alternatives', '1', '--budget-usd', 'lots']);
  assert.equal(budget.code, 2);
  assert.match(budget.stderr, /--budget-usd needs a number of dollars, got "lots"/);
  for (const bad of ['0', '-3', '2.5', 'many']) {
    const r = await run(['probe', DATASET, '--mutants', bad]);
    assert.equal(r.code, 2, bad);
    assert.match(r.stderr, new RegExp(`--mutants needs a positive integer, got "${bad.replace('.', '\\.')}"`));
  }
  const unknown = await run(['probe', DATASET, 'no-such-task', '--mutants', '3']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no task "no-such-task"/);
  const help = await run(['probe', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--mutants MUTANTS +run at most N gold mutants per task/);
});

test('the printed report shows score, per-spec counts and survivors, with hostile text made inert', () => {
  const evil = 'x\x1b]0;pwned\x07\u202e\r';
  const report: MutationReport = {
    format: 1,
    taskId: `t${evil}`,
    taskRevision: 1,
    createdAt: new Date(0).toISOString(),
    gold: { status: 'passed', reason: '' },
    generated: 4,
    ran: 3,
    counts: { killed: 1, survived: 1, did_not_apply: 1, timed_out: 0, out_of_memory: 0, error: 0 },
    score: 0.5,
    specs: [{ spec: `S${evil}`, killed: 1, survived: 1, untested: false }],
    mutants: [
      { id: 'comparison-0123456789', operator: 'comparison', file: `m${evil}.py`, line: 3, column: 5, before: `    if a < b:${evil}`, after: `    if a <= b:${evil}`, outcome: 'survived', status: 'passed', reason: '', failingTests: [], killedForSpecs: [], patch: 'p' },
      { id: 'off-by-one-0123456789', operator: 'off-by-one', file: 'm.py', line: 4, column: 5, before: '', after: '', outcome: 'killed', status: 'failed', reason: '', failingTests: ['t'], killedForSpecs: ['S'] },
      { id: 'handmade', operator: 'comparison', file: 'm.py', line: 4, column: 5, before: '', after: '', outcome: 'did_not_apply', status: 'apply_failed', reason: `no${evil}`, failingTests: [], killedForSpecs: [] },
    ],
    skipped: [],
    unsupportedFiles: [],
  };
  const text = formatMutationReport(report, 'probes/t/mutants.json');
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(text, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  assert.match(text, /mutation score 50% {2}killed 1 {2}survived 1 {2}did not apply 1/);
  assert.match(text, /spec S.*: killed 1, survived 1/);
  assert.match(text, /survived comparison-0123456789 {2}m.*\.py:3\n {4}- if a < b:.*\n {4}\+ if a <= b:/);
  assert.match(text, /did not apply handmade/);
  assert.match(text, /report: probes\/t\/mutants\.json/);
});
