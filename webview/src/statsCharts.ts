// The statistics view: the false-positive / false-negative breakdown of reviewed tasks (the table the field reports),
// defect rates by spec category and by solver model, agreement with the number of items behind each figure, the
// funnel, and curator throughput. A lit-html template: charts are SVG templates, bars are sized through CSSOM
// (`width` sets `style.width` on the element; no style attribute, which the CSP refuses), text goes through text
// bindings.
import { html, nothing, svg, type SVGTemplateResult, type TemplateResult } from 'lit-html';
import { ref, type RefOrCallback } from 'lit-html/directives/ref.js';
import type { CalibrationFigureView, CalibrationTableView, CalibrationView, DistributionView, MeanIntervalView, SolveRatesView, SpecGroupView, SpecStatsView, StatsViewModel } from '../../src/protocol/messages';
import { formatCount, oneLine } from './text';

const MAX_ROWS = 40;
type Cell = string | TemplateResult;

/** Sizes a bar through CSSOM (lit's styleMap writes a style attribute on its first render, which the CSP refuses). */
const width = (w: string): ReturnType<typeof ref> =>
  ref(((e?: Element) => {
    if (e instanceof HTMLElement) e.style.width = w;
  }) as RefOrCallback);

const pct = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '–' : `${(x * 100).toFixed(x < 0.1 && x > 0 ? 1 : 0)}%`);
const share = (n: number, of: number): number | undefined => (of > 0 ? n / of : undefined);
const fixed = (x: number | undefined, d = 2): string => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));

const BREAKDOWN: ReadonlyArray<{ key: 'falsePositivesOnly' | 'falseNegativesOnly' | 'both' | 'none'; label: string; cls: string }> = [
  { key: 'falsePositivesOnly', label: 'false positives only', cls: 'fp' },
  { key: 'falseNegativesOnly', label: 'false negatives only', cls: 'fn' },
  { key: 'both', label: 'both', cls: 'both' },
  { key: 'none', label: 'none', cls: 'none' },
];

/** A horizontal bar whose length is `value / max`, with its label and number. */
/** What a click on a row or bar asks of the Candidates list (the panel's host filters it). */
/** What a click on a row or bar of the statistics filters the Candidates list by. */
export type CandidatesFilter = { statuses?: string[]; categories?: string[]; models?: string[]; mixedSuccess?: true };
export type CandidatesFilterFn = (f: CandidatesFilter) => void;

/** A label that filters the Candidates list to the tasks it counts, when the panel can. */
function filterLabel(text: string, f: CandidatesFilter, onFilter: CandidatesFilterFn | undefined, testid: string): TemplateResult | string {
  if (!onFilter) return text;
  const go = (e: Event): void => {
    if (e instanceof KeyboardEvent && e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onFilter(f);
  };
  return html`<span class="link-like" role="button" tabindex="0" data-testid=${testid} title="Show these tasks in the Candidates list" @click=${go} @keydown=${go}>${text}</span>`;
}

function bar(label: string | TemplateResult, value: number, max: number, cls: string, text: string, testid?: string): TemplateResult {
  const w = `${max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0}%`;
  return html`<div class="bar-row" data-testid=${testid ?? nothing} data-value=${String(value)}>
    <span class="bar-label" title=${typeof label === 'string' ? oneLine(label, 500) : nothing}>${typeof label === 'string' ? oneLine(label, 60) : label}</span><span class="bar-track"><span class=${`bar-fill ${cls}`} ${width(w)}></span></span
    ><span class="bar-value">${text}</span>
  </div>`;
}

function section(title: string, testid: string, ...children: Array<TemplateResult | typeof nothing>): TemplateResult {
  return html`<section class="stats-section" data-testid=${testid}><h2>${title}</h2>${children}</section>`;
}

function table(head: string[], rows: Cell[][], testid: string): TemplateResult {
  return html`<table class="stats-table" data-testid=${testid}>
    <thead>
      <tr>
        ${head.map((h) => html`<th>${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}
    </tbody>
  </table>`;
}

/** One stacked bar of the four shares, as SVG. */
function breakdownChart(s: StatsViewModel): TemplateResult {
  const width = 600;
  const total = s.breakdown.reviewed;
  let x = 0;
  const segs: SVGTemplateResult[] = [];
  for (const b of BREAKDOWN) {
    const n = s.breakdown[b.key];
    if (total === 0 || n === 0) continue;
    const w = (n / total) * width;
    segs.push(svg`<rect x=${x.toFixed(2)} y="0" width=${w.toFixed(2)} height="28" class=${`seg ${b.cls}`}><title>${`${b.label}: ${n} of ${total} (${pct(n / total)})`}</title></rect>`);
    x += w;
  }
  if (total === 0) segs.push(svg`<rect x="0" y="0" width=${String(width)} height="28" class="seg empty"></rect>`);
  return html`<svg viewBox=${`0 0 ${width} 28`} class="breakdown-chart" role="img" aria-label="Reviewed tasks by what the review found" data-testid="breakdown-chart">${segs}</svg>`;
}

function renderBreakdown(s: StatsViewModel): TemplateResult {
  const b = s.breakdown;
  const rows: Cell[][] = BREAKDOWN.map((x) => [html`<span class=${`swatch ${x.cls}`}></span>`, x.label, String(b[x.key]), pct(share(b[x.key], b.reviewed))]);
  rows.push([html`<span></span>`, 'reviewed', String(b.reviewed), b.reviewed > 0 ? '100%' : '–']);
  return section(
    'Reviewed tasks by what the review found',
    'stats-breakdown',
    breakdownChart(s),
    table(['', 'found', 'tasks', 'share'], rows, 'breakdown-table'),
    html`<p class="muted small">${'A reviewed task is one someone submitted, or that went past review (flagged, needs repair, repaired, revalidated, approved, rejected). False positives and negatives come from the final outcomes plus confirmed suggestions.'}</p>`,
  );
}

function renderFunnel(s: StatsViewModel, onFilter?: CandidatesFilterFn): TemplateResult {
  const f = s.funnel;
  const max = Math.max(1, f.imported);
  const statuses = Object.entries(s.byStatus).filter(([, n]) => n > 0);
  const byStatus = statuses.map(([k, n], i) => html`${i > 0 ? ' \u00b7 ' : ''}${filterLabel(`${k.replace(/_/g, ' ')} ${n}`, { statuses: [k] }, onFilter, `filter-status-${k}`)}`);
  return section(
    'Funnel',
    'stats-funnel',
    bar('imported', f.imported, max, 'imported', String(f.imported), 'funnel-imported'),
    bar('reviewed', f.reviewed, max, 'reviewed', `${f.reviewed} (${pct(share(f.reviewed, f.imported))})`, 'funnel-reviewed'),
    bar(filterLabel('approved', { statuses: ['approved'] }, onFilter, 'filter-approved'), f.approved, max, 'approved', `${f.approved} (${pct(share(f.approved, f.imported))})`, 'funnel-approved'),
    bar(filterLabel('rejected', { statuses: ['rejected'] }, onFilter, 'filter-rejected'), f.rejected, max, 'rejected', `${f.rejected} (${pct(share(f.rejected, f.imported))})`, 'funnel-rejected'),
    html`<p class="muted small" data-testid="by-status">${statuses.length > 0 ? html`By status: ${byStatus}` : 'No tasks.'}</p>`,
  );
}

function rateRows<T extends { decided: number; falsePositives: number; falseNegatives: number; fpRate?: number; fnRate?: number }>(
  items: readonly T[],
  name: (t: T) => string,
  extra: (t: T) => string[],
  link?: (t: T, text: string) => Cell,
): Cell[][] {
  const max = Math.max(0.0001, ...items.map((t) => Math.max(t.fpRate ?? 0, t.fnRate ?? 0)));
  return items.slice(0, MAX_ROWS).map((t) => [link ? link(t, oneLine(name(t), 80)) : oneLine(name(t), 80), ...extra(t), String(t.decided), rateCell(t.falsePositives, t.fpRate, max, 'fp'), rateCell(t.falseNegatives, t.fnRate, max, 'fn')]);
}

function rateCell(n: number, rate: number | undefined, max: number, cls: string): TemplateResult {
  const w = `${rate !== undefined ? Math.min(100, (rate / max) * 100) : 0}%`;
  return html`<span class="rate-cell"><span class="bar-track small-track"><span class=${`bar-fill ${cls}`} ${width(w)}></span></span><span class="bar-value">${`${n} (${pct(rate)})`}</span></span>`;
}

function renderRates(s: StatsViewModel, onFilter?: CandidatesFilterFn): TemplateResult {
  const none = html`<p class="muted">No decided pairs yet.</p>`;
  const cat =
    s.byCategory.length > 0
      ? table(
          ['spec category', 'specs', 'decided pairs', 'false positives', 'false negatives'],
          rateRows(s.byCategory, (c) => c.category, (c) => [String(c.specs)], (c, text) => filterLabel(text, { categories: [c.category] }, onFilter, 'filter-category')),
          'rates-category',
        )
      : none;
  const solver =
    s.bySolver.length > 0
      ? table(
          ['solver model', 'attempts', 'decided pairs', 'false positives', 'false negatives'],
          rateRows(s.bySolver, (m) => m.model, (m) => [`${m.attempts} (FP in ${m.attemptsWithFalsePositive}, FN in ${m.attemptsWithFalseNegative})`]),
          'rates-solver',
        )
      : none;
  return html`<div class="stats-two">
    ${section('Defect rates by spec category', 'stats-by-category', cat)}${section(
      'Defect rates by solver model',
      'stats-by-solver',
      solver,
      html`<p class="muted small">Rates are over decided (attempt, spec) pairs: true pass, true fail, false positive, false negative.</p>`,
    )}
  </div>`;
}

function renderAgreement(s: StatsViewModel): TemplateResult {
  if (s.agreement.length === 0) return section('Agreement between curators', 'stats-agreement', html`<p class="muted">No item was rated by two curators yet.</p>`);
  const rows: Cell[][] = s.agreement.map((a) => [
    a.kind,
    a.metric,
    String(a.curators),
    html`<span data-testid="alpha">${`${fixed(a.alpha, 3)} (${a.items} items, ${a.values} values)`}</span>`,
    html`<span data-testid="kappa">${a.kappa !== undefined || a.kappaItems !== undefined ? `${fixed(a.kappa, 3)} (${a.kappaItems ?? 0} items)` : 'n/a (not exactly two curators)'}</span>`,
  ]);
  return section(
    'Agreement between curators',
    'stats-agreement',
    table(['what was rated', 'metric', 'curators', "Krippendorff's alpha", "Cohen's kappa"], rows, 'agreement-table'),
    html`<p class="muted small">Items are units rated by at least two curators. A figure over few items says little.</p>`,
  );
}

/** Events per day for the last days, one column per day, stacked by curator (SVG). */
function throughputChart(s: StatsViewModel): TemplateResult | typeof nothing {
  const days = [...new Set(s.throughput.map((t) => t.day))].sort().slice(-30);
  if (days.length === 0) return nothing;
  const curators = [...new Set(s.throughput.map((t) => t.curator))].sort();
  const perDay = new Map<string, number>();
  for (const t of s.throughput) perDay.set(t.day, (perDay.get(t.day) ?? 0) + t.events);
  const max = Math.max(1, ...days.map((d) => perDay.get(d) ?? 0));
  const w = 24;
  const h = 80;
  const parts: SVGTemplateResult[] = [];
  days.forEach((day, i) => {
    let y = h;
    curators.forEach((c, ci) => {
      const n = s.throughput.find((t) => t.day === day && t.curator === c)?.events ?? 0;
      if (n === 0) return;
      const bh = (n / max) * h;
      y -= bh;
      parts.push(svg`<rect x=${String(i * w + 2)} y=${y.toFixed(2)} width=${String(w - 4)} height=${bh.toFixed(2)} class=${`day c${ci % 6}`}><title>${`${day}: ${c} ${n} event${n === 1 ? '' : 's'}`}</title></rect>`);
    });
    parts.push(svg`<text x=${String(i * w + w / 2)} y=${String(h + 11)} text-anchor="middle" class="axis">${day.slice(8, 10)}</text>`);
  });
  return html`<svg viewBox=${`0 0 ${days.length * w} ${h + 14}`} class="throughput-chart" role="img" aria-label="Review events per day" data-testid="throughput-chart">${parts}</svg>`;
}

function renderThroughput(s: StatsViewModel): TemplateResult {
  const max = Math.max(1, ...s.curators.map((c) => c.events));
  const rows = s.curators.slice(0, MAX_ROWS).map((c) => bar(c.curator, c.events, max, 'events', `${c.events} events · ${c.labels} labels · ${c.tasks} tasks`, 'curator-row'));
  return section('Curator throughput', 'stats-throughput', rows.length > 0 ? html`<div>${rows}</div>` : html`<p class="muted">No review events yet.</p>`, throughputChart(s));
}

export function statsView(s: StatsViewModel, onFilter?: CandidatesFilterFn): TemplateResult {
  return html`<div class="stats" data-testid="stats">
    <header class="panel-header">
      <h1>${`Curation statistics${s.dataset ? ` · ${oneLine(s.dataset, 80)}` : ''}`}</h1>
      <span class="muted small" data-testid="stats-meta"
        >${`policy ${s.policy} · ${formatCount(s.log.events)} events (${s.log.undone} undone${s.log.issues > 0 ? `, ${s.log.issues} replay issues` : ''}) · computed in ${s.computeMs} ms`}</span
      >
    </header>
    ${s.error ? html`<div class="banner warning" data-testid="stats-error">${oneLine(s.error, 500)}</div>` : nothing}
    <div class="stats-cards">
      ${card('reviewed', s.breakdown.reviewed, 'card-reviewed')}${card('with a false positive', s.breakdown.falsePositivesOnly + s.breakdown.both, 'card-fp')}${card(
        'with a false negative',
        s.breakdown.falseNegativesOnly + s.breakdown.both,
        'card-fn',
      )}${card('approved', s.funnel.approved, 'card-approved')}${card('open disagreements', s.disagreements.open, 'card-disagreements')}${card('open suggestions', s.suggestions.open, 'card-suggestions')}
    </div>
    ${renderBreakdown(s)}${renderFunnel(s, onFilter)}${renderSolveRates(s.solveRates, onFilter)}${renderRates(s, onFilter)}${renderAgreement(s)}${renderThroughput(s)}${renderSpecs(s.specs)}${renderCalibration(s.calibration)}
  </div>`;
}

function card(label: string, n: number, testid: string): TemplateResult {
  return html`<div class="card" data-testid=${testid} data-value=${String(n)}><div class="card-number">${formatCount(n)}</div><div class="card-label muted small">${label}</div></div>`;
}

// ---- spec statistics and coupling (docs/coupling.md) ---------------------------------------------------------------

const ci = (m: MeanIntervalView | undefined): string => (m === undefined ? '–' : `${m.mean.toFixed(2)} [${m.low.toFixed(2)}, ${m.high.toFixed(2)}]`);
const quart = (d: DistributionView): string =>
  d.count === 0 || d.median === undefined ? '–' : `${d.median.toFixed(2)} [${fixed(d.q1)}, ${fixed(d.q3)}]`;

/** A histogram as SVG columns, one per bin, with its label under it and the count in its tooltip. */
function columns(bins: ReadonlyArray<{ label: string; count: number }>, testid: string, what: string): TemplateResult {
  const w = 28;
  const h = 70;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const parts: SVGTemplateResult[] = [];
  bins.forEach((b, i) => {
    const bh = (b.count / max) * h;
    parts.push(svg`<rect x=${String(i * w + 3)} y=${(h - bh).toFixed(2)} width=${String(w - 6)} height=${bh.toFixed(2)} class="spec-bin" data-count=${String(b.count)}><title>${`${b.label}: ${b.count}`}</title></rect>`);
    parts.push(svg`<text x=${String(i * w + w / 2)} y=${String(h + 11)} text-anchor="middle" class="axis">${b.label}</text>`);
  });
  return html`<svg viewBox=${`0 0 ${Math.max(1, bins.length) * w} ${h + 14}`} class="spec-histogram" role="img" aria-label=${what} data-testid=${testid}>${parts}</svg>`;
}

function groupRow(g: SpecGroupView): Cell[] {
  return [oneLine(g.source, 80), String(g.tasks), String(g.tasksWithSpecs), ci(g.specsPerTask), ci(g.categoriesPerTask), `${quart(g.coupling)} (${g.coupling.count})`];
}

function renderSpecs(s: SpecStatsView | undefined): TemplateResult {
  if (!s) return section('Specs', 'stats-specs', html`<p class="muted" data-testid="specs-missing">The spec statistics are not available.</p>`);
  const rows = [s.all, ...s.bySource].map(groupRow);
  const more = s.moreSources > 0 ? html`<p class="muted small" data-testid="specs-more-sources">${`${s.moreSources} more sources (counted under all).`}</p>` : nothing;
  const histogram = columns(
    s.all.histogram.map((h) => ({ label: `${h.specs}${h.orMore ? '+' : ''}`, count: h.tasks })),
    'specs-histogram',
    'Tasks by number of specs',
  );
  const bins = (d: DistributionView) => d.histogram.map((count, i) => ({ label: (i / 10).toFixed(1), count }));
  const cats: Cell[][] = s.couplingByCategory.map((c) => [oneLine(c.category, 80), String(c.specs), quart(c.share), fixed(c.share.mean)]);
  const e = s.evidence;
  return section(
    'Specs',
    'stats-specs',
    table(
      ['source', 'tasks', 'with specs', `specs per task (${Math.round(s.confidence * 100)}% CI)`, `categories per task (${Math.round(s.confidence * 100)}% CI)`, 'coupling median [q1, q3] (tasks)'],
      rows,
      'specs-table',
    ),
    more,
    html`<p class="muted small">${`Intervals: percentile bootstrap, ${s.resamples} resamples, seed ${s.seed}. Coupling: 1 − (independent parts − 1) / (specs − 1) over the specs coupled by shared tests, dependsOn links or verdicts that flip together; tasks with two specs or more.`}</p>`,
    html`<div class="stats-two">
      <div><h3>Specs per task</h3>${histogram}</div>
      <div><h3>Coupling per task</h3>${columns(bins(s.all.coupling), 'coupling-histogram', 'Tasks by coupling figure')}</div>
    </div>`,
    html`<h3>Coupling by spec category</h3>`,
    cats.length > 0
      ? table(['spec category', 'specs', "share of the task's other specs coupled to, median [q1, q3]", 'mean'], cats, 'coupling-category')
      : html`<p class="muted">No task has two specs or more.</p>`,
    s.moreCategories > 0 ? html`<p class="muted small">${`${s.moreCategories} more categories.`}</p>` : nothing,
    html`<p class="muted small" data-testid="coupling-evidence">${`${formatCount(e.pairs)} spec pairs, ${formatCount(e.coupledPairs)} coupled: shared tests ${e.sharedTests}, declared ${e.declared}, co-flip ${e.coFlip} (co-flip measurable on ${e.measuredPairs}).`}</p>`,
  );
}

/** A calibration figure: value (fraction) [low, high]; an en dash where it is 0/0. */
function calFigure(f: CalibrationFigureView): string {
  if (f.value === undefined) return '–';
  const frac = f.denominator !== undefined ? ` (${f.numerator ?? 0}/${f.denominator})` : '';
  const ci = f.low !== undefined && f.high !== undefined ? ` [${f.low.toFixed(2)}, ${f.high.toFixed(2)}]` : '';
  return `${f.value.toFixed(2)}${frac}${ci}`;
}

function calRow(name: string, version: string, kind: string, t: CalibrationTableView): Cell[] {
  return [oneLine(version, 80), oneLine(name, 80), kind, String(t.pairs), `${t.tp}/${t.fp}/${t.fn}/${t.tn}`, calFigure(t.precision), calFigure(t.recall), calFigure(t.kappa)];
}

/** The review agent's calibration against the curators (docs/calibration.md): two tables per prompt version × model. */
function renderCalibration(c: CalibrationView | undefined): TemplateResult {
  const title = 'Review agent calibration';
  if (!c) return section(title, 'stats-calibration', html`<p class="muted" data-testid="calibration-missing">The calibration figures are not available.</p>`);
  if (c.groups.length === 0) return section(title, 'stats-calibration', html`<p class="muted" data-testid="calibration-none">No current findings of the review agent.</p>`);
  const ci = `${Math.round(c.confidence * 100)}% CI`;
  const rows = c.groups.flatMap((g) => [calRow(g.model, g.promptVersion, 'false positive', g.falsePositive), calRow(g.model, g.promptVersion, 'false negative', g.falseNegative)]);
  const counts = c.groups.map((g) => `${oneLine(g.promptVersion, 80)} · ${oneLine(g.model, 80)}: ${g.findings} findings, ${g.unlabelled} on unlabelled pairs, ${g.undecided} undecided, ${g.agentUnsure} unsure`);
  return section(
    title,
    'stats-calibration',
    table(['prompt', 'model', 'candidate', 'pairs', 'TP/FP/FN/TN', `precision (${ci})`, `recall (${ci})`, `kappa (${ci})`], rows, 'calibration-table'),
    html`<p class="muted small" data-testid="calibration-counts">${counts.join(' · ')}${c.moreGroups > 0 ? ` · ${c.moreGroups} more groups` : ''}${
      c.notCurrent + c.unknownPairs > 0 ? ` · left out: ${c.notCurrent} superseded or on another patch, ${c.unknownPairs} on unknown pairs` : ''
    }</p>`,
    html`<p class="muted small">${`Against the curators' final verdicts (adjudicated, else consensus; stale labels left out). Intervals: percentile bootstrap, ${c.resamples} resamples, seed ${c.seed}.`}</p>`,
  );
}

// ---- solve rates and the CodeSpecWeave funnel (docs/solver.md) ----------------------------------------------------

/** Solve rates: the funnel imported -> with attempt verdicts -> in the band -> reviewed -> approved, the tasks by where
 * their rate falls, the rate histogram, and per model its rate and the tasks it never / sometimes / always solves. */
function renderSolveRates(d: SolveRatesView | undefined, onFilter?: CandidatesFilterFn): TemplateResult {
  const title = 'Solve rates';
  if (!d) return section(title, 'stats-solve-rates', html`<p class="muted" data-testid="solve-rates-missing">The solve rates are not available.</p>`);
  const f = d.funnel;
  const max = Math.max(1, f.imported);
  const step = (label: string, n: number, cls: string, testid: string) => bar(label, n, max, cls, `${formatCount(n)} (${pct(share(n, f.imported))})`, testid);
  const band = oneLine(d.band.text, 40);
  const inBandLabel = `in the band ${band}`;
  const t = d.tasks;
  const buckets: Cell[][] = [
    ['never solved', String(t.neverSolved)],
    [filterLabel(inBandLabel, { mixedSuccess: true }, onFilter, 'filter-in-band'), String(t.inBand)],
    ['always solved', String(t.alwaysSolved)],
    ...(t.otherOutside > 0 ? [['outside the band, neither 0 nor 1', String(t.otherOutside)]] : []),
    ['no attempt verdict yet', String(t.unmeasured)],
  ];
  const models: Cell[][] = d.models.map((m, i) => [
    filterLabel(oneLine(m.model, 80), { models: [m.model] }, onFilter, `filter-model-${i}`),
    String(m.attempts),
    `${pct(m.rate)} (${m.solved}/${m.attempts})`,
    String(m.tasks.neverSolved),
    String(m.tasks.inBand),
    String(m.tasks.alwaysSolved),
  ]);
  const bins = d.histogram.map((count, i) => ({ label: (i / 10).toFixed(1), count }));
  return section(
    title,
    'stats-solve-rates',
    d.bandProblem ? html`<div class="banner warning" data-testid="solve-rates-band-problem">${oneLine(d.bandProblem, 500)}</div>` : nothing,
    html`<div data-testid="solve-funnel">
      ${step('imported', f.imported, 'imported', 'solve-funnel-imported')}${step('with attempt verdicts', f.measured, 'reviewed', 'solve-funnel-measured')}${step(
        inBandLabel,
        f.inBand,
        'reviewed',
        'solve-funnel-in-band',
      )}${step('in the band, reviewed', f.reviewed, 'reviewed', 'solve-funnel-reviewed')}${step('in the band, approved', f.approved, 'approved', 'solve-funnel-approved')}
    </div>`,
    html`<p class="muted small">${`Each step is within the one before. The band ${band} is ${d.band.inclusive ? 'inclusive' : 'strict'}: ${
      d.band.inclusive ? `${d.band.low} <= rate <= ${d.band.high}` : `${d.band.low} < rate < ${d.band.high}`
    } (setting specweave.difficulty.band). A rate is the attempts the verifier resolves over the attempts with a verdict.`}</p>`,
    html`<div class="stats-two">
      <div><h3>Tasks by solve rate</h3>${table(['solve rate', 'tasks'], buckets, 'solve-buckets')}</div>
      <div><h3>Solve-rate histogram</h3>${columns(bins, 'solve-histogram', 'Tasks with attempt verdicts by solve rate')}</div>
    </div>`,
    html`<h3>By solver model</h3>`,
    models.length > 0
      ? table(['solver model', 'attempts with a verdict', 'solve rate', 'tasks never solved', 'tasks sometimes solved', 'tasks always solved'], models, 'solve-models')
      : html`<p class="muted" data-testid="solve-models-none">No attempt has a verdict yet.</p>`,
    d.moreModels > 0 ? html`<p class="muted small" data-testid="solve-more-models">${`${d.moreModels} more models.`}</p>` : nothing,
  );
}
