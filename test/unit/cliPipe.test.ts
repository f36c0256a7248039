// `specweave show | head -2`: the reader goes away after two lines while the CLI still has most of its output to
// write. Every command must then end quietly with its usual exit code: no EPIPE stack trace, nothing on stderr.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { copyFixture } from './helpers/tmp';
import { cliArgs } from './helpers/cli';

const root = path.resolve(__dirname, '../..');

/** A dataset whose show, list and validate outputs are far bigger than a pipe's buffer (64 KiB). */
function bigDataset(): string {
  const ds = copyFixture('datasets/tiny');
  const t = path.join(ds, 'tasks', 't1');
  fs.writeFileSync(path.join(t, 'request.md'), Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long request`).join('\n') + '\n');
  const task = JSON.parse(fs.readFileSync(path.join(t, 'task.json'), 'utf8')) as { title: string };
  task.title = `A long title ${'x'.repeat(300_000)}`;
  fs.writeFileSync(path.join(t, 'task.json'), JSON.stringify(task, null, 2));
  return ds;
}

/** Runs the CLI with stdout on a pipe that this side closes after `lines` lines; resolves when the CLI has exited. */
function closedAfter(args: string[], lines: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; got: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...cliArgs(), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let got = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => {
      got += c.toString();
      if (got.split('\n').length > lines) p.stdout.destroy();
    });
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('error', reject);
    p.on('close', (code, signal) => resolve({ code, signal, stderr, got }));
  });
}

for (const [args, code] of [
  [['show', '{DS}', 't1'], 0],
  [['show', '{DS}', 't1', '--json'], 0],
  [['list', '{DS}'], 0],
  [['validate', '{DS}', '--json'], 0],
] as const) {
  test(`\`specweave ${args.join(' ')} | head -2\` ends quietly with exit ${code}`, async () => {
    const ds = bigDataset();
    const r = await closedAfter(args.map((a) => (a === '{DS}' ? ds : a)), 2);
    assert.ok(r.got.length > 0, 'the reader got the first lines');
    assert.equal(r.stderr, '', 'nothing on stderr: no EPIPE, no stack trace');
    assert.deepEqual([r.code, r.signal], [code, null]);
  });
}
