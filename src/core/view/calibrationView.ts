// The statistics panel's calibration figures (docs/calibration.md) as the protocol carries them: at most
// MAX_CALIBRATION_GROUPS prompt version × model groups (the most findings first; the rest counted), names cut to a
// length the page validates.
import type { CalibrationStats, CandidateCalibration } from '../findings/calibration';
import type { CalibrationTableView, CalibrationView } from '../../protocol/messages';
import { MAX_CALIBRATION_GROUPS } from '../../protocol/messages';

const MAX_NAME = 200;
const cut = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}\u2026` : s);

function tableView(t: CandidateCalibration): CalibrationTableView {
  return { pairs: t.pairs, tp: t.tp, fp: t.fp, fn: t.fn, tn: t.tn, precision: { ...t.precision }, recall: { ...t.recall }, kappa: { ...t.kappa } };
}

export function buildCalibrationView(c: CalibrationStats): CalibrationView {
  const groups = [...c.groups].sort((a, b) => b.findings - a.findings || (a.promptVersion < b.promptVersion ? -1 : a.promptVersion > b.promptVersion ? 1 : a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  return {
    resamples: c.resamples,
    seed: c.seed,
    confidence: c.confidence,
    groups: groups.slice(0, MAX_CALIBRATION_GROUPS).map((g) => ({
      promptVersion: cut(g.promptVersion),
      model: cut(g.model),
      findings: g.findings,
      unlabelled: g.unlabelled,
      undecided: g.undecided,
      agentUnsure: g.agentUnsure,
      falsePositive: tableView(g.falsePositive),
      falseNegative: tableView(g.falseNegative),
    })),
    moreGroups: Math.max(0, groups.length - MAX_CALIBRATION_GROUPS),
    notCurrent: c.notCurrent,
    unknownPairs: c.unknownPairs,
  };
}
