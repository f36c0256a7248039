// The "Review" tab: the attempt × spec grid (verifier verdict, your verdict, the outcome marked), the focused pair with
// its verdict buttons, note and evidence, other curators' labels (unless blind mode hides them), and the oracle-probe
// suggestions to confirm or dismiss. A lit-html template: an update patches the cells that changed.
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import type { CuratorVerdictView, FindingView, LabelView, ProbeSupportItemView, ReviewCellView, ReviewView, SuggestionView } from '../../../src/protocol/messages';
import { inertText, oneLine } from '../text';
import { vsBadge, vsButton } from '../ui/controls';
import './review.css';
import type { ReviewController } from './reviewController';
import { diffButton } from './probes';
import { evidenceEditor, evidenceList } from './reviewEvidence';
import { cellOf, describeCell, findingOf, findingState, OUTCOME_MARK, OUTCOME_TEXT, pairKey, REVIEW_KEYS_HELP, VERDICT_MARK, VERIFIER_MARK } from './reviewModel';

/** Grid cells drawn before asking (a task with many attempts and specs). */
const FIRST_CELLS = 400;

export function labelsTab(rc: ReviewController): TemplateResult {
  const r = rc.review;
  if (!r) return html`<div class="review-labels" data-testid="review"><p class="muted">The review of this task is loading.</p></div>`;
  if (r.cells.length === 0) {
    return html`<div class="review-labels" data-testid="review">
      <p class="muted" data-testid="review-empty">${r.attempts.length === 0 ? 'This task has no attempts to judge.' : 'This task has no specs to judge the attempts against.'}</p>
      ${suggestions(rc, r)}
    </div>`;
  }
  const focus = rc.ensureFocus();
  const cell = cellOf(r, focus);
  return html`<div class="review-labels" data-testid="review">
    ${rc.showHelp ? help() : nothing} ${r.trimmed ? html`<div class="muted small" data-testid="review-trimmed">${oneLine(r.trimmed, 300)}</div>` : nothing} ${grid(rc, r)}
    ${cell ? pair(rc, r, cell) : nothing} ${suggestions(rc, r)}
  </div>`;
}

function help(): TemplateResult {
  return html`<table class="review-help" data-testid="review-help">
    ${REVIEW_KEYS_HELP.map(([k, what]) => html`<tr><th>${k}</th><td>${what}</td></tr>`)}
  </table>`;
}

function attemptTitle(a: ReviewView['attempts'][number]): string {
  const v = a.verifier;
  return oneLine(
    `${a.id} · ${a.model} · ${a.agent}${v ? `\nverifier: ${v.status}${v.resolved !== undefined ? (v.resolved ? ' (resolved)' : ' (not resolved)') : ''} from ${v.source === 'run' ? `run ${v.runId}` : `imported ${v.runId}`}${v.stale ? ' — stale' : ''}` : '\nno verifier result yet'}`,
    500,
  );
}

function grid(rc: ReviewController, r: ReviewView): TemplateResult {
  const rows = rc.showAllGrid ? r.specs : r.specs.slice(0, Math.max(1, Math.floor(FIRST_CELLS / Math.max(1, r.attempts.length))));
  const cells = new Map(r.cells.map((c) => [pairKey(c), c]));
  const findings = new Map((r.findings ?? []).map((f) => [pairKey(f), f]));
  const focusKey = rc.focus ? pairKey(rc.focus) : '';
  const specText = new Map(rc.ctx.model().specs.map((x) => [x.id, x.text]));
  return html`<div class="review-grid-box">
    <div class="table-scroll review-grid-wrap">
      <table class="review-grid" data-testid="review-grid" role="grid" aria-label="Verdicts per attempt and spec">
        <thead>
          <tr>
            <th class="corner">spec \ attempt</th>
            ${r.attempts.map((a) => html`<th class="attempt-col" data-attempt=${a.id} data-testid="review-attempt" title=${attemptTitle(a)}>${oneLine(a.id, 18)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (s) =>
              html`<tr data-spec=${s}>
                <th class="spec-row-head" title=${oneLine(specText.get(s) ?? s, 500)}>${oneLine(s, 24)}</th>
                ${r.attempts.map((a) => {
                  const c = cells.get(`${a.id}\u0000${s}`);
                  return c ? gridCell(rc, c, pairKey(c) === focusKey, findings.get(pairKey(c))) : html`<td></td>`;
                })}
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${legend()}
    ${rows.length < r.specs.length
      ? html`<button
          class="link-button"
          data-testid="review-grid-show-all"
          @click=${() => {
            rc.showAllGrid = true;
            rc.rerender();
          }}
        >Show all ${r.specs.length} specs</button>`
      : nothing}
  </div>`;
}

/** The grid's mark of a pair's finding: ◇ open, ◆ accepted, nothing once dismissed or stale. */
const FINDING_MARK: Record<ReturnType<typeof findingState>, string> = { open: '\u25c7', accepted: '\u25c6', dismissed: '', stale: '' };

function gridCell(rc: ReviewController, c: ReviewCellView, focused: boolean, f: FindingView | undefined): TemplateResult {
  const sent = rc.drafts.sent.has(pairKey(c));
  const mine = c.mine ? VERDICT_MARK[c.mine.verdict] : sent ? '…' : '·';
  const others = c.others.length > 0 ? `+${c.others.length}` : '';
  const classes = ['review-cell', `outcome-${c.outcome}`, `verifier-${c.verifier}`];
  if (focused) classes.push('focused');
  if (c.disagreement) classes.push('disagreement');
  if (sent) classes.push('pending');
  if (!c.mine) classes.push('unlabelled');
  const fstate = f ? findingState(f) : undefined;
  if (fstate === 'open') classes.push('finding-open');
  const fmark = fstate ? FINDING_MARK[fstate] : '';
  const text = `${VERIFIER_MARK[c.verifier] ?? '?'} ${mine}${others ? ` ${others}` : ''}${OUTCOME_MARK[c.outcome] ? ` ${OUTCOME_MARK[c.outcome]}` : ''}${fmark ? ` ${fmark}` : ''}`;
  return html`<td
    class=${classes.join(' ')}
    data-testid="review-cell"
    data-attempt=${c.attempt}
    data-spec=${c.spec}
    data-outcome=${c.outcome}
    data-verifier=${c.verifier}
    data-mine=${c.mine?.verdict ?? ''}
    data-finding=${fstate ?? ''}
    title=${oneLine(`${describeCell(c)}${f ? `; review agent: ${f.judgment} (${fstate})` : ''}`, 500)}
    role="gridcell"
    tabindex="-1"
    aria-selected=${focused ? 'true' : nothing}
    @click=${() => rc.setFocus({ attempt: c.attempt, spec: c.spec })}
  >${text}</td>`;
}

function legend(): TemplateResult {
  return html`<div class="review-legend muted small">${'verifier \u2713 pass \u2717 fail ? unknown · yours S V U (· none) · +N others · '}<span class="mark outcome-false_positive">FP</span>${' false positive (verifier passed, spec violated) · '}<span class="mark outcome-false_negative">FN</span>${' false negative (verifier failed, spec satisfied) · TP / TF true pass / fail'}</div>`;
}

const VERDICT_LABEL: Record<CuratorVerdictView, string> = { satisfied: 'Satisfied', violated: 'Violated', unsure: 'Unsure' };
const VERDICT_KEY: Record<CuratorVerdictView, string> = { satisfied: 's', violated: 'v', unsure: 'u' };

function fromText(c: ReviewCellView): string {
  return c.from === 'adjudicated' ? ' (adjudicated)' : c.from === 'policy' ? ' (highest severity)' : c.from === 'agreement' ? ' (curators agree)' : '';
}

function pair(rc: ReviewController, r: ReviewView, c: ReviewCellView): TemplateResult {
  const m = rc.ctx.model();
  const spec = m.specs.find((s) => s.id === c.spec);
  const attempt = r.attempts.find((a) => a.id === c.attempt);
  const verifierRun = attempt?.verifier;
  const disabled = !r.viewer || r.status === 'approved' || r.status === 'rejected';
  const key = pairKey(c);
  const p = { attempt: c.attempt, spec: c.spec };
  return html`<section class="review-pair" data-testid="review-pair" data-attempt=${c.attempt} data-spec=${c.spec}>
    <div class="pair-head">
      <span class="pair-title" data-testid="review-pair-title">${oneLine(c.attempt, 60)} × ${oneLine(c.spec, 40)}</span>
      ${attempt ? html`<span class="muted small">${oneLine(`${attempt.model} · ${attempt.agent}`, 100)}</span>` : nothing}
      <span class="spacer"></span>
      <span class=${`outcome-badge outcome-${c.outcome}`} data-testid="review-outcome">${OUTCOME_TEXT[c.outcome]}</span>
    </div>
    ${spec
      ? html`<div class="pair-spec"><span class="muted small">${oneLine(spec.category, 40)} · </span><span class="spec-text">${inertText(spec.text)}</span></div>`
      : nothing}
    <div class="pair-verifier" data-testid="review-verifier">
      <span class=${`verifier-word verifier-${c.verifier}`}>Verifier: ${c.verifier}</span>
      ${verifierRun
        ? html`<span class="muted small">${` (${verifierRun.source === 'run' ? `run ${oneLine(verifierRun.runId, 40)}` : `imported ${oneLine(verifierRun.runId, 60)}`}${c.verifierStale ? ', stale: run it again' : ''})`}</span>`
        : html`<span class="muted small"> (no result yet: run the verifier)</span>`}
      ${c.final ? html`<span class="muted small"> · final verdict: ${c.final}${fromText(c)}</span>` : nothing}
      ${c.from === 'disagreement' ? html`<span class="warning-text small"> · curators disagree: adjudicate it</span>` : nothing}
    </div>
    ${(() => {
      const f = findingOf(r, p);
      return f ? findingBlock(rc, f, disabled) : nothing;
    })()}
    <div class="verdict-buttons" data-testid="review-verdicts">
      ${(['satisfied', 'violated', 'unsure'] as const).map((v) =>
        vsButton(`${VERDICT_LABEL[v]} (${VERDICT_KEY[v]})`, () => rc.label(v, p), {
          testid: `verdict-${v}`,
          secondary: c.mine?.verdict !== v,
          chosen: c.mine?.verdict === v,
          disabled,
          title: `Record: ${c.attempt} ${v === 'satisfied' ? 'satisfies' : v === 'violated' ? 'violates' : 'may or may not satisfy'} ${c.spec}`,
        }),
      )}
      ${c.mine ? html`<span class="muted small" data-testid="review-mine">yours: ${c.mine.verdict}</span>` : nothing}
    </div>
    ${disabled
      ? html`<div class="muted small" data-testid="review-disabled">${!r.viewer
          ? `Labels cannot be recorded: ${oneLine(r.curatorProblem ?? 'no curator name', 300)}. Run "SpecWeave: Set Curator Name…".`
          : `The task is ${r.status}: reopen it (Decision tab) to change labels.`}</div>`
      : nothing}
    <div class="pair-note">
      <textarea
        class="review-note"
        data-testid="review-note"
        data-field="note"
        rows="3"
        maxlength="20000"
        placeholder="Note (why; recorded with the verdict). Esc leaves the note."
        aria-label=${oneLine(`Note on ${c.attempt} × ${c.spec}`, 200)}
        ?disabled=${disabled}
        .value=${live(rc.drafts.noteOf(c))}
        @input=${(e: Event) => {
          rc.drafts.notes.set(key, (e.currentTarget as HTMLTextAreaElement).value);
          rc.rerender();
        }}
      ></textarea>
    </div>
    ${evidenceEditor(rc, c, disabled)}
    <div class="pair-actions">
      ${vsButton('Save note and evidence', () => rc.saveNote(p), { testid: 'review-save-note', secondary: true, disabled, hidden: !c.mine || !rc.drafts.dirty(c) })}
    </div>
    ${others(rc, r, c)}
  </section>`;
}

const CANDIDATE_TEXT = { false_positive: 'candidate FP', false_negative: 'candidate FN' } as const;

/**
 * The review agent's finding on the focused pair: a suggestion with its judgment, confidence, candidate badge,
 * rationale (the model's text, inert) and citations (links that open their place). `y` accepts it as your own label,
 * `x` dismisses it. It never shows as a label: once accepted, your label shows it as evidence.
 */
function findingBlock(rc: ReviewController, f: FindingView, disabled: boolean): TemplateResult {
  const state = findingState(f);
  const p = { attempt: f.attempt, spec: f.spec };
  const status =
    state === 'stale'
      ? 'on an older revision of the spec: run the review agent again'
      : state === 'dismissed' && f.dismissed
        ? `dismissed by ${oneLine(f.dismissed.curator, 60)}${f.dismissed.note ? ` — ${oneLine(f.dismissed.note, 200)}` : ''}`
        : f.acceptedByYou
          ? 'accepted: your label cites it'
          : f.acceptedBy.length > 0
            ? `accepted by ${f.acceptedBy.map((c) => oneLine(c, 40)).join(', ')}`
            : 'a suggestion, not a label: accept it (y) or dismiss it (x)';
  return html`<section class=${`review-finding finding-${state}`} data-testid="review-finding" data-findings=${f.findings} data-judgment=${f.judgment} data-state=${state}>
    <div class="finding-head">
      <span class="section-title small">Review agent suggests</span>
      <span class=${`verdict verdict-${f.judgment}`} data-testid="finding-judgment">${f.judgment}</span>
      <span class="muted small" data-testid="finding-confidence">${`confidence ${Math.round(f.confidence * 100)}%`}</span>
      ${f.candidate ? html`<span class=${`mark outcome-${f.candidate}`} data-testid="finding-candidate">${CANDIDATE_TEXT[f.candidate]}</span>` : nothing}
      <span class="muted small">${oneLine(` · ${f.model} · prompt ${f.promptVersion}`, 160)}</span>
    </div>
    <div class="finding-rationale" data-testid="finding-rationale">${inertText(f.rationale) + (f.rationaleCut ? '\u2026 (cut)' : '')}</div>
    ${f.links.length > 0 ? html`<div class="finding-citations" data-testid="finding-citations">${evidenceList(rc, f.links)}</div>` : nothing}
    ${f.sentences.length > 0 ? html`<div class="muted small" data-testid="finding-sentences">${`cites request sentence${f.sentences.length > 1 ? 's' : ''} ${f.sentences.join(', ')}`}</div>` : nothing}
    ${f.quotes.map((q) => html`<blockquote class="finding-quote small" data-testid="finding-quote">${inertText(q)}</blockquote>`)}
    ${f.candidate ? probeEvidence(rc, f) : nothing}
    <div class="finding-actions">
      <span class="muted small" data-testid="finding-status">${status}</span>
      ${state === 'open' || (state === 'accepted' && !f.acceptedByYou)
        ? vsButton(`Accept as my label (y)`, () => rc.acceptFinding(p), { testid: 'finding-accept', secondary: true, disabled, title: `Record ${f.judgment} as your label, citing this finding` })
        : nothing}
      ${state === 'open' ? vsButton('Dismiss (x)', () => rc.dismissFinding(p), { testid: 'finding-dismiss', secondary: true, disabled, title: 'This finding is wrong or not useful' }) : nothing}
    </div>
  </section>`;
}

/**
 * What the task's probes say about a candidate finding: the survivors, passing exploits or rejected alternatives
 * behind it (those naming its spec first), each with its diff; or that no probe backs it yet. The probes' own
 * section (the Probes tab) owns the reports; this only looks up the finding's spec in what it sent.
 */
function probeEvidence(rc: ReviewController, f: FindingView): TemplateResult {
  const probes = rc.ctx.model().probes;
  const s = probes?.support?.find((x) => x.spec === f.spec);
  const items = f.candidate === 'false_positive' ? s?.falsePositive : s?.falseNegative;
  if (!items || items.length === 0) {
    const hint = f.candidate === 'false_positive' ? 'a surviving gold mutant or variant, or a passing exploit' : 'an alternative solution the tests reject';
    return html`<div class="muted small" data-testid="finding-probes" data-backed="false">${`No probe backs this candidate yet (${hint} would): see the Probes tab.`}</div>`;
  }
  const own = items.filter((i) => i.scope === 'spec').length;
  return html`<div class="finding-probes" data-testid="finding-probes" data-backed=${own > 0 ? 'spec' : 'task'}>
    <div class="section-title small">${own > 0 ? `Backed by probes on ${oneLine(f.spec, 40)}` : 'Probes on the whole task'}</div>
    <ul class="finding-probe-list">
      ${items.map((i) => probeItem(rc, i))}
    </ul>
  </div>`;
}

function probeItem(rc: ReviewController, i: ProbeSupportItemView): TemplateResult {
  return html`<li data-testid="finding-probe" data-report=${i.report} data-id=${i.id} data-scope=${i.scope}>
    <span>${oneLine(i.text, 240)}</span>${i.tests.length > 0 ? html` <span class="muted small">${`(${i.tests.map((x) => oneLine(x, 120)).join(', ')})`}</span>` : nothing}
    ${diffButton(rc.ctx, i.report, i.id, i.hasPatch)}
  </li>`;
}

function label(rc: ReviewController, l: LabelView, testid: string): TemplateResult {
  return html`<div class=${`other-label${l.stale ? ' stale' : ''}`} data-testid=${testid} data-curator=${l.curator}>
    <span class="curator">${oneLine(l.curator, 60)}</span><span class=${`verdict verdict-${l.verdict}`}> ${l.verdict}</span>${l.stale
      ? html`<span class="muted small"> (on an older revision of the spec)</span>`
      : nothing}
    ${l.note ? html`<div class="label-note" data-testid=${`${testid}-note`}>${inertText(l.note) + (l.noteCut ? '\u2026 (cut)' : '')}</div>` : nothing}
    ${l.evidence.length > 0 ? evidenceList(rc, l.evidence) : nothing}
  </div>`;
}

function others(rc: ReviewController, r: ReviewView, c: ReviewCellView): TemplateResult {
  return html`<div class="review-others" data-testid="review-others">
    ${r.othersHidden
      ? html`<div class="muted small" data-testid="review-blind">${'Blind mode: other curators\u2019 labels on this task are hidden until you submit your review (Decision tab, or Enter in review mode).'}</div>`
      : nothing}
    ${c.others.length > 0 ? html`<div class="section-title small">Other curators</div>${c.others.map((l) => label(rc, l, 'other-label'))}` : nothing}
    ${c.stale.length > 0 ? html`<div class="section-title small">Labels on an older revision</div>${c.stale.map((l) => label(rc, l, 'stale-label'))}` : nothing}
  </div>`;
}

function suggestions(rc: ReviewController, r: ReviewView): TemplateResult {
  const disabled = !r.viewer || r.status === 'approved' || r.status === 'rejected';
  return html`<section class="review-suggestions" data-testid="review-suggestions">
    <div class="section-title">Suggestions from the verifier (${r.counts.openSuggestions} open)</div>
    ${r.suggestions.length === 0
      ? html`<p class="muted small">No oracle-probe flags for this task (run the verifier with the gold and empty probes to get them).</p>`
      : html`<p class="muted small">${'Oracle-probe flags are suggestions, never labels: confirm one to count it (a confirmed suspect false positive or negative blocks approval), or dismiss it.'}</p>
          ${r.suggestions.slice(0, 100).map((s) => suggestion(rc, s, disabled))}
          ${r.suggestions.length > 100 ? html`<p class="muted small">${r.suggestions.length - 100} more suggestions (see specweave log).</p>` : nothing}`}
  </section>`;
}

function suggestion(rc: ReviewController, s: SuggestionView, disabled: boolean): TemplateResult {
  const where = [s.attempt ? `attempt ${s.attempt}` : '', s.spec ? `spec ${s.spec}` : '', s.test ? `test ${s.test}` : ''].filter(Boolean).join(' · ');
  const decide = (decision: 'confirmed' | 'dismissed') => () => void rc.act('decideSuggestion', { suggestion: s.id, decision }, decision === 'confirmed' ? 'Confirmed' : 'Dismissed');
  return html`<div class=${`suggestion${s.open ? ' open' : ''}`} data-testid="suggestion" data-suggestion=${s.id} data-kind=${s.kind}>
    <div class="suggestion-head">
      ${vsBadge(s.kind.replace(/_/g, ' '), 'suggestion-kind')}
      ${s.suspect ? html`<span class=${`mark outcome-${s.suspect}`}>${s.suspect === 'false_positive' ? 'suspect FP' : 'suspect FN'}</span>` : nothing}
      <span class="suggestion-message"> ${oneLine(s.message, 400)}</span>
    </div>
    ${where ? html`<div class="muted small">${oneLine(where, 300)}</div>` : nothing}
    <div class="suggestion-actions">
      ${s.decision
        ? html`<span class=${`decision decision-${s.decision.decision}`} data-testid="suggestion-decision">${s.decision.decision} by ${oneLine(s.decision.curator, 60)}</span>${s.decision.note
              ? html`<span class="muted small"> — ${oneLine(s.decision.note, 200)}</span>`
              : nothing}`
        : nothing}
      ${!s.decision || s.decision.decision !== 'confirmed' ? vsButton('Confirm', decide('confirmed'), { testid: 'suggestion-confirm', secondary: true, disabled, title: 'This flag is a real finding' }) : nothing}
      ${!s.decision || s.decision.decision !== 'dismissed' ? vsButton('Dismiss', decide('dismissed'), { testid: 'suggestion-dismiss', secondary: true, disabled, title: 'This flag is not a problem' }) : nothing}
    </div>
  </div>`;
}
