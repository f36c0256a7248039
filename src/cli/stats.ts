// `specweave stats DATASET [--json]`: the FP/FN breakdown of reviewed tasks, agreement, defect rates, funnel.
import type { CalibrationFigure, CalibrationStats, CandidateCalibration } from '../core/findings/calibration';
import type { CurationStats } from '../core/review/stats';
import type { Distribution, MeanInterval, SpecStats } from '../core/specs/stats';
import { specStats } from '../core/specs/stats';
import type { DatasetDifficulty } from '../core/solver/difficulty';
import { bandFlag, bandFrom } from './list';
import { defineCommand } from './command';
import { jsonFlag, openStore, policyFlag } from './curationCommon';
import { out, printJson, table } from './output';

const pct = (x: number | undefined) => (x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const fix = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

export function formatStats(s: CurationStats): string {
  const out: string[] = [];
  const f = s.funnel;
  out.push(`Tasks: ${f.imported} imported, ${f.reviewed} reviewed, ${f.approved} approved, ${f.rejected} rejected (policy: ${s.policy})`);
  out.push(`Status: ${Object.entries(s.byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out.push('');
  const b = s.breakdown;
  out.push(`Reviewed tasks by what the review found (${b.reviewed}):`);
  out.push(
    table(
      ['FINDING', 'TASKS', 'SHARE'],
      [
        ['false positives only', b.falsePositivesOnly, pct(b.shares?.falsePositivesOnly)],
        ['false negatives only', b.falseNegativesOnly, pct(b.shares?.falseNegativesOnly)],
        ['both', b.both, pct(b.shares?.both)],
        ['none observed', b.none, pct(b.shares?.none)],
      ],
    ),
  );
  out.push('Agreement between curators:');
  out.push(
    table(
      ['KIND', 'METRIC', 'CURATORS', 'ITEMS', 'ALPHA', 'KAPPA'],
      s.agreement.map((a) => [a.kind, a.metric, a.curators, a.items, fix(a.alpha), a.kappa !== undefined ? `${fix(a.kappa)} (${a.kappaItems})` : '-']),
    ),
  );
  out.push('Defect rates by spec category:');
  out.push(
    table(
      ['CATEGORY', 'SPECS', 'DECIDED', 'FP', 'FN', 'FP RATE', 'FN RATE'],
      s.byCategory.map((c) => [c.category, c.specs, c.decided, c.falsePositives, c.falseNegatives, pct(c.fpRate), pct(c.fnRate)]),
    ),
  );
  out.push('Defect rates by solver model:');
  out.push(
    table(
      ['MODEL', 'ATTEMPTS', 'DECIDED', 'FP', 'FN', 'FP RATE', 'FN RATE', 'ATTEMPTS W/ FP', 'ATTEMPTS W/ FN'],
      s.bySolver.map((m) => [m.model, m.attempts, m.decided, m.falsePositives, m.falseNegatives, pct(m.fpRate), pct(m.fnRate), m.attemptsWithFalsePositive, m.attemptsWithFalseNegative]),
    ),
  );
  if (s.curators.length > 0) {
    out.push('Curators:');
    out.push(
      table(
        ['CURATOR', 'EVENTS', 'LABELS', 'TASKS', 'DAYS', 'EVENTS/DAY'],
        s.curators.map((c) => {
          const days = s.throughput.filter((t) => t.curator === c.curator).length;
          return [c.curator, c.events, c.labels, c.tasks, days, days > 0 ? (c.events / days).toFixed(1) : '-'];
        }),
      ),
    );
  }
  out.push(`Disagreements: ${s.disagreements.open} open, ${s.disagreements.settled} settled. Suggestions: ${s.suggestions.open} open, ${s.suggestions.confirmed} confirmed, ${s.suggestions.dismissed} dismissed.`);
  out.push(`Log: ${s.log.events} events, ${s.log.undone} undone, ${s.log.issues} replay issues.`);
  return out.join('\n') + '\n';
}

const ci = (m: MeanInterval | undefined) => (m === undefined ? '-' : `${m.mean.toFixed(2)} [${m.low.toFixed(2)}, ${m.high.toFixed(2)}]`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const quartiles = (d: Distribution) =>
  d.count === 0 || d.median === undefined ? '-' : `${d.median.toFixed(2)} [${(d.q1 as number).toFixed(2)}, ${(d.q3 as number).toFixed(2)}] (${plural(d.count, 'task')})`;

/** The "Specs" section: CodeSpecWeave's spec statistics by source dataset and the coupling figure (docs/coupling.md). */
export function formatSpecStats(s: SpecStats): string {
  const out: string[] = [];
  out.push(`Specs (${Math.round(s.confidence * 100)}% bootstrap intervals, ${s.resamples} resamples, seed ${s.seed}):`);
  out.push(
    table(
      ['SOURCE', 'TASKS', 'WITH SPECS', 'SPECS/TASK', 'CATEGORIES/TASK', 'COUPLING MEDIAN [Q1, Q3]'],
      [s.all, ...s.bySource].map((g) => [g.source, g.tasks, g.tasksWithSpecs, ci(g.specsPerTask), ci(g.categoriesPerTask), quartiles(g.coupling)]),
    ),
  );
  out.push(`Specs per task: ${s.all.histogram.length > 0 ? s.all.histogram.map((h) => `${plural(h.specs, 'spec')}: ${plural(h.tasks, 'task')}`).join(' · ') : 'no tasks'}`);
  if (s.couplingByCategory.length > 0) {
    out.push("Coupling by spec category (each spec's share of its task's other specs it is coupled to):");
    out.push(
      table(
        ['CATEGORY', 'SPECS', 'MEDIAN', 'Q1', 'Q3', 'MEAN'],
        s.couplingByCategory.map((c) => [c.category, c.specs, fix2(c.share.median), fix2(c.share.q1), fix2(c.share.q3), fix2(c.share.mean)]),
      ),
    );
  }
  const e = s.evidence;
  out.push(
    `Coupling evidence: ${plural(e.pairs, 'spec pair')}, ${e.coupledPairs} coupled (shared tests ${e.sharedTests}, declared ${e.declared}, co-flip ${e.coFlip}); co-flip measurable on ${plural(e.measuredPairs, 'pair')}. See docs/coupling.md.`,
  );
  return out.join('\n') + '\n';
}

const fix2 = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2));

const figure = (f: CalibrationFigure) => {
  if (f.value === undefined) return '-';
  const frac = f.denominator !== undefined ? ` (${f.numerator}/${f.denominator})` : '';
  const ci = f.low !== undefined && f.high !== undefined ? ` [${f.low.toFixed(2)}, ${f.high.toFixed(2)}]` : '';
  return `${f.value.toFixed(2)}${frac}${ci}`;
};

/** The "Review agent calibration" section: the agent's FP/FN findings against the curators (docs/calibration.md). */
export function formatCalibration(c: CalibrationStats): string {
  const out: string[] = [];
  out.push(`Review agent calibration against curators (${Math.round(c.confidence * 100)}% bootstrap intervals, ${c.resamples} resamples, seed ${c.seed}):`);
  if (c.groups.length === 0) out.push('  no current findings of the review agent.');
  else {
    const rows: Array<Array<string | number>> = [];
    for (const g of c.groups) {
      const row = (kind: string, x: CandidateCalibration) => [g.promptVersion, g.model, kind, x.pairs, `${x.tp}/${x.fp}/${x.fn}/${x.tn}`, figure(x.precision), figure(x.recall), figure(x.kappa)];
      rows.push(row('false positive', g.falsePositive), row('false negative', g.falseNegative));
    }
    out.push(table(['PROMPT', 'MODEL', 'CANDIDATE', 'PAIRS', 'TP/FP/FN/TN', 'PRECISION [95% CI]', 'RECALL [95% CI]', 'KAPPA [95% CI]'], rows));
    out.push(
      c.groups
        .map((g) => `${g.promptVersion} · ${g.model}: ${plural(g.findings, 'finding')}, ${g.unlabelled} on unlabelled pairs, ${g.undecided} on undecided pairs, ${g.agentUnsure} unsure`)
        .join('\n'),
    );
  }
  if (c.notCurrent > 0 || c.unknownPairs > 0) out.push(`Left out: ${c.notCurrent} superseded or on another patch, ${c.unknownPairs} on attempts or specs the tasks do not have.`);
  return out.join('\n') + '\n';
}

const share = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)}%`);

/** Solve rates: the CodeSpecWeave funnel and the rate per model (docs/solver.md). */
export function formatDifficulty(d: DatasetDifficulty): string {
  const b = d.band;
  const band = b.inclusive ? `[${b.low}, ${b.high}]` : `strictly between ${b.low} and ${b.high}`;
  const f = d.funnel;
  const lines = [
    `Solve rates (band: ${band}):`,
    `  funnel: ${f.imported} imported -> ${f.measured} with attempt verdicts -> ${f.inBand} in the band -> ${f.reviewed} reviewed -> ${f.approved} approved`,
    `  tasks: ${d.tasks.neverSolved} never solved, ${d.tasks.inBand} in the band, ${d.tasks.alwaysSolved} always solved${d.tasks.otherOutside > 0 ? `, ${d.tasks.otherOutside} otherwise outside it` : ''}, ${d.tasks.unmeasured} without attempt verdicts`,
  ];
  const models = Object.entries(d.byModel);
  if (models.length > 0) lines.push(table(['MODEL', 'SOLVED', 'ATTEMPTS', 'RATE'], models.map(([m, r]) => [m || '(none)', r.solved, r.attempts, share(r.rate)])));
  return lines.join('\n') + '\n';
}

export const statsCommand = defineCommand({
  name: 'stats',
  summary: 'curation statistics: FP/FN breakdown, agreement, defect rates, funnel, throughput; spec statistics and coupling; review agent calibration',
  usage: 'specweave stats DATASET [--json] [--policy adjudicate|highest-severity] [--band LOW..HIGH]',
  flags: { ...policyFlag, ...jsonFlag, ...bandFlag },
  positional: { min: 1, max: 1 },
  async run(a) {
    const store = openStore(a);
    const s = store.stats();
    const specs = specStats({ tasks: store.dataset.tasks, state: store.state, verdicts: store.verdicts(), policy: store.policy });
    const calibration = store.calibration();
    const difficulty = store.datasetDifficulty(bandFrom(a.strings.band));
    if (a.booleans.json) printJson({ ...s, specs, calibration, difficulty });
    else out(formatStats(s) + '\n' + formatSpecStats(specs) + '\n' + formatCalibration(calibration) + '\n' + formatDifficulty(difficulty));
    return 0;
  },
});
