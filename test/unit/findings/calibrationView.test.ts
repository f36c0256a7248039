// The calibration figures as the statistics panel receives them: at most MAX_CALIBRATION_GROUPS groups (most
// findings first, the rest counted), long names cut, and the page's shape check accepting them and refusing others.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CalibrationGroup, CalibrationStats } from '../../../src/core/findings/calibration';
import { calibrate } from '../../../src/core/findings/calibration';
import { buildCalibrationView } from '../../../src/core/view/calibrationView';
import { MAX_CALIBRATION_GROUPS } from '../../../src/protocol/messages';
import { calibrationViewProblem } from '../../../src/protocol/validate';

const group = (i: number, model = `m${i}`): CalibrationGroup => ({
  promptVersion: 'v1',
  model,
  findings: i,
  unlabelled: 0,
  undecided: 0,
  agentUnsure: 0,
  falsePositive: calibrate({ tp: 1, fp: 1, fn: 0, tn: 2 }, 100, 1),
  falseNegative: calibrate({ tp: 0, fp: 0, fn: 0, tn: 0 }, 100, 1),
});
const stats = (groups: CalibrationGroup[]): CalibrationStats => ({ policy: 'adjudicate', resamples: 100, seed: 1, confidence: 0.95, groups, notCurrent: 0, unknownPairs: 0 });

describe('the calibration view of the statistics panel', () => {
  it('keeps the groups with the most findings, counts the rest, cuts long names, and passes the shape check', () => {
    const v = buildCalibrationView(stats([...Array.from({ length: MAX_CALIBRATION_GROUPS + 5 }, (_, i) => group(i)), group(1000, 'x'.repeat(5000))]));
    assert.equal(v.groups.length, MAX_CALIBRATION_GROUPS);
    assert.equal(v.moreGroups, 6);
    assert.equal(v.groups[0]?.findings, 1000);
    assert.equal(v.groups[0]?.model.length, 200);
    assert.equal(calibrationViewProblem(v), undefined);
  });

  it('refuses figures of the wrong shape, naming what is wrong', () => {
    const v = buildCalibrationView(stats([group(1)]));
    assert.match(calibrationViewProblem({ ...v, groups: [{ ...v.groups[0], falsePositive: { ...v.groups[0]?.falsePositive, tp: -1 } }] }) ?? '', /calibration\.groups/);
    assert.match(calibrationViewProblem({ ...v, seed: 'x' }) ?? '', /resamples, seed and confidence/);
    assert.match(calibrationViewProblem(null) ?? '', /not an object/);
  });
});
