// Verifier results as two matrices, test x column and spec x column, when the host has any. A cell click makes
// the column active and opens the run's log at that test (a spec cell: at its first failing covering test); a row
// header shows the test or spec. A lit-html template (rows keyed by id).
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { ResultsView as ResultsModel } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { errorText, oneLine } from '../text';
import { vsCheckbox } from '../ui/controls';
import { uniqueKeys } from '../ui/template';
import { shortName } from './specs';

/** Cells rendered before "show all" (rows x columns), so ten columns of hundreds of tests stay a small DOM. */
const FIRST_CELLS = { tests: 300, specs: 200 } as const;

type Kind = 'tests' | 'specs';

/** The results of one task; remembers which matrices show all their rows, until the task changes. */
export class ResultsView {
  private readonly showAll = { tests: false, specs: false };
  /** Rows whose every column agrees are hidden until the curator asks for them (the disagreements are the story). */
  private readonly onlyDiffering = { tests: true, specs: true };

  constructor(
    private readonly ctx: Ctx,
    private readonly repaint: () => void,
  ) {}

  template(): TemplateResult {
    const ctx = this.ctx;
    const m = ctx.model();
    const r = m.results;
    if (!r) return html`<div class="results" data-testid="results"><p class="muted">No verifier results yet.</p></div>`;
    const label = (id: string): string => m.columns.find((c) => c.id === id)?.label ?? (id === 'empty' ? 'Empty patch' : id === 'gold' ? 'Gold patch' : id);
    const testName = (id: string): string => shortName(m.tests.find((t) => t.id === id)?.name ?? id);
    const testTitle = (id: string): string => {
      const name = m.tests.find((t) => t.id === id)?.name;
      return name && name !== id ? `${name} (${id})` : id;
    };
    // FAIL_TO_PASS first and apart from PASS_TO_PASS, as SWE-bench reads a run.
    const kindOf = new Map(m.tests.map((t) => [t.id, t.kind]));
    const testGroups: Group[] = [
      { title: 'FAIL_TO_PASS', of: (id) => kindOf.get(id) === 'fail_to_pass' },
      { title: 'PASS_TO_PASS', of: (id) => kindOf.get(id) === 'pass_to_pass' },
      { title: 'other tests', of: (id) => kindOf.get(id) !== 'fail_to_pass' && kindOf.get(id) !== 'pass_to_pass' },
    ];
    const flags = r.flags.slice(0, 100);
    return html`<div class="results" data-testid="results">
      ${flags.length > 0
        ? html`<ul class="result-flags" data-testid="result-flags">
            ${flags.map(
              (f) =>
                html`<li class="flag-line" data-kind=${oneLine(f.kind, 40)}>${`${f.column ? `${oneLine(label(f.column), 40)}: ` : ''}${oneLine(f.kind, 40)}: ${oneLine(f.message, 300)}`}</li>`,
            )}
          </ul>`
        : nothing}
      <div class="section-title">Tests</div>
      ${this.matrix(r, 'tests', r.tests, label, testName, testTitle, testGroups, (rowId, col) => {
        ctx.actions.activateColumn(col);
        openLog(ctx, col, rowId);
      }, (rowId) => ctx.actions.showTest(rowId))}
      <div class="section-title">Specs</div>
      ${this.matrix(r, 'specs', r.specs, label, (id) => id, (id) => {
        const text = m.specs.find((s) => s.id === id)?.text;
        return text ? `${id}: ${text}` : id;
      }, [{ title: '', of: () => true }], (rowId, col) => {
        ctx.actions.activateColumn(col);
        openLog(ctx, col, specTest(ctx, r, rowId, col));
      }, (rowId) => ctx.actions.showSpec(rowId))}
    </div>`;
  }

  private matrix(
    r: ResultsModel,
    kind: Kind,
    cells: Record<string, Record<string, string>>,
    columnLabel: (id: string) => string,
    rowLabel: (id: string) => string,
    rowTitle: (id: string) => string,
    groups: readonly Group[],
    onCell: (rowId: string, column: string) => void,
    onRow: (rowId: string) => void,
  ): TemplateResult {
    // Rows where some column disagrees with the first (gold) come first: those are the ones to look at.
    // A row to look at: its columns disagree, or an oracle flag names it (a FAIL_TO_PASS test the empty patch passes
    // agrees everywhere and is the verifier's defect all the same).
    const flagged = new Set(r.flags.map((f) => (kind === 'tests' ? f.testId : f.specId)).filter((x): x is string => x !== undefined));
    const look = (id: string): boolean => !agrees(cells[id], r.columns) || flagged.has(id);
    const all = Object.keys(cells).sort((a, b) => Number(!look(a)) - Number(!look(b)));
    const differing = all.filter(look);
    const candidates = this.onlyDiffering[kind] ? differing : all;
    // Each group in turn, the budget of rows spent across them in that order.
    const byGroup = groups.map((g) => ({ title: g.title, rows: candidates.filter(g.of), total: all.filter(g.of).length }));
    const rows = byGroup.flatMap((g) => g.rows);
    const first = Math.max(10, Math.floor(FIRST_CELLS[kind] / Math.max(1, r.columns.length)));
    const budget = this.showAll[kind] ? rows.length : first;
    let left = budget;
    const groupsShown = byGroup.map((g) => {
      const shown = g.rows.slice(0, Math.max(0, left));
      left -= shown.length;
      return { ...g, shown };
    });
    const shownCount = rows.length - Math.max(0, rows.length - budget);
    const hiddenSame = all.length - differing.length;
    // One listener for all cells.
    const cellOf = (e: Event): HTMLElement | null => (e.target instanceof Element ? e.target.closest<HTMLElement>('td.result') : null);
    const click = (e: Event): void => {
      const td = cellOf(e);
      if (td?.dataset.row !== undefined && td.dataset.column !== undefined) onCell(td.dataset.row, td.dataset.column);
      const th = e.target instanceof Element ? e.target.closest<HTMLElement>('th.row-head') : null;
      if (th?.dataset.row !== undefined) onRow(th.dataset.row);
    };
    const key = (e: KeyboardEvent): void => {
      const td = cellOf(e);
      if (e.key === 'Enter' && td?.dataset.row !== undefined && td.dataset.column !== undefined) onCell(td.dataset.row, td.dataset.column);
    };
    const toggle = html`<div class="results-filter small">${vsCheckbox(
      `Only rows that differ or are flagged (${differing.length} of ${all.length}${this.onlyDiffering[kind] && hiddenSame > 0 ? `; ${hiddenSame} the same in every column hidden` : ''})`,
      this.onlyDiffering[kind],
      `results-${kind}-differing`,
      (on) => {
        this.onlyDiffering[kind] = on;
        this.repaint();
      },
    )}</div>`;
    const width = r.columns.length + 1;
    return html`${toggle}<div class="table-scroll results-scroll">
      <table class="results-matrix" data-testid=${`results-${kind}`}>
        <thead>
          <tr>
            <th class="corner">${kind === 'tests' ? 'test' : 'spec'}</th>
            ${r.columns.map((c) => {
              const run = r.runs[c];
              const why = run?.stale ? ` (stale: ${run.staleReasons?.length ? run.staleReasons.join('; ') : 'inputs changed since'})` : '';
              return html`<th
                title=${oneLine(run ? `${run.source === 'recorded' ? 'imported result' : `run ${run.runId}`}: ${run.status}${why}` : 'not run', 500)}
                class=${run?.stale ? 'stale' : ''}
                data-column=${c}
              >${oneLine(columnLabel(c), 30)}${run?.stale
                ? html`<span class="stale-mark" data-testid="result-stale"> (stale)</span>`
                : run?.source === 'recorded'
                  ? html`<span class="muted"> (imported)</span>`
                  : nothing}</th>`;
            })}
          </tr>
        </thead>
        ${groupsShown.filter((g) => g.total > 0).map(
          (g) => html`<tbody @click=${click} @keydown=${key} data-group=${g.title}>
            ${g.title
              ? html`<tr class="group-row" data-testid="results-group" data-group=${g.title}>
                  <th colspan=${String(width)}>${`${g.title} \u00b7 ${g.total} ${g.total === 1 ? 'row' : 'rows'}${g.rows.length < g.total ? `, ${g.total - g.rows.length} the same in every column` : ''}`}</th>
                </tr>`
              : nothing}
            ${repeat(
              g.shown,
              uniqueKeys(g.shown, (id) => id),
              (id) =>
                html`<tr data-testid="result-row" data-link-spec=${kind === 'specs' ? id : nothing}>
                  <th title=${oneLine(rowTitle(id), 1000)} class="row-head" data-row=${id}>${oneLine(rowLabel(id), 60)}</th>${r.columns.map((c) => {
                    const v = cells[id]?.[c] ?? '';
                    return html`<td class=${`result ${statusClass(v)}`} data-testid="result-cell" data-row=${id} data-column=${c} tabindex="0" role="button">${oneLine(v, 20)}</td>`;
                  })}
                </tr>`,
            )}
          </tbody>`,
        )}
      </table>
      ${rows.length > shownCount
        ? html`<button
            class="link-button"
            data-testid=${`results-${kind}-show-all`}
            @click=${() => {
              this.showAll[kind] = true;
              this.repaint();
            }}
          >${`Show all ${rows.length} rows`}</button>`
        : nothing}${rows.length === 0
        ? html`<p class="muted small" data-testid=${`results-${kind}-none`}>${all.length === 0 ? 'No rows.' : 'Every column agrees on every row and no flag names one: untick "Only rows that differ or are flagged" to see them.'}</p>`
        : nothing}
    </div>`;
  }
}

interface Group {
  title: string;
  of(id: string): boolean;
}

/** Asks the host to open the column's run log at the test. */
function openLog(ctx: Ctx, column: string, testId: string | undefined): void {
  ctx.host.request('openRunLog', testId !== undefined ? { column, testId } : { column }).then(
    (res) => ctx.status(res?.message ?? (res?.opened ? 'Opened the run log.' : 'No run log for this column.'), res?.opened === false),
    (e: unknown) => ctx.status(errorText(e), true),
  );
}

/** The covering test a spec cell's log opens at: the first that did not pass in that column, else the first. */
function specTest(ctx: Ctx, r: ResultsModel, specId: string, column: string): string | undefined {
  const tests = ctx.model().specs.find((s) => s.id === specId)?.tests ?? [];
  return tests.find((t) => statusClass(r.tests[t]?.[column] ?? '') !== 'ok') ?? tests[0];
}

function agrees(row: Record<string, string> | undefined, columns: readonly string[]): boolean {
  const first = row?.[columns[0] ?? ''];
  return columns.every((c) => row?.[c] === first);
}

function statusClass(v: string): string {
  const s = v.toLowerCase();
  if (s === 'passed' || s === 'pass' || s === 'xfail') return 'ok';
  if (s === 'failed' || s === 'fail' || s === 'error' || s === 'xpass') return 'bad';
  return 'unknown';
}
