// The statistics panel's solve rates (docs/solver.md) as the protocol carries them: the band, the funnel, the task
// buckets and the rate histogram, and at most MAX_SOLVE_RATE_MODELS models (most attempts first; the rest counted),
// names cut to a length the page validates.
import type { DatasetDifficulty } from '../solver/difficulty';
import { bandText } from '../solver/difficulty';
import type { SolveRatesView } from '../../protocol/messages';
import { MAX_SOLVE_RATE_MODELS } from '../../protocol/messages';

const MAX_NAME = 200;
const cut = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}\u2026` : s);

export function buildSolveRatesView(d: DatasetDifficulty, bandProblem?: string): SolveRatesView {
  const models = Object.entries(d.byModel)
    .map(([model, r]) => ({ model, r }))
    .sort((a, b) => b.r.attempts - a.r.attempts || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  return {
    band: { text: bandText(d.band), low: d.band.low, high: d.band.high, inclusive: d.band.inclusive === true },
    ...(bandProblem ? { bandProblem: cut(bandProblem) } : {}),
    funnel: { ...d.funnel },
    tasks: { ...d.tasks },
    histogram: [...d.histogram],
    models: models.slice(0, MAX_SOLVE_RATE_MODELS).map(({ model, r }) => ({
      model: model === '' ? '(no model named)' : cut(model),
      solved: r.solved,
      attempts: r.attempts,
      ...(r.rate !== null ? { rate: r.rate } : {}),
      tasks: { ...(d.tasksByModel[model] ?? { neverSolved: 0, inBand: 0, alwaysSolved: 0, otherOutside: 0 }) },
    })),
    moreModels: Math.max(0, models.length - MAX_SOLVE_RATE_MODELS),
  };
}
