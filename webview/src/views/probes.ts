// The "Probes" tab: what the task's stored probe reports say (docs/probes.md, docs/workbench.md). The mutation score
// with its counts per task and per spec and each surviving mutant (operator, file:line, the line before and after);
// each passing exploit of the cheat probe (a verifier defect, its flags) and the stopped ones counted; each rejected
// alternative (its failing tests with their specs, the tests beyond the specs) and each surviving variant (its
// spec); the full suite's breaks. Each survivor, passing exploit, rejected alternative and surviving variant opens as
// a native diff (`openProbeDiff`), with the tests it got past (or that rejected it) beside it. A missing report shows
// the CLI line that writes it, a malformed one its error. A lit-html template; every report text is a text binding.
import { html, nothing, type TemplateResult } from 'lit-html';
import type { ProbeCountsView, ProbeDiffReport, ProbeReportView, ProbesView, ProbeTestView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { errorText, formatCount, oneLine } from '../text';

export const PROBES_TAB = 'probes';

const t = (s: string, max = 200): string => oneLine(s, max);

export function probesView(ctx: Ctx): TemplateResult {
  const p = ctx.model().probes;
  if (!p) return html`<div class="probes" data-testid="probes"><p class="muted">No probe reports are available for this task.</p></div>`;
  return html`<div class="probes" data-testid="probes">
    ${section('Gold mutants', 'mutants', p.mutants, (r) => mutants(ctx, p, r))}
    ${section('Cheat probe', 'cheats', p.cheats, (r) => cheats(ctx, p, r))}
    ${section('Alternative solutions', 'alternatives', p.alternatives, (r) => alternatives(ctx, r))}
    ${section('Plausible-wrong variants', 'variants', p.variants, (r) => variants(ctx, p, r))}
    ${section('Full suite', 'full-suite', p.fullSuite, fullSuite)}
  </div>`;
}

function section<T>(title: string, key: string, r: ProbeReportView<T>, body: (r: Extract<ProbeReportView<T>, { state: 'ok' }>) => TemplateResult): TemplateResult {
  return html`<section class="probe-report" data-testid=${`probe-${key}`} data-state=${r.state}>
    <h3 class="probe-heading">${title}</h3>
    ${r.state === 'missing'
      ? html`<p class="muted" data-testid="probe-missing">${`Not probed yet (${t(r.file)} is not there). Run:`}</p>
          <pre class="probe-command" data-testid="probe-command">${r.command}</pre>`
      : r.state === 'error'
        ? html`<p class="error" role="alert" data-testid="probe-error">${t(r.message, 600)}</p>`
        : html`<p class="muted small" data-testid="probe-head">${`${t(r.file)}, ${t(r.createdAt, 40)}; gold patch: ${t(r.goldStatus, 40)}${r.goldReason ? ` (${t(r.goldReason)})` : ''}`}</p>
            ${r.goldStatus !== 'passed' ? html`<p class="warning" data-testid="probe-gold-warning">The gold patch did not pass in this run: these outcomes tell little.</p>` : nothing}
            ${body(r as Extract<ProbeReportView<T>, { state: 'ok' }>)}`}
  </section>`;
}

function counts(c: ProbeCountsView): string {
  const shown = c.filter((x) => x.count > 0);
  return shown.length === 0 ? 'nothing ran' : shown.map((x) => `${formatCount(x.count)} ${x.outcome.replace(/_/g, ' ')}`).join(', ');
}

function open(ctx: Ctx, report: ProbeDiffReport, id: string): void {
  ctx.host.request('openProbeDiff', { report, id }).then(
    (res) => ctx.status(res?.message ?? (res?.opened ? `Opened the diff of ${t(id, 80)}.` : `No diff for ${t(id, 80)}.`), res?.opened === false),
    (e: unknown) => ctx.status(errorText(e), true),
  );
}

export function diffButton(ctx: Ctx, report: ProbeDiffReport, id: string, hasPatch: boolean): TemplateResult | typeof nothing {
  if (!hasPatch) return html`<span class="muted small">(no patch kept)</span>`;
  return html`<button class="link-button" data-testid="probe-open-diff" data-id=${id} title="Open the diff beside the panel" @click=${() => open(ctx, report, id)}>Open diff</button>`;
}

function testsList(label: string, tests: readonly ProbeTestView[], testid: string): TemplateResult {
  if (tests.length === 0) return html`<div class="probe-tests muted small" data-testid=${testid}>${`${label}: none`}</div>`;
  return html`<div class="probe-tests small" data-testid=${testid}>
    <span class="muted">${`${label}:`}</span>
    <ul>
      ${tests.map(
        (x) => html`<li data-testid="probe-test">
          <code>${t(x.name)}</code>${x.status ? html` <span class="bad">${t(x.status, 20)}</span>` : nothing}${x.specs.length > 0
            ? html` <span class="muted">${`(${x.specs.map((s) => t(s, 60)).join(', ')})`}</span>`
            : html` <span class="muted">(no spec)</span>`}
        </li>`,
      )}
    </ul>
  </div>`;
}

type Ok<K extends keyof Omit<ProbesView, 'listedTests'>> = Extract<ProbesView[K], { state: 'ok' }>;

function mutants(ctx: Ctx, p: ProbesView, r: Ok<'mutants'>): TemplateResult {
  return html`<p data-testid="probe-score">${`Mutation score ${r.score === null ? '– (no mutant graded)' : `${Math.round(r.score * 100)}%`}: ${counts(r.counts)}.`}</p>
    ${r.specs.length > 0
      ? html`<table class="probe-specs" data-testid="probe-mutant-specs">
          <thead><tr><th scope="col">Spec</th><th scope="col">Killed for it</th><th scope="col">Survived it</th></tr></thead>
          <tbody>
            ${r.specs.map(
              (s) => html`<tr data-testid="probe-spec-row">
                <td>${t(s.spec, 80)}</td><td>${formatCount(s.killed)}</td><td>${s.untested ? 'no test mapped' : formatCount(s.survived)}</td>
              </tr>`,
            )}
          </tbody>
        </table>`
      : nothing}
    ${r.survivors.length === 0
      ? html`<p class="muted" data-testid="probe-none">No mutant survived.</p>`
      : html`<ul class="probe-items">
          ${r.survivors.map(
            (m) => html`<li class="probe-item" data-testid="probe-survivor" data-id=${m.id}>
              <div><strong>${t(m.operator, 40)}</strong> <code data-testid="probe-location">${`${t(m.file)}:${m.line}`}</code> ${diffButton(ctx, 'mutants', m.id, m.hasPatch)}</div>
              <pre class="probe-lines"><span class="removed" data-testid="probe-before">${`- ${t(m.before, 400)}`}</span>
<span class="added" data-testid="probe-after">${`+ ${t(m.after, 400)}`}</span></pre>
              ${testsList('Tests it got past', p.listedTests, 'probe-got-past')}
            </li>`,
          )}
        </ul>`}`;
}

function cheats(ctx: Ctx, p: ProbesView, r: Ok<'cheats'>): TemplateResult {
  return html`<p data-testid="probe-cheat-counts">${`${formatCount(r.stopped)} ${r.stopped === 1 ? 'exploit' : 'exploits'} stopped; ${counts(r.counts)}.`}</p>
    ${r.passing.length === 0
      ? html`<p class="muted" data-testid="probe-none">No exploit passed the verifier.</p>`
      : html`<ul class="probe-items">
          ${r.passing.map(
            (e) => html`<li class="probe-item" data-testid="probe-exploit" data-id=${e.id}>
              <div><strong class="bad">Verifier defect:</strong> <code>${t(e.id, 80)}</code> ${diffButton(ctx, 'cheats', e.id, e.hasPatch)}</div>
              <div>${t(e.title, 400)}</div>
              <div class="small" data-testid="probe-flags">${e.flags.length > 0 ? `flags: ${e.flags.map((f) => t(f, 60)).join(', ')}` : 'no flags'}</div>
              ${testsList('Tests it got past', p.listedTests, 'probe-got-past')}
            </li>`,
          )}
        </ul>`}`;
}

function alternatives(ctx: Ctx, r: Ok<'alternatives'>): TemplateResult {
  return html`<p data-testid="probe-alt-counts">${`${counts(r.counts)}.`}</p>
    ${r.rejected.length === 0
      ? html`<p class="muted" data-testid="probe-none">The tests rejected no alternative solution.</p>`
      : html`<ul class="probe-items">
          ${r.rejected.map(
            (a) => html`<li class="probe-item" data-testid="probe-rejected" data-id=${a.id}>
              <div><strong>Rejected:</strong> <code>${t(a.id, 80)}</code> ${diffButton(ctx, 'alternatives', a.id, a.hasPatch)}</div>
              <div>${t(a.summary, 400)}</div>
              ${testsList('Rejected by', a.failingTests, 'probe-failing')}
              ${a.specs.length > 0 ? html`<div class="small" data-testid="probe-alt-specs">${`Specs of those tests: ${a.specs.map((s) => t(s, 60)).join(', ')}`}</div>` : nothing}
              ${a.beyondSpecs.length > 0
                ? html`<div class="small warning" data-testid="probe-beyond">${`Test beyond the specs: ${a.beyondSpecs.map((s) => t(s)).join(', ')}`}</div>`
                : nothing}
            </li>`,
          )}
        </ul>`}`;
}

function variants(ctx: Ctx, p: ProbesView, r: Ok<'variants'>): TemplateResult {
  return html`<p data-testid="probe-variant-counts">${`${counts(r.counts)}.`}</p>
    ${r.survivors.length === 0
      ? html`<p class="muted" data-testid="probe-none">No variant survived.</p>`
      : html`<ul class="probe-items">
          ${r.survivors.map((v) => {
            const mapped = p.listedTests.filter((x) => x.specs.includes(v.spec));
            return html`<li class="probe-item" data-testid="probe-variant" data-id=${v.id}>
              <div><strong>${`Survived, meant to violate ${t(v.spec, 60)}:`}</strong> <code>${t(v.id, 80)}</code> ${diffButton(ctx, 'variants', v.id, v.hasPatch)}</div>
              <div>${t(v.summary, 400)}</div>
              ${testsList(`Tests of ${t(v.spec, 60)} it got past`, mapped, 'probe-got-past')}
            </li>`;
          })}
        </ul>`}`;
}

function fullSuite(r: Ok<'fullSuite'>): TemplateResult {
  return html`<p class="small" data-testid="probe-suite-command">${`Command${r.derived ? ' (derived)' : ''}: `}<code>${t(r.command, 400)}</code>${`; ${formatCount(r.noise)} failing with the gold patch too (noise, not counted).`}</p>
    <ul class="probe-items">
      ${r.attempts.map(
        (a) => html`<li data-testid="probe-breaks" data-id=${a.attemptId}>
          <code>${t(a.attemptId, 80)}</code>${a.breaks === null
            ? html` <span class="muted">${`not graded (${t(a.status, 40)}${a.reason ? `: ${t(a.reason)}` : ''})`}</span>`
            : a.breaks.length === 0
              ? html` <span class="muted">breaks nothing</span>`
              : html` <span class="bad">${`breaks ${formatCount(a.breaks.length)}:`}</span>
                  <ul>
                    ${a.breaks.map((b) => html`<li><code>${t(b)}</code></li>`)}
                  </ul>`}
        </li>`,
      )}
    </ul>`;
}
