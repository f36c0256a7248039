// The statistics view: the false-positive / false-negative breakdown of reviewed tasks (the table the field reports),
// defect rates by spec category and by solver model, agreement with the number of items behind each figure, the
// funnel, and curator throughput. Charts are SVG made with createElementNS or DOM bars sized through CSSOM.
import type { StatsViewModel } from '../../src/protocol/messages';
import { el } from './dom';
import { formatCount, oneLine } from './text';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_ROWS = 40;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

const pct = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '–' : `${(x * 100).toFixed(x < 0.1 && x > 0 ? 1 : 0)}%`);
const share = (n: number, of: number): number | undefined => (of > 0 ? n / of : undefined);
const fixed = (x: number | undefined, d = 2): string => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));

/** A horizontal bar whose length is `value / max`, with its label and number. */
function bar(label: string, value: number, max: number, cls: string, text: string, testid?: string): HTMLElement {
  const fill = el('span', { class: `bar-fill ${cls}` });
  fill.style.width = `${max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0}%`;
  return el(
    'div',
    { class: 'bar-row', ...(testid ? { testid } : {}), data: { value: String(value) } },
    el('span', { class: 'bar-label', text: oneLine(label, 60), title: label }),
    el('span', { class: 'bar-track' }, fill),
    el('span', { class: 'bar-value', text }),
  );
}

function section(title: string, testid: string, ...children: Array<Node | null>): HTMLElement {
  const s = el('section', { class: 'stats-section', testid }, el('h2', { text: title }));
  for (const c of children) if (c) s.append(c);
  return s;
}

function table(head: string[], rows: Array<Array<string | Node>>, testid: string): HTMLElement {
  const t = el('table', { class: 'stats-table', testid });
  t.append(el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { text: h })))));
  const body = el('tbody');
  for (const r of rows) body.append(el('tr', {}, ...r.map((c) => (typeof c === 'string' ? el('td', { text: c }) : el('td', {}, c)))));
  t.append(body);
  return t;
}

const BREAKDOWN: ReadonlyArray<{ key: 'falsePositivesOnly' | 'falseNegativesOnly' | 'both' | 'none'; label: string; cls: string }> = [
  { key: 'falsePositivesOnly', label: 'false positives only', cls: 'fp' },
  { key: 'falseNegativesOnly', label: 'false negatives only', cls: 'fn' },
  { key: 'both', label: 'both', cls: 'both' },
  { key: 'none', label: 'none', cls: 'none' },
];

/** One stacked bar of the four shares, as SVG. */
function breakdownChart(s: StatsViewModel): SVGSVGElement {
  const width = 600;
  const chart = svg('svg', { viewBox: `0 0 ${width} 28`, class: 'breakdown-chart', role: 'img', 'aria-label': 'Reviewed tasks by what the review found' });
  chart.dataset.testid = 'breakdown-chart';
  const total = s.breakdown.reviewed;
  let x = 0;
  for (const b of BREAKDOWN) {
    const n = s.breakdown[b.key];
    if (total === 0 || n === 0) continue;
    const w = (n / total) * width;
    const r = svg('rect', { x: x.toFixed(2), y: 0, width: w.toFixed(2), height: 28, class: `seg ${b.cls}` });
    const title = svg('title');
    title.textContent = `${b.label}: ${n} of ${total} (${pct(n / total)})`;
    r.append(title);
    chart.append(r);
    x += w;
  }
  if (total === 0) {
    chart.append(svg('rect', { x: 0, y: 0, width, height: 28, class: 'seg empty' }));
  }
  return chart;
}

function renderBreakdown(s: StatsViewModel): HTMLElement {
  const b = s.breakdown;
  const rows = BREAKDOWN.map((x) => [el('span', { class: `swatch ${x.cls}` }), x.label, String(b[x.key]), pct(share(b[x.key], b.reviewed))]);
  rows.push([el('span'), 'reviewed', String(b.reviewed), b.reviewed > 0 ? '100%' : '–']);
  return section(
    'Reviewed tasks by what the review found',
    'stats-breakdown',
    breakdownChart(s),
    table(['', 'found', 'tasks', 'share'], rows, 'breakdown-table'),
    el('p', { class: 'muted small', text: 'A reviewed task is one someone submitted, or that went past review (flagged, needs repair, repaired, revalidated, approved, rejected). False positives and negatives come from the final outcomes plus confirmed suggestions.' }),
  );
}

function renderFunnel(s: StatsViewModel): HTMLElement {
  const f = s.funnel;
  const max = Math.max(1, f.imported);
  const statuses = Object.entries(s.byStatus).filter(([, n]) => n > 0);
  return section(
    'Funnel',
    'stats-funnel',
    bar('imported', f.imported, max, 'imported', String(f.imported), 'funnel-imported'),
    bar('reviewed', f.reviewed, max, 'reviewed', `${f.reviewed} (${pct(share(f.reviewed, f.imported))})`, 'funnel-reviewed'),
    bar('approved', f.approved, max, 'approved', `${f.approved} (${pct(share(f.approved, f.imported))})`, 'funnel-approved'),
    bar('rejected', f.rejected, max, 'rejected', `${f.rejected} (${pct(share(f.rejected, f.imported))})`, 'funnel-rejected'),
    el('p', { class: 'muted small', testid: 'by-status', text: statuses.length > 0 ? `By status: ${statuses.map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(' · ')}` : 'No tasks.' }),
  );
}

function rateRows<T extends { decided: number; falsePositives: number; falseNegatives: number; fpRate?: number; fnRate?: number }>(items: readonly T[], name: (t: T) => string, extra: (t: T) => string[]): Array<Array<string | Node>> {
  const max = Math.max(0.0001, ...items.map((t) => Math.max(t.fpRate ?? 0, t.fnRate ?? 0)));
  return items.slice(0, MAX_ROWS).map((t) => [
    oneLine(name(t), 80),
    ...extra(t),
    String(t.decided),
    rateCell(t.falsePositives, t.fpRate, max, 'fp'),
    rateCell(t.falseNegatives, t.fnRate, max, 'fn'),
  ]);
}

function rateCell(n: number, rate: number | undefined, max: number, cls: string): HTMLElement {
  const fill = el('span', { class: `bar-fill ${cls}` });
  fill.style.width = `${rate !== undefined ? Math.min(100, (rate / max) * 100) : 0}%`;
  return el('span', { class: 'rate-cell' }, el('span', { class: 'bar-track small-track' }, fill), el('span', { class: 'bar-value', text: `${n} (${pct(rate)})` }));
}

function renderRates(s: StatsViewModel): HTMLElement {
  const cat = s.byCategory.length > 0 ? table(['spec category', 'specs', 'decided pairs', 'false positives', 'false negatives'], rateRows(s.byCategory, (c) => c.category, (c) => [String(c.specs)]), 'rates-category') : el('p', { class: 'muted', text: 'No decided pairs yet.' });
  const solver =
    s.bySolver.length > 0
      ? table(
          ['solver model', 'attempts', 'decided pairs', 'false positives', 'false negatives'],
          rateRows(s.bySolver, (m) => m.model, (m) => [`${m.attempts} (FP in ${m.attemptsWithFalsePositive}, FN in ${m.attemptsWithFalseNegative})`]),
          'rates-solver',
        )
      : el('p', { class: 'muted', text: 'No decided pairs yet.' });
  return el(
    'div',
    { class: 'stats-two' },
    section('Defect rates by spec category', 'stats-by-category', cat),
    section('Defect rates by solver model', 'stats-by-solver', solver, el('p', { class: 'muted small', text: 'Rates are over decided (attempt, spec) pairs: true pass, true fail, false positive, false negative.' })),
  );
}

function renderAgreement(s: StatsViewModel): HTMLElement {
  if (s.agreement.length === 0) {
    return section('Agreement between curators', 'stats-agreement', el('p', { class: 'muted', text: 'No item was rated by two curators yet.' }));
  }
  const rows = s.agreement.map((a) => [
    a.kind,
    a.metric,
    String(a.curators),
    el('span', { testid: 'alpha', text: `${fixed(a.alpha, 3)} (${a.items} items, ${a.values} values)` }),
    el('span', { testid: 'kappa', text: a.kappa !== undefined || a.kappaItems !== undefined ? `${fixed(a.kappa, 3)} (${a.kappaItems ?? 0} items)` : 'n/a (not exactly two curators)' }),
  ]);
  return section(
    'Agreement between curators',
    'stats-agreement',
    table(["what was rated", 'metric', 'curators', "Krippendorff's alpha", "Cohen's kappa"], rows, 'agreement-table'),
    el('p', { class: 'muted small', text: 'Items are units rated by at least two curators. A figure over few items says little.' }),
  );
}

/** Events per day for the last days, one column per day, stacked by curator (SVG). */
function throughputChart(s: StatsViewModel): SVGSVGElement | null {
  const days = [...new Set(s.throughput.map((t) => t.day))].sort().slice(-30);
  if (days.length === 0) return null;
  const curators = [...new Set(s.throughput.map((t) => t.curator))].sort();
  const perDay = new Map<string, number>();
  for (const t of s.throughput) perDay.set(t.day, (perDay.get(t.day) ?? 0) + t.events);
  const max = Math.max(1, ...days.map((d) => perDay.get(d) ?? 0));
  const w = 24;
  const h = 80;
  const chart = svg('svg', { viewBox: `0 0 ${days.length * w} ${h + 14}`, class: 'throughput-chart', role: 'img', 'aria-label': 'Review events per day' });
  chart.dataset.testid = 'throughput-chart';
  days.forEach((day, i) => {
    let y = h;
    curators.forEach((c, ci) => {
      const n = s.throughput.find((t) => t.day === day && t.curator === c)?.events ?? 0;
      if (n === 0) return;
      const bh = (n / max) * h;
      y -= bh;
      const r = svg('rect', { x: i * w + 2, y: y.toFixed(2), width: w - 4, height: bh.toFixed(2), class: `day c${ci % 6}` });
      const title = svg('title');
      title.textContent = `${day}: ${c} ${n} event${n === 1 ? '' : 's'}`;
      r.append(title);
      chart.append(r);
    });
    const label = svg('text', { x: i * w + w / 2, y: h + 11, 'text-anchor': 'middle', class: 'axis' });
    label.textContent = day.slice(8, 10);
    chart.append(label);
  });
  return chart;
}

function renderThroughput(s: StatsViewModel): HTMLElement {
  const max = Math.max(1, ...s.curators.map((c) => c.events));
  const rows = s.curators.slice(0, MAX_ROWS).map((c) => bar(c.curator, c.events, max, 'events', `${c.events} events · ${c.labels} labels · ${c.tasks} tasks`, 'curator-row'));
  return section(
    'Curator throughput',
    'stats-throughput',
    rows.length > 0 ? el('div', {}, ...rows) : el('p', { class: 'muted', text: 'No review events yet.' }),
    throughputChart(s),
  );
}

export function renderStats(s: StatsViewModel): HTMLElement {
  const root = el('div', { class: 'stats', testid: 'stats' });
  root.append(
    el(
      'header',
      { class: 'panel-header' },
      el('h1', { text: `Curation statistics${s.dataset ? ` · ${oneLine(s.dataset, 80)}` : ''}` }),
      el('span', { class: 'muted small', testid: 'stats-meta', text: `policy ${s.policy} · ${formatCount(s.log.events)} events (${s.log.undone} undone${s.log.issues > 0 ? `, ${s.log.issues} replay issues` : ''}) · computed in ${s.computeMs} ms` }),
    ),
  );
  if (s.error) root.append(el('div', { class: 'banner warning', testid: 'stats-error', text: oneLine(s.error, 500) }));
  root.append(
    el(
      'div',
      { class: 'stats-cards' },
      card('reviewed', s.breakdown.reviewed, 'card-reviewed'),
      card('with a false positive', s.breakdown.falsePositivesOnly + s.breakdown.both, 'card-fp'),
      card('with a false negative', s.breakdown.falseNegativesOnly + s.breakdown.both, 'card-fn'),
      card('approved', s.funnel.approved, 'card-approved'),
      card('open disagreements', s.disagreements.open, 'card-disagreements'),
      card('open suggestions', s.suggestions.open, 'card-suggestions'),
    ),
  );
  root.append(renderBreakdown(s), renderFunnel(s), renderRates(s), renderAgreement(s), renderThroughput(s));
  return root;
}

function card(label: string, n: number, testid: string): HTMLElement {
  return el('div', { class: 'card', testid, data: { value: String(n) } }, el('div', { class: 'card-number', text: formatCount(n) }), el('div', { class: 'card-label muted small', text: label }));
}
