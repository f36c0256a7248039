import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { tmpDir } from '../helpers/tmp';
import { reviewDataset, writeT1Runs } from './helpers';

type Result = { code: number; out: string; err: string };

/** Runs the commands in order in one child process (see cliRunner.ts). */
function runAll(...batches: string[][]): Result[] {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'cliRunner.ts'), JSON.stringify(batches)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out) as Result[];
}

describe('curation CLI', () => {
  it('labels, scores, approves (refused, then with a waiver), and shows the log, the stats and the export', () => {
    const ds = reviewDataset();
    writeT1Runs(ds);
    const out = path.join(tmpDir(), 'curated');
    const c = ['--curator', 'alice'];
    const [label1, l2, l3, l4, score, refused, noReason, approved, logJson, logText, statsJson, statsText, exported] = runAll(
      ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S2', '--verdict', 'violated', '--note', 'wrong punctuation', '--evidence', 'test:T2', '--evidence', 'trajectory_step:4', ...c],
      ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'satisfied', ...c],
      ['label', ds, 't1', '--attempt', 'a2', '--spec', 'S1', '--verdict', 'satisfied', ...c],
      ['label', ds, 't1', '--attempt', 'a2', '--spec', 'S2', '--verdict', 'violated', ...c],
      ['score', ds, 't1', '--underspecified', '0', '--fn-severity', '0', '--fp-severity', '2', '--env-defect', 'flaky', '--difficulty', '15m-1h', ...c],
      ['approve', ds, 't1', ...c],
      ['approve', ds, 't1', '--waive', 'no-open-false-positive', ...c],
      ['approve', ds, 't1', '--waive', 'no-open-false-positive', '--reason', 'punctuation is out of scope', '--json', ...c],
      ['log', ds, 't1', '--json'],
      ['log', ds],
      ['stats', ds, '--json'],
      ['stats', ds],
      ['export', ds, '--out', out, '--format', 'swebench'],
    ) as Result[];
    assert.equal(label1?.code, 0, label1?.err);
    assert.match(label1?.out ?? '', /t1: a1 × S2 violated by alice \(verifier pass; outcome false_positive\)/);
    for (const r of [l2, l3, l4, score]) assert.equal(r?.code, 0, r?.err);
    assert.equal(refused?.code, 1);
    assert.match(refused?.err ?? '', /cannot approve task t1: rule no-open-false-positive \(no open false positive\): 1 open false positive: a1 × S2/);
    assert.equal(noReason?.code, 2, 'a waiver without a reason is a usage error');
    assert.equal(approved?.code, 0, approved?.err);
    const ap = JSON.parse(approved?.out ?? '') as { ok: boolean; event: { kind: string; payload: { waivers: unknown[] } } };
    assert.deepEqual(ap.event.payload.waivers, [{ rule: 'no-open-false-positive', reason: 'punctuation is out of scope' }]);

    const log = JSON.parse(logJson?.out ?? '') as Array<{ kind: string; summary: string; undone: boolean }>;
    assert.deepEqual(log.map((e) => e.kind), ['label', 'label', 'label', 'label', 'score', 'approve']);
    assert.match(log[0]?.summary ?? '', /\[test:T2, trajectory_step:a1#4\] — wrong punctuation/);
    assert.match(logText?.out ?? '', /approve waiving no-open-false-positive/);

    const stats = JSON.parse(statsJson?.out ?? '') as { funnel: Record<string, number>; breakdown: Record<string, number>; agreement: Array<{ kind: string }> };
    assert.deepEqual(stats.funnel, { imported: 3, reviewed: 1, approved: 1, rejected: 0 });
    assert.equal(stats.breakdown.falsePositivesOnly, 1);
    assert.deepEqual(stats.agreement.map((a) => a.kind), ['verdict', 'underspecified', 'fnSeverity', 'fpSeverity', 'difficulty']);
    assert.match(statsText?.out ?? '', /false positives only\s+1\s+100\.0%/);

    assert.equal(exported?.code, 0, exported?.err);
    assert.match(exported?.out ?? '', /1 approved task\(s\) exported/);
    assert.ok(fs.existsSync(path.join(out, 'tasks.jsonl')));
  });

  it('refuses bad input with the thing named and a non-zero exit', () => {
    const ds = reviewDataset();
    const c = ['--curator', 'alice'];
    const [attempt, verdict, curator, transition, undo, score, format] = runAll(
      ['label', ds, 't1', '--attempt', 'zz', '--spec', 'S1', '--verdict', 'satisfied', ...c],
      ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'maybe', ...c],
      ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'satisfied', '--curator', 'bell\u0007'],
      ['status', ds, 't1', 'repaired', ...c],
      ['undo', ds, '01XXXXXXXXXXXXXXXXXXXXXXXX', ...c],
      ['score', ds, 't1', '--underspecified', '5', '--fn-severity', '0', '--fp-severity', '0', ...c],
      ['export', ds, '--out', path.join(tmpDir(), 'x'), '--format', 'csv'],
    ) as Result[];
    assert.equal(attempt?.code, 1);
    assert.match(attempt?.err ?? '', /no attempt "zz"/);
    assert.equal(verdict?.code, 2);
    assert.equal(curator?.code, 2);
    assert.match(curator?.err ?? '', /control character U\+0007/);
    assert.equal(transition?.code, 1);
    assert.match(transition?.err ?? '', /cannot go from candidate to repaired/);
    assert.equal(undo?.code, 1);
    assert.match(undo?.err ?? '', /no event/);
    assert.equal(score?.code, 2);
    assert.equal(format?.code, 2);
    assert.ok(!fs.existsSync(path.join(ds, 'curation/events.jsonl')), 'nothing was recorded');
  });

  it('reports a hand-damaged log line on stderr and still works', () => {
    const ds = reviewDataset();
    assert.equal(runAll(['submit', ds, 't2', '--curator', 'bob'])[0]?.code, 0);
    fs.appendFileSync(path.join(ds, 'curation/events.jsonl'), '{"this is": "not an event"\n');
    const [r] = runAll(['log', ds]) as Result[];
    assert.equal(r?.code, 0);
    assert.match(r?.err ?? '', /curation\/events\.jsonl:2: error: malformed JSON/);
    assert.match(r?.out ?? '', /submit/);
    assert.ok(!fs.existsSync(path.join(ds, 'curation/events.rejected.jsonl')), 'log only reads: it writes nothing');
    assert.equal(runAll(['submit', ds, 't1', '--curator', 'bob'])[0]?.code, 0);
    assert.ok(fs.readFileSync(path.join(ds, 'curation/events.rejected.jsonl'), 'utf8').includes('not an event'), 'the next write copies the bad line aside');
  });

  it('blind log view hides the other curators on tasks the viewer has not submitted', () => {
    const ds = reviewDataset();
    const [, , before, , after] = runAll(
      ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'satisfied', '--curator', 'alice'],
      ['label', ds, 't1', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'violated', '--curator', 'bob'],
      ['log', ds, '--curator', 'alice', '--blind', '--json'],
      ['submit', ds, 't1', '--curator', 'alice'],
      ['log', ds, '--curator', 'alice', '--blind', '--json'],
    ) as Result[];
    assert.deepEqual((JSON.parse(before?.out ?? '') as Array<{ curator: string }>).map((e) => e.curator), ['alice']);
    assert.deepEqual((JSON.parse(after?.out ?? '') as Array<{ curator: string }>).map((e) => e.curator), ['alice', 'bob', 'alice']);
  });
});
