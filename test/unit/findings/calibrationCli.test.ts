// `specweave stats` shows the review agent's calibration: a `calibration` block in --json, a table in the text
// output; findings on an older patch do not count; a hostile model name reaches the terminal escaped.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ReviewLog } from '../../../src/adapters/fs/reviewLog';
import type { CalibrationStats } from '../../../src/core/findings/calibration';
import type { FindingJudgment, FindingsPayload } from '../../../src/core/findings/model';
import type { EventDraft } from '../../../src/core/review/events';
import { reviewDataset, writeT1Runs } from '../review/helpers';

type Result = { code: number; out: string; err: string };
const runner = path.join(__dirname, '..', 'review', 'cliRunner.ts');
function runAll(...batches: string[][]): Result[] {
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', runner, JSON.stringify(batches)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as Result[];
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function findings(attempt: string, patchHash: string, judgments: Record<string, FindingJudgment>, model = 'judge-1'): EventDraft {
  const payload: FindingsPayload = {
    attempt,
    patchHash,
    model,
    promptVersion: 'review-1',
    promptHash: 'cd'.repeat(32),
    findings: Object.entries(judgments).map(([spec, judgment]) => ({ spec, judgment, confidence: 0.9, rationale: 'r', citations: [] })),
    dropped: [],
  };
  return { kind: 'review.findings', task: 't1', revision: 1, curator: 'agent', payload };
}

const lbl = (attempt: string, spec: string, verdict: 'satisfied' | 'violated'): EventDraft => ({ kind: 'label', task: 't1', revision: 1, curator: 'alice', payload: { attempt, spec, verdict, evidence: [] } });

describe('specweave stats: review agent calibration', () => {
  it('reports precision, recall and kappa per prompt version and model, in --json and in the text', async () => {
    const ds = reviewDataset();
    writeT1Runs(ds); // a1 passes S1 and S2; a2 passes S1, fails S2
    const h1 = sha(path.join(ds, 'tasks/t1/attempts/a1/patch.diff'));
    const h2 = sha(path.join(ds, 'tasks/t1/attempts/a2/patch.diff'));
    const log = ReviewLog.forDataset(ds);
    await log.append([
      lbl('a1', 'S1', 'satisfied'),
      lbl('a1', 'S2', 'violated'), // a curator false positive
      lbl('a2', 'S2', 'satisfied'), // a curator false negative
      findings('a1', h1, { S1: 'satisfied', S2: 'violated' }),
      findings('a2', h2, { S2: 'satisfied', S1: 'violated' }), // S1 of a2 has no label: unlabelled
      findings('a2', 'ef'.repeat(32), { S2: 'violated' }), // on another patch: not current
      findings('a1', h1, { S2: 'violated' }, 'evil\u001b[2Jmodel'),
    ]);
    const [json, text] = runAll(['stats', ds, '--json'], ['stats', ds]) as Result[];
    assert.equal(json?.code, 0, json?.err);
    const c = (JSON.parse(json?.out ?? '') as { calibration: CalibrationStats }).calibration;
    const g = c.groups.find((x) => x.model === 'judge-1');
    assert.ok(g, JSON.stringify(c));
    assert.deepEqual([g.findings, g.unlabelled], [4, 1]);
    assert.deepEqual([g.falsePositive.tp, g.falsePositive.fp, g.falsePositive.fn, g.falsePositive.tn], [1, 0, 0, 1]);
    assert.equal(g.falsePositive.precision.value, 1);
    assert.equal(g.falsePositive.kappa.value, 1);
    assert.deepEqual([g.falseNegative.tp, g.falseNegative.pairs], [1, 1]);
    assert.equal(c.notCurrent, 1);
    assert.equal(text?.code, 0, text?.err);
    assert.match(text?.out ?? '', /Review agent calibration against curators \(95% bootstrap intervals/);
    assert.match(text?.out ?? '', /review-1\s+judge-1\s+false positive\s+2\s+1\/0\/0\/1\s+1\.00 \(1\/1\)/);
    assert.ok(!(text?.out ?? '').includes('\u001b'), 'no raw escape reaches the terminal');
    assert.match(text?.out ?? '', /evil.*model/);
  });

  it('says so when the agent has no findings', () => {
    const ds = reviewDataset();
    const [text] = runAll(['stats', ds]) as Result[];
    assert.match(text?.out ?? '', /no current findings of the review agent/);
  });
});
