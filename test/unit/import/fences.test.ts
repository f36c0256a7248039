// Issue 10 item 8: a patch wrapped in a Markdown fence (a raw chat answer stored as the prediction) is named as such,
// not as a malformed hunk, and --strip-fences stores the diff inside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps } from '../../../src/app/importSwebench';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import { renderSummary } from '../../../src/cli/import';
import { findFence } from '../../../src/core/import/fences';
import { patchFlags } from '../../../src/core/import/patchFlags';
import { tmpDir } from '../helpers/tmp';

const FX = path.resolve(__dirname, '../../fixtures/import/fenced');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };
const INNER = 'diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n+++ b/src/m.py\n@@ -1,2 +1,2 @@\n def count(xs):\n-    return len(xs) - 1\n+    return len(xs)\n';
const preds = fs.readFileSync(path.join(FX, 'predictions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { model_patch: string });

async function run(stripFences: boolean) {
  const out = path.join(tmpDir(), 'out');
  const summary = await importSwebench(
    { instances: [path.join(FX, 'rows.jsonl')], predictions: [path.join(FX, 'predictions.jsonl'), path.join(FX, 'model-0.json')], out, stripFences },
    deps,
  );
  const dataset = loadDataset(out, { deep: true });
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  const patchOf = (taskId: string) => {
    const t = dataset.tasks.find((x) => x.id === taskId);
    assert.equal(t?.attempts.length, 1, `${taskId}: one attempt`);
    return fs.readFileSync(path.join(out, t.attempts[0]?.patchFile as string), 'utf8');
  };
  const flagsOf = (taskId: string) => summary.tasks.find((t) => t.id === taskId)?.attempts[0]?.flags ?? [];
  return { summary, patchOf, flagsOf, dataset };
}

test('the three fence shapes are found, with the lines of the opening and closing fence', () => {
  assert.deepEqual(findFence(preds[0]?.model_patch as string), { open: { line: 1, text: '```diff' }, close: { line: 9, text: '```' }, inner: INNER, linesOutside: 0 });
  const prose = findFence(preds[1]?.model_patch as string);
  assert.deepEqual([prose?.open, prose?.close, prose?.linesOutside], [{ line: 3, text: '```patch' }, { line: 10, text: '```' }, 1]);
  assert.equal(prose?.inner, INNER.replace('diff --git a/src/m.py b/src/m.py\n', ''));
  assert.deepEqual(findFence(preds[2]?.model_patch as string), { open: { line: 1, text: '<patch>' }, close: { line: 9, text: '</patch>' }, inner: INNER, linesOutside: 0 });
  // A plain diff, a diff whose context holds a fence line, prose with no diff: no fence.
  assert.equal(findFence(INNER), undefined);
  assert.equal(findFence('diff --git a/r.md b/r.md\n--- a/r.md\n+++ b/r.md\n@@ -1,3 +1,3 @@\n ```\n-a\n+b\n'), undefined);
  assert.equal(findFence('I could not fix it.\n```\nls\n```\n'), undefined);
  // An opening fence that is never closed, and CRLF line endings kept inside the fence.
  assert.equal(findFence('```diff\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n'), undefined);
  assert.equal(findFence('```diff\r\n--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n```\r\n')?.inner, '--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n');
});

test('without --strip-fences the patch is kept as written and named as fenced, not as a malformed hunk', async () => {
  const { patchOf, flagsOf, summary } = await run(false);
  assert.equal(patchOf('acme__widgets-7'), preds[0]?.model_patch);
  assert.deepEqual(flagsOf('acme__widgets-7'), [
    'the patch is wrapped in a Markdown fence (```diff at line 1, closing ``` at line 9); kept as written: import with --strip-fences to store the diff inside it',
  ]);
  assert.match(flagsOf('acme__widgets-8')[0] ?? '', /^the patch is wrapped in a Markdown fence \(```patch at line 3, closing ``` at line 10; 1 line of text outside it\)/);
  assert.match(flagsOf('acme__widgets-9')[0] ?? '', /^the patch is wrapped in a Markdown fence \(<patch> at line 1, closing <\/patch> at line 9\)/);
  // The real case: fenced, and its hunk counts are wrong inside the fence too.
  const ten = flagsOf('acme__widgets-10');
  assert.match(ten[0] ?? '', /wrapped in a Markdown fence/);
  assert.match(ten[1] ?? '', /^1 malformed hunk\(s\): the header's line counts disagree with the body \(first at patch line 5\)/);
  assert.equal(summary.tasks.find((t) => t.id === 'acme__widgets-7')?.attempts[0]?.fence?.stripped, false);
  assert.match(renderSummary(summary), /4 patch\(es\) are wrapped in a Markdown fence: import again with --strip-fences to store the diffs inside them/);
});

test('with --strip-fences the diff inside the fence is stored and the summary says so', async () => {
  const { patchOf, flagsOf, summary, dataset } = await run(true);
  assert.equal(patchOf('acme__widgets-7'), INNER);
  assert.equal(patchOf('acme__widgets-9'), INNER);
  assert.equal(patchOf('acme__widgets-8'), INNER.replace('diff --git a/src/m.py b/src/m.py\n', ''));
  assert.deepEqual(flagsOf('acme__widgets-7'), [`the Markdown fence around the patch was stripped (\`\`\`diff at line 1, closing \`\`\` at line 9); the patch as written is at ${path.join(FX, 'predictions.jsonl')}:1`]);
  assert.match(flagsOf('acme__widgets-8')[0] ?? '', /stripped \(```patch at line 3, closing ``` at line 10; 1 line of text outside it dropped\)/);
  // Stored without the fence, the miscounted hunk is at line 4 of the stored patch.
  assert.match(flagsOf('acme__widgets-10')[1] ?? '', /first at patch line 4\)/);
  assert.equal(summary.tasks.find((t) => t.id === 'acme__widgets-7')?.attempts[0]?.patchBytes, Buffer.byteLength(INNER));
  assert.match(renderSummary(summary), /4 patch\(es\) were wrapped in a Markdown fence; the diffs inside them were stored \(--strip-fences\)/);
  assert.ok(dataset.tasks.find((t) => t.id === 'acme__widgets-7')?.notes.some((n) => /fence around the patch was stripped.*predictions\.jsonl:1/.test(n)));
});

test('an error entry in a predictions array is skipped with its message, not imported as an empty patch', async () => {
  const { summary } = await run(false);
  const nine = summary.tasks.find((t) => t.id === 'acme__widgets-9');
  assert.deepEqual(nine?.attempts.map((a) => a.model), ['chat-model']);
  assert.deepEqual(
    summary.skipped.map((s) => [s.instanceId, path.basename(s.file), s.line, s.reason]),
    [['acme__widgets-9', 'model-0.json', 1, 'an error entry, not a prediction: "Request timed out"']],
  );
});

test('patchFlags on a fenced patch does not count the fence lines as hunk lines', () => {
  const flags = patchFlags(preds[0]?.model_patch as string, undefined, undefined);
  assert.equal(flags.length, 1);
  assert.doesNotMatch(flags[0] as string, /malformed/);
});
