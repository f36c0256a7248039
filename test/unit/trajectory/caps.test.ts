// Size and depth caps while streaming a trajectory: one value over the cap (a 300 MB string in one step) or nested
// deeper than the cap is a problem naming the file and the step, it is left out, the rest of the trajectory is
// read, and memory stays bounded (measured in a child process, whose peak RSS is its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { JsonScanner } from '../../../src/core/trajectory/jsonScanner';
import type { PathSeg } from '../../../src/core/trajectory/jsonScanner';
import { tmpDir } from '../helpers/tmp';

const ROOT = path.resolve(__dirname, '../../..');
const HEAD = '{"schema_version":"ATIF-v1.5","session_id":"s","agent":{"name":"terminus-2","version":"2","model_name":"m"},"steps":[{"step_id":1,"source":"user","message":"Fix it."},';
const LAST = '{"step_id":3,"source":"agent","message":"done"}]}';

/** Writes an ATIF trajectory whose step 2 holds one string of `mb` MiB, in 1 MiB pieces (never one big buffer). */
function bigStringTrajectory(file: string, mb: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, `${HEAD}{"step_id":2,"source":"agent","message":"`);
    const piece = Buffer.alloc(1 << 20, 'x');
    for (let i = 0; i < mb; i++) fs.writeSync(fd, piece);
    fs.writeSync(fd, `"},${LAST}`);
  } finally {
    fs.closeSync(fd);
  }
}

test('a 300 MB string in one step stops at the size cap while streaming: a problem naming the file and step, bounded memory', () => {
  const dir = tmpDir('sw-cap-');
  const file = path.join(dir, 'trajectory.json');
  bigStringTrajectory(file, 300);
  // The child reads with the cap lowered to 4 MiB and reports what it got and its own peak resident memory.
  const script = `
    const { readTrajectory } = require(${JSON.stringify(path.join(ROOT, 'src/adapters/fs/trajectoryReader.ts'))});
    readTrajectory(${JSON.stringify(file)}, { fileLabel: 'tasks/t1/attempts/a1/trajectory.json', maxValueBytes: 4 << 20 }).then((r) => {
      const out = { ok: r.ok, steps: r.ok ? r.trajectory.steps.map((s) => s.text.slice(0, 10)) : [], problems: r.ok ? r.problems : [r.problem], maxRssMb: process.resourceUsage().maxRSS / 1024 };
      process.stdout.write(JSON.stringify(out));
    });`;
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 })) as {
    ok: boolean;
    steps: string[];
    problems: Array<{ severity: string; file: string; line?: number; message: string }>;
    maxRssMb: number;
  };
  assert.equal(out.ok, true, JSON.stringify(out.problems));
  assert.deepEqual(out.steps, ['Fix it.', 'done'], 'the steps around the big one are read');
  const p = out.problems.find((x) => /larger than/.test(x.message));
  assert.equal(p?.file, 'tasks/t1/attempts/a1/trajectory.json');
  assert.equal(p?.severity, 'error');
  assert.match(p?.message ?? '', /^steps\[1\] \(line 1\) is larger than 4 MiB \(the limit for one value\); it was left out/);
  // 300 MB of input; reading it whole needs several times that. Bounded: the node process plus a few chunks.
  assert.ok(out.maxRssMb < 260, `peak RSS ${out.maxRssMb.toFixed(0)} MB`);
});

test('one step nested 5,000 levels deep is left out with a problem naming it; the other steps are read', async () => {
  const dir = tmpDir('sw-cap-');
  const file = path.join(dir, 'trajectory.json');
  const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
  fs.writeFileSync(file, `${HEAD}{"step_id":2,"source":"agent","message":"x","extra":${deep}},\n${LAST}`);
  const r = await readTrajectory(file, { fileLabel: 'traj.json' });
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  assert.deepEqual(r.trajectory.steps.map((s) => s.text), ['Fix it.', 'done']);
  const p = r.problems.find((x) => /nested deeper/.test(x.message));
  assert.equal(p?.file, 'traj.json');
  assert.match(p?.message ?? '', /^steps\[1\] \(line 1\) is nested deeper than 256 levels; it was left out/);
});

test('the scanner drops a value over the cap whatever the chunking, and a long member name is an error', () => {
  const text = '{"steps":[{"m":"' + 'y'.repeat(5000) + '"},{"m":"ok"}],"k":1}';
  for (const size of [1, 7, 4096, text.length]) {
    const got: string[] = [];
    const s = new JsonScanner(
      {
        policy: (p: readonly PathSeg[]) => (p.length === 0 || (p.length === 1 && p[0] === 'steps') ? 'descend' : 'value'),
        value: (p, v) => got.push(`${JSON.stringify(p)}=${JSON.stringify(v).slice(0, 20)}`),
        dropped: (p, loc, why) => got.push(`dropped ${JSON.stringify(p)} line ${loc.line} ${why}`),
        error: (e) => {
          got.push(`error ${e.message}`);
          return 'stop';
        },
      },
      { maxValueBytes: 1000 },
    );
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
    s.end();
    assert.deepEqual(got, ['dropped ["steps",0] line 1 size', '["steps",1]={"m":"ok"}', '["k"]=1'], `chunks of ${size}`);
  }
  const errors: string[] = [];
  const s = new JsonScanner({ policy: () => 'descend', value: () => undefined, error: (e) => (errors.push(e.message), 'stop') }, { maxValueBytes: 100 });
  s.push(new TextEncoder().encode(`{"${'k'.repeat(500)}":1}`));
  s.end();
  assert.match(errors[0] ?? '', /member name longer than 100 bytes/);
});
