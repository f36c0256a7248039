// `specweave repair accept --revalidate --fresh-trials 1` in real containers, against the test server speaking the
// OpenAI protocol: the repair of the example's false negative is accepted, the old attempts are re-run on revision 2,
// then one fresh trial of the scripted model (bash tool calls: it applies the reference fix and submits) lands as a
// new attempt on revision 2, is verified, and shows in the before/after matrix apart from the re-run attempts, with
// nothing before it. The task is revalidated; the key is printed nowhere; no container is left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadRevalidation } from '../../../src/adapters/fs/repairStore';
import { CurationStore } from '../../../src/app/curationStore';
import type { FreshTrialEntry } from '../../../src/core/repair/fresh';
import type { RepairMatrix } from '../../../src/core/repair/matrix';
import { taskState } from '../../../src/core/review/reducer';
import { SUBMIT_SENTINEL } from '../../../src/core/solver/agent';
import { FN_ATTEMPT, FN_TASK, copyExample, goodReplyWhole } from './exampleCopy';
import { repairSuite } from './repairSuite';
import { runCli as cli } from './runCli';

const KEY = 'sk-test-REPAIR-FRESH-3d9a0c';
const suite = repairSuite();


/** Asks for a suggestion on a fresh copy of the example; the copy's root, the suggestion's id and what the CLI said. */
async function suggested(env: NodeJS.ProcessEnv): Promise<{ root: string; sid: string; asked: Awaited<ReturnType<typeof cli>> }> {
  const { fake } = suite;
  const root = copyExample();
  fake.push({ kind: 'answer', content: goodReplyWhole(root), usage: { prompt_tokens: 7000, completion_tokens: 1200 } });
  const asked = await cli(['repair', root, FN_TASK, '--target', 'tests', '--json', '--curator', 'alice'], env);
  assert.equal(asked.code, 0, asked.stderr);
  return { root, sid: (JSON.parse(asked.stdout) as { suggestion: { id: string } }).suggestion.id, asked };
}

const tool = (n: number, command: string) => ({ kind: 'answer' as const, content: `THOUGHT: step ${n}`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], usage: { prompt_tokens: 300, completion_tokens: 30 } });

test('accept --revalidate --fresh-trials 1: a fresh trial lands on the new revision, is verified, and shows in the matrix as fresh', async () => {
  const { fake, base } = suite;
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' };
  const { root, sid, asked } = await suggested(env);

  // The scripted solver: writes the reference fix into the container (it holds neither patch) and submits.
  const gold = fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'gold.patch'), 'utf8');
  fake.requests.length = 0;
  fake.push(tool(1, `cat > /tmp/fix.diff <<'SPECWEAVE_EOF'\n${gold}SPECWEAVE_EOF\ngit apply /tmp/fix.diff && git status --short`));
  fake.push(tool(2, `echo ${SUBMIT_SENTINEL}`));
  const acc = await cli(['repair', 'accept', root, FN_TASK, sid, '--revalidate', '--fresh-trials', '1', '--model', 'gpt-4o-mini', '--base-url', base, '--json', '--curator', 'alice', '--concurrency', '2'], env);
  assert.equal(acc.code, 0, `${acc.stdout}\n${acc.stderr}`);
  const res = JSON.parse(acc.stdout) as { revalidation: { runs: Array<{ attempt: string; status: string }>; fresh: FreshTrialEntry[]; matrix: RepairMatrix; revalidated: boolean } };
  const rv = res.revalidation;
  assert.equal(fake.requests.length, 2, 'two model calls: the fix, then the submission');
  assert.equal(rv.fresh.length, 1);
  const trial = rv.fresh[0] as FreshTrialEntry;
  assert.equal(trial.model, 'gpt-4o-mini');
  assert.equal(trial.exitStatus, 'Submitted');
  assert.equal(trial.verdict, 'passed', JSON.stringify(trial));
  assert.ok(trial.attempt && trial.runId);
  // The old attempts were re-run (gold, empty and three attempts); the trial is not one of them.
  assert.equal(rv.runs.length, 5);
  assert.ok(!rv.runs.some((r) => r.attempt === trial.attempt));
  const m = rv.matrix;
  assert.ok(!m.attempts.includes(trial.attempt), 'the fresh attempt is not compared as a re-run one');
  assert.ok(m.attempts.includes(FN_ATTEMPT));
  assert.deepEqual(m.fresh?.attempts, [trial.attempt]);
  assert.equal(m.fresh?.attemptStatus[trial.attempt]?.after, 'passed');
  const cells = m.fresh?.cells ?? [];
  assert.equal(cells.length, m.specs.length);
  for (const c of cells) {
    assert.equal(c.before.verifier, 'absent', `${c.spec}: nothing before a fresh trial`);
    assert.equal(c.after.verifier, 'pass', `${c.spec} after`);
  }
  assert.equal(rv.revalidated, true);
  assert.equal(taskState(CurationStore.open(root).state, FN_TASK).status, 'revalidated');
  // The trial is an attempt of the task now, with its trajectory, and the stored record has it.
  assert.ok(fs.existsSync(path.join(root, 'tasks', FN_TASK, 'attempts', trial.attempt, 'trajectory.traj.json')));
  assert.deepEqual(loadRevalidation(root, FN_TASK, sid)?.fresh, rv.fresh);

  // The printed matrix shows it, marked fresh, with "—" before.
  const shown = await cli(['repair', 'show', root, FN_TASK, sid], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /fresh trials on revision 2 \(not run before\): 1/);
  assert.ok(shown.stdout.includes(`fresh ${trial.attempt}`), shown.stdout);
  assert.match(shown.stdout, /—>pass\/TP|—>pass\/·/);
  for (const o of [asked, acc, shown]) assert.ok(!o.stdout.includes(KEY) && !o.stderr.includes(KEY), 'the key is never printed');
});

test('a fresh trial that fails to solve is information: the task is revalidated; one the endpoint refused is not', async () => {
  const { fake, base } = suite;
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' };
  type Reval = { revalidation: { fresh: FreshTrialEntry[]; revalidated: boolean; matrix: RepairMatrix } };

  // Three replies without a command: FormatError, no patch. The old attempts all ran: revalidated.
  let s = await suggested(env);
  fake.requests.length = 0;
  for (let i = 0; i < 3; i++) fake.push({ kind: 'answer', content: 'I would rather talk about it.' });
  let acc = await cli(['repair', 'accept', s.root, FN_TASK, s.sid, '--revalidate', '--fresh-trials', '1', '--json', '--curator', 'alice', '--concurrency', '2'], env);
  assert.equal(acc.code, 0, `${acc.stdout}\n${acc.stderr}`);
  const rv = (JSON.parse(acc.stdout) as Reval).revalidation;
  assert.deepEqual(rv.fresh.map((f) => [f.model, f.exitStatus, f.verdict]), [['gpt-4o-mini', 'FormatError', 'no patch']]);
  assert.equal(rv.revalidated, true);
  assert.equal(taskState(CurationStore.open(s.root).state, FN_TASK).status, 'revalidated');
  assert.deepEqual(rv.matrix.fresh?.attemptStatus, { [rv.fresh[0]?.attempt ?? '']: {} }, 'landed, never verified: no run after');

  // The endpoint refuses the key: ModelError, the trial did not get to try. Not revalidated; the task stays repaired.
  s = await suggested(env);
  fake.push({ kind: 'error', status: 401, message: 'invalid api key' });
  acc = await cli(['repair', 'accept', s.root, FN_TASK, s.sid, '--revalidate', '--fresh-trials', '1', '--curator', 'alice', '--concurrency', '2'], env);
  assert.equal(acc.code, 0, `${acc.stdout}\n${acc.stderr}`);
  assert.match(acc.stdout, /fresh trial of gpt-4o-mini: attempt trial-gpt-4o-mini-\S+ ModelError after 0 step\(s\); verifier: no patch/);
  assert.doesNotMatch(acc.stdout, /is revalidated/);
  assert.equal(taskState(CurationStore.open(s.root).state, FN_TASK).status, 'repaired');
  const stored = loadRevalidation(s.root, FN_TASK, s.sid);
  assert.equal(stored?.fresh?.[0]?.exitStatus, 'ModelError');
  for (const o of [acc]) assert.ok(!o.stdout.includes(KEY) && !o.stderr.includes(KEY));
});

test('--fresh-trials without --revalidate, or --model without --fresh-trials, is a usage error', async () => {
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: suite.base };
  const s = await suggested(env);
  let r = await cli(['repair', 'accept', s.root, FN_TASK, s.sid, '--fresh-trials', '1', '--curator', 'alice'], env);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--fresh-trials needs --revalidate/);
  r = await cli(['repair', 'accept', s.root, FN_TASK, s.sid, '--revalidate', '--model', 'x', '--curator', 'alice'], env);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--model is for the fresh trials/);
  r = await cli(['repair', 'accept', s.root, FN_TASK, s.sid, '--revalidate', '--fresh-trials', '1', '--base-url', 'https://api.openai.com/v1', '--curator', 'alice'], { OPENAI_API_KEY: '' });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--fresh-trials calls the model at https:\/\/api\.openai\.com\/v1: .*OPENAI_API_KEY.*nothing was accepted/);
  assert.equal(taskState(CurationStore.open(s.root).state, FN_TASK).status !== 'repaired', true, 'nothing was accepted');
});
