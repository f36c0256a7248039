// `specweave import swebench` from a terminal: usage errors, exit codes, the human report and the --json shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importCommand } from '../../../src/cli/import';
import type { ImportSummary } from '../../../src/core/import/summary';
import { tmpDir } from '../helpers/tmp';
import { cliArgs } from '../helpers/cli';

const ROOT = path.resolve(__dirname, '../../..');
const FX = path.join(ROOT, 'test/fixtures/import');
const SWE = path.resolve(ROOT, '../shared/samples/swebench');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs(), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the command in this process (starting a CLI process per case is slow), capturing what it prints. */
async function inProcess(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const [o, e] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const code = await importCommand.run(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

test('usage errors exit 2 and say what is missing', async () => {
  const noOut = await inProcess('swebench', '--instances', path.join(FX, 'instances-crlf-bom.jsonl'));
  assert.equal(noOut.code, 2);
  assert.match(noOut.stderr, /--out DATASET is required/);
  assert.match(noOut.stderr, /usage: specweave import swebench/);
  const noInstances = await inProcess('swebench', '--out', path.join(tmpDir(), 'x'));
  assert.equal(noInstances.code, 2);
  assert.match(noInstances.stderr, /--instances FILE \(or --task-dirs DIR\) is required/);
  assert.match((await inProcess('swe-bench', '--instances', 'x', '--out', 'y')).stderr, /unknown importer "swe-bench" \(known: swebench, harbor\)/);
  assert.match((await inProcess('swebench', '--bogus')).stderr, /unknown option --bogus/);
  assert.equal((await inProcess('--help')).code, 0);
});

test('a clean import exits 0 and --json prints the documented summary', () => {
  const out = path.join(tmpDir(), 'ds');
  const r = cli(
    'import', 'swebench',
    '--instances', path.join(SWE, 'instances/swebench-verified_rows.string-encoded.jsonl'),
    '--predictions', path.join(SWE, 'predictions/multi-solver.assembled.jsonl'),
    '--reports', path.join(SWE, 'harness_logs'),
    '--image', 'swebench/sweb.eval.x86_64.{swebench_id}:latest',
    '--out', out, '--json',
  );
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout) as ImportSummary;
  assert.deepEqual(Object.keys(s), ['out', 'instanceFiles', 'predictionFiles', 'tasks', 'unmatched', 'skipped', 'merged', 'ignored', 'problems', 'counts']);
  assert.equal(s.out, out);
  assert.deepEqual(s.tasks.map((t) => [t.id, t.status, t.tests, t.attempts.length, t.image]), [
    ['django__django-11119', 'written', { failToPass: 1, passToPass: 7 }, 5, 'swebench/sweb.eval.x86_64.django_1776_django-11119:latest'],
    ['mwaskom__seaborn-3069', 'written', { failToPass: 2, passToPass: 94 }, 4, 'swebench/sweb.eval.x86_64.mwaskom_1776_seaborn-3069:latest'],
  ]);
  const gpt = s.tasks[1]?.attempts.find((a) => a.model === 'openai/gpt-5-mini');
  assert.deepEqual(gpt?.recordedResults.map((x) => [x.source, x.status, x.patchApplied]), [['swebench-harness-log', 'error', false]]);
  assert.equal(s.counts.errors, 0);
  assert.ok(fs.existsSync(path.join(out, 'specweave.json')));
});

test('the human report names what was imported and what was not; skipped input makes exit 1', async () => {
  const r = await inProcess(
    'swebench',
    '--instances', path.join(FX, 'instances-crlf-bom.jsonl'),
    '--predictions', path.join(SWE, 'predictions/blacksmith_predictions_swebench_v1.1.0.jsonl'),
    '--out', path.join(tmpDir(), 'ds'),
  );
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^Imported 2 task\(s\), 0 attempt\(s\), 0 recorded result\(s\) into /);
  assert.match(r.stdout, /15 predictions by blacksmith-ai-engine-v1\.1\.0 in .*: no instance row with this id: django__django-11099/);
  assert.match(r.stdout, /instances-crlf-bom\.jsonl:2: error: malformed JSON on this line; the row is skipped/);
  assert.match(r.stdout, /no repository clone for acme\/widgets/);
});
