// The "Coupling" tab: the coupling figure of the task's specs (docs/coupling.md) with its meaning and evidence counts,
// the coupled parts (which specs form each), and the edges of the coupling graph as a table, heaviest first, each with
// its evidence (shared tests by name, the dependsOn direction, the co-flip phi over N attempts). A lit-html template;
// every spec id and test name is a text binding.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { CouplingEdgeView, CouplingView, TaskViewModel } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { formatCount, oneLine } from '../text';

export const COUPLING_TAB = 'coupling';

const id = (s: string): string => oneLine(s, 120);
const fixed = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

export function couplingView(ctx: Ctx): TemplateResult {
  const m = ctx.model();
  const c = m.coupling;
  if (!c) return html`<div class="coupling" data-testid="coupling"><p class="muted">The coupling of this task is not available.</p></div>`;
  return html`<div class="coupling" data-testid="coupling">
    <div class="coupling-figure">
      <span class="coupling-value" data-testid="coupling-figure">${`Coupling ${fixed(c.figure)}`}</span>
      <span class="muted" data-testid="coupling-meaning">1 = no independent parts visible; 0 = every spec independent.</span>
    </div>
    <p data-testid="coupling-evidence">${evidenceLine(c)}</p>
    ${c.specs < 2 ? html`<p class="muted">With fewer than two specs there is no coupling to measure.</p>` : nothing}
    ${groupsList(c)}${edgesTable(m, c)}
  </div>`;
}

function evidenceLine(c: CouplingView): string {
  const e = c.byEvidence;
  return (
    `${formatCount(c.specs)} specs in ${formatCount(c.groupCount)} ${c.groupCount === 1 ? 'part' : 'parts'}; ` +
    `${formatCount(c.pairs)} spec pairs, ${formatCount(c.coupledPairs)} coupled: shared tests ${formatCount(e.sharedTests)}, ` +
    `dependsOn ${formatCount(e.declared)}, co-flip ${formatCount(e.coFlip)}. ` +
    `Co-flip measurable on ${formatCount(c.measuredPairs)} of ${formatCount(c.pairs)} pairs over ${formatCount(c.attempts)} ${c.attempts === 1 ? 'attempt' : 'attempts'}.`
  );
}

function groupsList(c: CouplingView): TemplateResult | typeof nothing {
  if (c.specs < 2) return nothing;
  const rest = c.groupCount - c.groups.length;
  return html`<h3 class="coupling-heading">Parts</h3>
    <ol class="coupling-groups" data-testid="coupling-groups">
      ${c.groups.map(
        (g, i) => html`<li data-testid="coupling-group" data-group=${String(i)}>
          ${g.specs.map((s, j) => html`${j > 0 ? ', ' : ''}<span class="coupling-spec">${id(s)}</span>`)}${g.more > 0 ? ` and ${formatCount(g.more)} more` : ''}${g.specs.length + g.more === 1
            ? html` <span class="muted">(independent)</span>`
            : nothing}
        </li>`,
      )}
    </ol>
    ${rest > 0 ? html`<p class="muted" data-testid="coupling-groups-more">${`${formatCount(rest)} more parts not shown.`}</p>` : nothing}`;
}

function edgesTable(m: TaskViewModel, c: CouplingView): TemplateResult | typeof nothing {
  if (c.specs < 2) return nothing;
  if (c.edges.length === 0) return html`<p class="muted" data-testid="coupling-no-edges">No two specs are coupled by what is measured.</p>`;
  const names = new Map(m.tests.map((t) => [t.id, t.name]));
  return html`<table class="coupling-edges" data-testid="coupling-edges">
      <caption>Coupled spec pairs, strongest evidence first</caption>
      <thead>
        <tr><th scope="col">Spec</th><th scope="col">Spec</th><th scope="col">Weight</th><th scope="col">Evidence</th></tr>
      </thead>
      <tbody>
        ${c.edges.map(
          (e) => html`<tr data-testid="coupling-edge">
            <td>${id(e.a)}</td>
            <td>${id(e.b)}</td>
            <td>${fixed(e.weight)}</td>
            <td>${evidence(e, names).map((line) => html`<div>${line}</div>`)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${c.edgesOmitted > 0 ? html`<p class="muted" data-testid="coupling-edges-more">${`${formatCount(c.edgesOmitted)} weaker pairs not shown.`}</p>` : nothing}`;
}

function evidence(e: CouplingEdgeView, names: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  if (e.sharedTests) {
    const tests = e.sharedTests.tests.map((t) => oneLine(names.get(t) ?? t, 120)).join(', ');
    out.push(`shared tests (Jaccard ${fixed(e.sharedTests.jaccard)}): ${tests}${e.sharedTests.more > 0 ? ` and ${formatCount(e.sharedTests.more)} more` : ''}`);
  }
  if (e.declared === 'both') out.push(`dependsOn: ${id(e.a)} \u2194 ${id(e.b)} (each names the other)`);
  else if (e.declared === 'a->b') out.push(`dependsOn: ${id(e.a)} depends on ${id(e.b)}`);
  else if (e.declared === 'b->a') out.push(`dependsOn: ${id(e.b)} depends on ${id(e.a)}`);
  if (e.coFlip) out.push(`co-flip: phi ${fixed(e.coFlip.phi)} over ${formatCount(e.coFlip.attempts)} ${e.coFlip.attempts === 1 ? 'attempt' : 'attempts'}`);
  return out;
}
