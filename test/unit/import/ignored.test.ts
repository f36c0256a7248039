// Issue 10 item 14: every file the importer does not read is listed under "Ignored" with the reason, and a run that
// writes nothing never says "Imported 0 task(s) into X".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importSwebench } from '../../../src/app/importSwebench';
import type { ImportDeps } from '../../../src/app/importSwebench';
import { importCommand, renderSummary } from '../../../src/cli/import';
import { listTrajectoryInstances } from '../../../src/adapters/fs/trajectoryReader';
import { tmpDir } from '../helpers/tmp';

const FX = path.resolve(__dirname, '../../fixtures/import');
const IGN = path.join(FX, 'ignored');
const ROWS = path.join(FX, 'instances-crlf-bom.jsonl');
const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

async function inProcess(...args: string[]) {
  const out: string[] = [];
  const o = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  try {
    const code = await importCommand.run(args);
    return { code, stdout: out.join('') };
  } finally {
    process.stdout.write = o;
  }
}

test('files under --trajectories that are not read are listed with the reason: Aider histories, unknown JSON, logs', async () => {
  const s = await importSwebench({ instances: [ROWS], trajectories: [path.join(IGN, 'mini-batch'), path.join(IGN, 'aider-repo')], out: path.join(tmpDir(), 'o') }, deps);
  assert.deepEqual(s.tasks.find((t) => t.id === 'acme__gadgets-2')?.attempts.map((a) => [a.id, a.model]), [['mini-batch', 'anthropic/claude-sonnet-4-5']]);
  const why = Object.fromEntries(s.ignored.map((i) => [path.relative(IGN, i.file), i.reason]));
  assert.deepEqual(Object.keys(why).sort(), [
    'aider-repo/.aider.chat.history.md',
    'aider-repo/.aider.input.history',
    'aider-repo/settings.json',
    'mini-batch/exit_statuses_1763456789.123.yaml',
    'mini-batch/minisweagent.log',
  ]);
  assert.equal(why['aider-repo/.aider.chat.history.md'], 'Aider chat history (Markdown): no instance, model, cost or patch recorded; not imported');
  assert.match(why['aider-repo/.aider.input.history'] ?? '', /^Aider's input history: not imported/);
  assert.match(why['aider-repo/settings.json'] ?? '', /not a (known )?trajectory/);
  assert.match(why['mini-batch/exit_statuses_1763456789.123.yaml'] ?? '', /exit statuses .* each trajectory records its own/);
  assert.match(why['mini-batch/minisweagent.log'] ?? '', /^a log file: not read/);
  const text = renderSummary(s);
  assert.match(text, /Ignored 5 file\(s\) that are neither trajectories, predictions nor reports:/);
  assert.match(text, /\.aider\.chat\.history\.md: Aider chat history \(Markdown\)/);
});

test('an Aider history and unknown files under --reports are listed too', async () => {
  const s = await importSwebench({ instances: [ROWS], reports: [path.join(IGN, 'aider-repo')], out: path.join(tmpDir(), 'o') }, deps);
  const why = Object.fromEntries(s.ignored.map((i) => [path.basename(i.file), i.reason]));
  assert.equal(why['.aider.chat.history.md'], 'Aider chat history (Markdown): no instance, model, cost or patch recorded; not imported');
  assert.equal(why['settings.json'], 'not a report shape this importer knows');
  assert.match(why['.aider.input.history'] ?? '', /^Aider's input history/);
});

test('many ignored files of one kind share a line in the report', async () => {
  const dir = tmpDir();
  const run = path.join(dir, 'run');
  fs.cpSync(path.join(IGN, 'mini-batch'), run, { recursive: true });
  for (let i = 0; i < 14; i++) fs.writeFileSync(path.join(run, `worker-${i}.log`), 'x\n');
  const s = await importSwebench({ instances: [ROWS], trajectories: [run], out: path.join(dir, 'o') }, deps);
  assert.equal(s.ignored.length, 16);
  const text = renderSummary(s);
  assert.match(text, / {2}15 files \(.*minisweagent\.log, .*worker-0\.log, \.\.\.\): a log file: not read/);
  assert.doesNotMatch(text, /worker-9\.log/);
});

test('nothing written: the report says why instead of "Imported 0 task(s)", and exits 1', async () => {
  const dir = tmpDir();
  const bad = path.join(dir, 'rows.jsonl');
  fs.writeFileSync(bad, '{"instance_id": "x__y-1", \n');
  const none = await inProcess('swebench', '--instances', bad, '--out', path.join(dir, 'a'));
  assert.equal(none.code, 1);
  assert.doesNotMatch(none.stdout, /Imported 0/);
  assert.match(none.stdout, /^Nothing was imported into .*a: no instance row could be read; nothing was written\n/);
  assert.equal(fs.existsSync(path.join(dir, 'a')), false);

  const out = path.join(dir, 'b');
  assert.equal((await inProcess('swebench', '--instances', ROWS, '--out', out)).code, 1); // the bad row in ROWS
  const again = await inProcess('swebench', '--instances', ROWS, '--out', out);
  assert.equal(again.code, 1);
  assert.doesNotMatch(again.stdout, /Imported 0/);
  assert.match(again.stdout, /^Nothing was imported into .*b: its 2 task folder\(s\) already exist and were kept \(pass --replace to overwrite them\)\n/);

  const filled = path.join(dir, 'c');
  fs.mkdirSync(filled);
  fs.writeFileSync(path.join(filled, 'keep.txt'), 'mine');
  const refused = await inProcess('swebench', '--instances', ROWS, '--out', filled);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /^Nothing was imported into .*c: --out is a folder that is neither empty nor a SpecWeave dataset/);
});
