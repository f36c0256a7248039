// The export as the VS Code command runs it (writeCuratedSetAsync): the same bytes as `specweave export`, the event
// loop getting turns while files are fsynced (so the progress notification and Cancel work), and a cancel that
// leaves an earlier export untouched.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ExportError, writeCuratedSet, writeCuratedSetAsync } from '../../../src/adapters/fs/curatedSetWriter';
import { CurationStore } from '../../../src/app/curationStore';
import type { ExportPlan } from '../../../src/core/review/exportSet';
import { tmpDir } from '../helpers/tmp';
import { reviewDataset, writeT1Runs } from '../review/helpers';

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p, 'base64'));
    }
  };
  walk(dir);
  return out;
}

async function approvedPlan(): Promise<ExportPlan> {
  const root = reviewDataset();
  writeT1Runs(root);
  const store = CurationStore.open(root);
  for (const [attempt, spec] of [['a1', 'S1'], ['a1', 'S2'], ['a2', 'S1'], ['a2', 'S2']] as const) {
    assert.ok((await store.act('t1', 'alice', { kind: 'label', attempt, spec, verdict: attempt === 'a1' && spec === 'S2' ? 'satisfied' : spec === 'S2' ? 'violated' : 'satisfied' })).ok);
  }
  const r = await store.act('t1', 'alice', { kind: 'approve', waivers: [{ rule: 'no-open-false-positive', reason: 'bench' }] });
  assert.ok(r.ok, JSON.stringify(r));
  return store.exportPlan('specweave');
}

describe('curated set from the VS Code command', () => {
  it('writes the same bytes as the CLI writer, yielding to the event loop between files', async () => {
    const plan = await approvedPlan();
    assert.deepEqual(plan.tasks, ['t1']);
    const dir = tmpDir();
    writeCuratedSet(path.join(dir, 'sync'), plan);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const progress: number[] = [];
    await writeCuratedSetAsync(path.join(dir, 'async'), plan, { yieldEvery: 1, onProgress: (done) => progress.push(done) });
    clearInterval(ticker);
    assert.deepEqual(files(path.join(dir, 'async')), files(path.join(dir, 'sync')));
    assert.deepEqual(progress, plan.files.map((_, i) => i + 1));
    assert.ok(turns > 0, 'timers ran while the files were written');
  });

  it('a cancel stops before the swap: the earlier export stays as it was, no temporary folder is left', async () => {
    const plan = await approvedPlan();
    const dir = tmpDir();
    const out = path.join(dir, 'out');
    writeCuratedSet(out, plan);
    const before = files(out);
    const abort = new AbortController();
    await assert.rejects(
      writeCuratedSetAsync(out, { ...plan, files: plan.files.map((f) => ({ ...f, content: `${f.content}changed` })) }, { signal: abort.signal, yieldEvery: 1, onProgress: (done) => done === 2 && abort.abort() }),
      (e: unknown) => e instanceof ExportError && /cancelled/.test(e.message),
    );
    assert.deepEqual(files(out), before);
    assert.deepEqual(fs.readdirSync(dir), ['out']);
  });
});
