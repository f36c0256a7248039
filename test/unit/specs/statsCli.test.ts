import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { SpecStats } from '../../../src/core/specs/stats';
import { reviewDataset } from '../review/helpers';

type Result = { code: number; out: string; err: string };

function runAll(...batches: string[][]): Result[] {
  const runner = path.join(__dirname, '..', 'review', 'cliRunner.ts');
  const out = execFileSync(process.execPath, ['--import', 'tsx', runner, JSON.stringify(batches)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out) as Result[];
}

describe('specweave stats: the Specs section', () => {
  // The review fixture: t1 (SWE-bench import, S2 dependsOn S1: coupling 1), t2 (hand-written, two independent specs:
  // 0), t3 (one spec; here its source names a hostile flavor with a terminal escape).
  it('prints mean specs and categories per task with intervals, by source, the histogram and the coupling; --json has them under specs', () => {
    const ds = reviewDataset();
    const t3 = path.join(ds, 'tasks', 't3', 'task.json');
    const task = JSON.parse(fs.readFileSync(t3, 'utf8')) as Record<string, unknown>;
    task.source = { importer: 'swebench', flavor: 'evil\u001b]0;owned\u0007' };
    fs.writeFileSync(t3, JSON.stringify(task, null, 2));
    const [json, text] = runAll(['stats', ds, '--json'], ['stats', ds]);
    assert.equal(json?.code, 0, json?.err);
    const parsed = JSON.parse(json?.out ?? '') as { funnel: unknown; specs: SpecStats };
    assert.ok(parsed.funnel, 'the curation statistics are still there');
    const s = parsed.specs;
    assert.equal(s.all.tasks, 3);
    assert.equal(s.all.specs, 5);
    assert.equal(s.all.specsPerTask?.mean, 5 / 3);
    assert.ok((s.all.specsPerTask?.low ?? 9) <= 5 / 3 && (s.all.specsPerTask?.high ?? 0) >= 5 / 3);
    assert.deepEqual(s.all.histogram, [
      { specs: 1, tasks: 1 },
      { specs: 2, tasks: 2 },
    ]);
    assert.deepEqual(
      s.bySource.map((g) => [g.source, g.tasks, g.coupling.count, g.coupling.median]),
      [
        ['evil\u001b]0;owned\u0007', 1, 0, undefined],
        ['hand-written', 1, 1, 0],
        ['swe-bench', 1, 1, 1],
      ],
    );
    assert.deepEqual(s.bySource[2]?.specsPerTask, { mean: 2, low: 2, high: 2 });

    assert.equal(text?.code, 0, text?.err);
    const out = text?.out ?? '';
    assert.match(out, /^Specs \(95% bootstrap intervals, 2000 resamples, seed 12\):$/m);
    assert.match(out, /^all\s+3\s+3\s+1\.67 \[1\.\d\d, \d\.\d\d\]\s+1\.67 \[/m);
    assert.match(out, /^swe-bench\s+1\s+1\s+2\.00 \[2\.00, 2\.00\]\s+2\.00 \[2\.00, 2\.00\]\s+1\.00 \[1\.00, 1\.00\] \(1 task\)$/m);
    assert.match(out, /^hand-written\s+1\s+1\s+2\.00 \[2\.00, 2\.00\]\s+2\.00 \[2\.00, 2\.00\]\s+0\.00 \[0\.00, 0\.00\] \(1 task\)$/m);
    assert.match(out, /^Specs per task: 1 spec: 1 task · 2 specs: 2 tasks$/m);
    assert.match(out, /^data-transformation\s+1\s+1\.00/m);
    assert.match(out, /Coupling evidence: 2 spec pairs, 1 coupled \(shared tests 0, declared 1, co-flip 0\)/);
    assert.ok(!out.includes('\u001b'), 'no raw escape reaches the terminal');
    assert.match(out, /evil\\x1b\]0;owned\\x07/);
  });
});
