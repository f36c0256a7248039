// Every trajectory fixture of ours reads the same from a file, from text, in any chunking, with a BOM and CRLF
// line endings, and summarized: the streaming layer never changes what a format adapter sees.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { readTrajectory, summarizeTrajectory } from '../../../src/adapters/fs/trajectoryReader';
import { TrajectoryBuilder, buildFromText, firstInstanceResult } from '../../../src/core/trajectory/normalize';

const FIX = path.resolve(__dirname, '../../fixtures/trajectories');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const files = walk(FIX)
  .map((p) => path.relative(FIX, p).split(path.sep).join('/'))
  .filter((f) => !f.endsWith('README.md'))
  .sort();

test('every fixture reads the same from a file, from text, in chunks of 1, 7 and 4093 bytes, and summarized', async () => {
  let read = 0;
  for (const f of files) {
    const abs = path.join(FIX, f);
    const fromFile = await readTrajectory(abs, { fileLabel: f });
    if (!fromFile.ok) continue;
    read++;
    const summary = await summarizeTrajectory(abs, { fileLabel: f });
    assert.ok(summary.ok, f);
    assert.deepEqual(summary.summary, fromFile.trajectory.summary, `${f}: summary`);
    if (f.startsWith('atif-continued/')) continue; // a continuation is only followed from a file
    const bytes = readFileSync(abs);
    const fromText = firstInstanceResult(buildFromText(bytes.toString('utf8'), { fileLabel: f }));
    assert.deepEqual(fromText, fromFile, `${f}: text`);
    for (const size of [1, 7, 4093]) {
      const b = new TrajectoryBuilder({ fileLabel: f });
      for (let i = 0; i < bytes.length; i += size) b.push(bytes.subarray(i, i + size));
      assert.deepEqual(firstInstanceResult(b.end()), fromFile, `${f}: chunks of ${size}`);
    }
  }
  assert.ok(read >= 10, `${read} fixtures read`);
});

test('every fixture with a UTF-8 BOM and CRLF line endings reads exactly as the original', () => {
  for (const f of files) {
    const text = readFileSync(path.join(FIX, f), 'utf8');
    const original = firstInstanceResult(buildFromText(text, { fileLabel: f }));
    // JSON strings never hold a raw newline, so every LF in the file is structural.
    const variant = firstInstanceResult(buildFromText('\ufeff' + text.replace(/\r?\n/g, '\r\n'), { fileLabel: f }));
    assert.deepEqual(variant, original, f);
  }
});
