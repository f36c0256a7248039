// The whole repair of the example's false negative, the way a curator does it from a terminal, in real containers:
// the verifier runs the task (revision 1), the curator labels the claude-code attempt as satisfying B4 and B5 (a
// false negative: TB3 pins one exact stderr string), `specweave repair` asks the fake model and prints the
// suggestion, `specweave repair accept --revalidate` writes revision 2 and reruns gold, empty and every attempt, and
// the before/after matrix shows the false negative gone and nothing new. Then the key search: the distinctive fake
// key appears in no file of the dataset, in no CLI output, and in no container the verifier created.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type Docker from 'dockerode';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { CurationStore } from '../../../src/app/curationStore';
import type { RepairMatrix } from '../../../src/core/repair/matrix';
import { taskState } from '../../../src/core/review/reducer';
import { FN_ATTEMPT, FN_TASK, copyExample, filesContaining, goodReplyWhole } from './exampleCopy';
import { repairSuite } from './repairSuite';
import { runCli as cli } from './runCli';

const KEY = 'sk-test-SPECWEAVE-FAKE-KEY-e2e-5be1f07c93d4';
const suite = repairSuite();


test("the example's false negative, repaired from the CLI and revalidated in containers, is gone; the key is nowhere", async () => {
  const { engine, fake, base } = suite;
  const root = copyExample();
  const top = path.dirname(root);
  // The key is in this process's environment the whole time, as it is for a curator.
  process.env.OPENAI_API_KEY = KEY;
  const created: Docker.ContainerCreateOptions[] = [];
  const docker = await engine.docker();
  const create = docker.createContainer.bind(docker);
  docker.createContainer = ((opts: Docker.ContainerCreateOptions) => {
    created.push(opts);
    return create(opts);
  }) as typeof docker.createContainer;

  // Revision 1, verified: the claude-code attempt fails TB3 only.
  const store = CurationStore.open(root);
  const task = store.task(FN_TASK);
  assert.ok(task);
  const service = new VerifierService({ datasetRoot: root, engine, concurrency: 2 });
  const v = await service.verifyAll(['gold', 'empty', ...task.attempts.map((a) => a.id)].map((attemptId) => ({ task, attemptId })));
  const runs = v.tasks[0]?.runs ?? [];
  assert.equal(runs.length, 5);
  const claude = runs.find((r) => r.attemptId === FN_ATTEMPT);
  assert.equal(claude?.status, 'failed');
  assert.deepEqual(Object.entries(claude?.grade.tests ?? {}).filter(([, s]) => s !== 'PASSED').map(([n]) => n), ['tests/test_cli.py::test_total_reports_bad_line_location']);
  store.invalidateRuns(FN_TASK);
  for (const spec of ['B4', 'B5']) {
    const r = await store.act(FN_TASK, 'alice', { kind: 'label', attempt: FN_ATTEMPT, spec, verdict: 'satisfied', note: 'reports "log.txt, line 3": file and line, as asked', evidence: [{ kind: 'test', test: 'TB3' }] });
    assert.ok(r.ok);
  }
  const review = store.review(FN_TASK);
  assert.equal(review?.counts.falseNegatives, 2);

  // specweave repair: the suggestion, stored and printed.
  fake.push({ kind: 'answer', content: goodReplyWhole(root), chunkChars: 64, usage: { prompt_tokens: 7000, completion_tokens: 1200 } });
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' };
  const asked = await cli(['repair', root, FN_TASK, '--target', 'tests', '--json', '--curator', 'alice'], env);
  assert.equal(asked.code, 0, asked.stderr);
  const out = JSON.parse(asked.stdout) as { ok: boolean; suggestion: { id: string; status: string; files: Array<{ path: string; diff: string }>; evidence: unknown[] } };
  assert.equal(out.suggestion.status, 'ready');
  assert.match(out.suggestion.files[0]?.diff ?? '', /\+ {4}assert re\.search/);
  assert.equal(fake.requests.at(-1)?.authorization, `Bearer ${KEY}`, 'the key reached the endpoint, in the header');
  const human = await cli(['repair', 'show', root, FN_TASK, out.suggestion.id], env);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /Rationale:/);
  assert.match(human.stdout, /Evidence:\n {2}test:TB3 — /);
  assert.match(human.stdout, /^- {4}assert proc\.stderr == /m);

  // specweave repair accept --revalidate: revision 2, rerun in containers, the matrix.
  const acc = await cli(['repair', 'accept', root, FN_TASK, out.suggestion.id, '--revalidate', '--json', '--curator', 'alice', '--concurrency', '2'], env);
  assert.equal(acc.code, 0, acc.stderr);
  const res = JSON.parse(acc.stdout) as { ok: boolean; accepted: { from: number; to: number }; revalidation: { runs: Array<{ attempt: string; status: string }>; matrix: RepairMatrix; revalidated: boolean } };
  assert.deepEqual([res.accepted.from, res.accepted.to], [1, 2]);
  const m = res.revalidation.matrix;
  assert.deepEqual(res.revalidation.runs.map((r) => [r.attempt, r.status]).sort(), [
    [FN_ATTEMPT, 'passed'],
    ['empty', 'failed'],
    ['gold', 'passed'],
    ['mini-gpt-4-1-mini', 'failed'],
    ['sweagent-claude-3-7-sonnet', 'passed'],
  ]);
  assert.deepEqual(m.fixed.falseNegatives, [
    { attempt: FN_ATTEMPT, spec: 'B4' },
    { attempt: FN_ATTEMPT, spec: 'B5' },
  ]);
  assert.deepEqual(m.introduced, { falsePositives: [], falseNegatives: [] });
  assert.deepEqual(m.counts, { before: { falsePositives: 0, falseNegatives: 2 }, after: { falsePositives: 0, falseNegatives: 0 } });
  const cell = m.cells.find((c) => c.attempt === FN_ATTEMPT && c.spec === 'B5');
  assert.deepEqual([cell?.before.verifier, cell?.before.outcome, cell?.after.verifier, cell?.after.outcome], ['fail', 'false_negative', 'pass', 'true_pass']);
  assert.equal(res.revalidation.revalidated, true);
  const human2 = await cli(['repair', 'show', root, FN_TASK, out.suggestion.id], env);
  assert.match(human2.stdout, /false negatives 2 -> 0/);
  assert.match(human2.stdout, /gone: {5}false positives: none; false negatives: claude-code-sonnet-4-5 × B4, claude-code-sonnet-4-5 × B5/);
  const st = taskState(CurationStore.open(root).state, FN_TASK);
  assert.equal(st.status, 'revalidated');

  // The key search.
  assert.deepEqual(filesContaining(top, KEY), [], 'files under the dataset and its repository');
  assert.deepEqual(filesContaining(top, KEY.slice(0, 16)), []);
  for (const o of [asked, human, acc, human2]) {
    assert.ok(!o.stdout.includes(KEY) && !o.stderr.includes(KEY), 'CLI output');
  }
  assert.ok(created.length >= 5, `${created.length} containers seen`);
  for (const c of created) {
    assert.ok(!JSON.stringify(c).includes(KEY), 'container create options');
    assert.deepEqual(c.Env ?? [], [], 'no environment passed into verifier containers');
  }
});
