// The statistics panel's spec figures (docs/coupling.md) as the protocol carries them: at most MAX_SPEC_ROWS sources
// and categories (the rest counted, not listed), the specs-per-task histogram folded at MAX_SPEC_HISTOGRAM rows, and
// names cut to a length the page validates, so a dataset with thousands of sources still fits one message.
import type { SpecGroupStats, SpecStats } from '../specs/stats';
import type { SpecGroupView, SpecStatsView } from '../../protocol/messages';
import { MAX_SPEC_HISTOGRAM, MAX_SPEC_ROWS } from '../../protocol/messages';

const MAX_NAME = 200;
const cut = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}\u2026` : s);

function group(g: SpecGroupStats): SpecGroupView {
  let histogram: SpecGroupView['histogram'] = g.histogram.map((h) => ({ ...h }));
  if (histogram.length > MAX_SPEC_HISTOGRAM) {
    const rest = histogram.slice(MAX_SPEC_HISTOGRAM - 1);
    histogram = [...histogram.slice(0, MAX_SPEC_HISTOGRAM - 1), { specs: rest[0]?.specs ?? 0, tasks: rest.reduce((n, h) => n + h.tasks, 0), orMore: true }];
  }
  return {
    source: cut(g.source),
    tasks: g.tasks,
    specs: g.specs,
    tasksWithSpecs: g.tasksWithSpecs,
    ...(g.specsPerTask ? { specsPerTask: { ...g.specsPerTask } } : {}),
    ...(g.categoriesPerTask ? { categoriesPerTask: { ...g.categoriesPerTask } } : {}),
    histogram,
    coupling: { ...g.coupling, histogram: [...g.coupling.histogram] },
  };
}

export function buildSpecStatsView(s: SpecStats): SpecStatsView {
  const cats = [...s.couplingByCategory].sort((a, b) => b.specs - a.specs || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  return {
    resamples: s.resamples,
    seed: s.seed,
    confidence: s.confidence,
    all: group(s.all),
    bySource: s.bySource.slice(0, MAX_SPEC_ROWS).map(group),
    moreSources: Math.max(0, s.bySource.length - MAX_SPEC_ROWS),
    couplingByCategory: cats.slice(0, MAX_SPEC_ROWS).map((c) => ({ category: cut(c.category), specs: c.specs, share: { ...c.share, histogram: [...c.share.histogram] } })),
    moreCategories: Math.max(0, cats.length - MAX_SPEC_ROWS),
    evidence: { ...s.evidence },
  };
}
