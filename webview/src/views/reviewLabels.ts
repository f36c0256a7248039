// The "Review" tab: the attempt × spec grid (verifier verdict, your verdict, the outcome marked), the focused pair with
// its verdict buttons, note and evidence, other curators' labels (unless blind mode hides them), and the oracle-probe
// suggestions to confirm or dismiss.
import type { CuratorVerdictView, LabelView, ReviewCellView, ReviewView, SuggestionView } from '../../../src/protocol/messages';
import { el } from '../dom';
import { inertText, oneLine } from '../text';
import { badge, button } from '../ui/controls';
import type { ReviewController } from './reviewController';
import { renderEvidenceEditor, renderEvidenceList } from './reviewEvidence';
import { cellOf, describeCell, OUTCOME_MARK, OUTCOME_TEXT, pairKey, REVIEW_KEYS_HELP, VERDICT_MARK, VERIFIER_MARK } from './reviewModel';

/** Grid cells drawn before asking (a task with many attempts and specs). */
const FIRST_CELLS = 400;

export function renderLabelsTab(rc: ReviewController, showAll = false): HTMLElement {
  const r = rc.review;
  const root = el('div', { class: 'review-labels', testid: 'review' });
  if (!r) {
    root.append(el('p', { class: 'muted', text: 'The review of this task is loading.' }));
    return root;
  }
  if (r.cells.length === 0) {
    root.append(el('p', { class: 'muted', testid: 'review-empty', text: r.attempts.length === 0 ? 'This task has no attempts to judge.' : 'This task has no specs to judge the attempts against.' }));
    root.append(renderSuggestions(rc, r));
    return root;
  }
  const focus = rc.ensureFocus();
  if (rc.showHelp) root.append(renderHelp());
  if (r.trimmed) root.append(el('div', { class: 'muted small', testid: 'review-trimmed', text: oneLine(r.trimmed, 300) }));
  root.append(renderGrid(rc, r, showAll, () => root.replaceWith(renderLabelsTab(rc, true))));
  const cell = cellOf(r, focus);
  if (cell) root.append(renderPair(rc, r, cell));
  root.append(renderSuggestions(rc, r));
  return root;
}

function renderHelp(): HTMLElement {
  const t = el('table', { class: 'review-help', testid: 'review-help' });
  for (const [k, what] of REVIEW_KEYS_HELP) t.append(el('tr', {}, el('th', { text: k }), el('td', { text: what })));
  return t;
}

function shortAttempt(id: string): string {
  return oneLine(id, 18);
}

function renderGrid(rc: ReviewController, r: ReviewView, showAll: boolean, more: () => void): HTMLElement {
  const wrap = el('div', { class: 'table-scroll review-grid-wrap' });
  const table = el('table', { class: 'review-grid', testid: 'review-grid', role: 'grid', ariaLabel: 'Verdicts per attempt and spec' });
  const head = el('tr', {}, el('th', { class: 'corner', text: 'spec \\ attempt' }));
  for (const a of r.attempts) {
    const v = a.verifier;
    const th = el('th', {
      class: 'attempt-col',
      data: { attempt: a.id },
      testid: 'review-attempt',
      text: shortAttempt(a.id),
      title: `${a.id} · ${a.model} · ${a.agent}${v ? `\nverifier: ${v.status}${v.resolved !== undefined ? (v.resolved ? ' (resolved)' : ' (not resolved)') : ''} from ${v.source === 'run' ? `run ${v.runId}` : `imported ${v.runId}`}${v.stale ? ' — stale' : ''}` : '\nno verifier result yet'}`,
    });
    head.append(th);
  }
  table.append(el('thead', {}, head));
  const body = el('tbody');
  const rows = showAll ? r.specs : r.specs.slice(0, Math.max(1, Math.floor(FIRST_CELLS / Math.max(1, r.attempts.length))));
  const cells = new Map(r.cells.map((c) => [pairKey(c), c]));
  const focusKey = rc.focus ? pairKey(rc.focus) : '';
  for (const s of rows) {
    const tr = el('tr', { data: { spec: s } }, el('th', { class: 'spec-row-head', text: oneLine(s, 24), title: rc.ctx.model().specs.find((x) => x.id === s)?.text ?? s }));
    for (const a of r.attempts) {
      const c = cells.get(`${a.id}\u0000${s}`);
      if (!c) {
        tr.append(el('td'));
        continue;
      }
      tr.append(gridCell(rc, c, pairKey(c) === focusKey));
    }
    body.append(tr);
  }
  table.append(body);
  wrap.append(table);
  const box = el('div', { class: 'review-grid-box' }, wrap, legend());
  if (rows.length < r.specs.length) {
    const b = el('button', { class: 'link-button', testid: 'review-grid-show-all', text: `Show all ${r.specs.length} specs` });
    b.addEventListener('click', more);
    box.append(b);
  }
  return box;
}

function gridCell(rc: ReviewController, c: ReviewCellView, focused: boolean): HTMLElement {
  const sent = rc.drafts.sent.has(pairKey(c));
  const mine = c.mine ? VERDICT_MARK[c.mine.verdict] : sent ? '…' : '·';
  const others = c.others.length > 0 ? `+${c.others.length}` : '';
  const classes = ['review-cell', `outcome-${c.outcome}`, `verifier-${c.verifier}`];
  if (focused) classes.push('focused');
  if (c.disagreement) classes.push('disagreement');
  if (sent) classes.push('pending');
  if (!c.mine) classes.push('unlabelled');
  const td = el('td', {
    class: classes.join(' '),
    testid: 'review-cell',
    data: { attempt: c.attempt, spec: c.spec, outcome: c.outcome, verifier: c.verifier, mine: c.mine?.verdict ?? '' },
    title: describeCell(c),
    role: 'gridcell',
    tabIndex: -1,
    text: `${VERIFIER_MARK[c.verifier] ?? '?'} ${mine}${others ? ` ${others}` : ''}${OUTCOME_MARK[c.outcome] ? ` ${OUTCOME_MARK[c.outcome]}` : ''}`,
  });
  if (focused) td.setAttribute('aria-selected', 'true');
  td.addEventListener('click', () => rc.setFocus({ attempt: c.attempt, spec: c.spec }));
  return td;
}

function legend(): HTMLElement {
  return el(
    'div',
    { class: 'review-legend muted small' },
    'verifier \u2713 pass \u2717 fail ? unknown · yours S V U (· none) · +N others · ',
    el('span', { class: 'mark outcome-false_positive', text: 'FP' }),
    ' false positive (verifier passed, spec violated) · ',
    el('span', { class: 'mark outcome-false_negative', text: 'FN' }),
    ' false negative (verifier failed, spec satisfied) · TP / TF true pass / fail',
  );
}

const VERDICT_LABEL: Record<CuratorVerdictView, string> = { satisfied: 'Satisfied', violated: 'Violated', unsure: 'Unsure' };
const VERDICT_KEY: Record<CuratorVerdictView, string> = { satisfied: 's', violated: 'v', unsure: 'u' };

function renderPair(rc: ReviewController, r: ReviewView, c: ReviewCellView): HTMLElement {
  const m = rc.ctx.model();
  const spec = m.specs.find((s) => s.id === c.spec);
  const attempt = r.attempts.find((a) => a.id === c.attempt);
  const box = el('section', { class: 'review-pair', testid: 'review-pair', data: { attempt: c.attempt, spec: c.spec } });
  box.append(
    el(
      'div',
      { class: 'pair-head' },
      el('span', { class: 'pair-title', testid: 'review-pair-title', text: `${oneLine(c.attempt, 60)} × ${oneLine(c.spec, 40)}` }),
      attempt ? el('span', { class: 'muted small', text: oneLine(`${attempt.model} · ${attempt.agent}`, 100) }) : null,
      el('span', { class: 'spacer' }),
      el('span', { class: `outcome-badge outcome-${c.outcome}`, testid: 'review-outcome', text: OUTCOME_TEXT[c.outcome] }),
    ),
  );
  if (spec) box.append(el('div', { class: 'pair-spec' }, el('span', { class: 'muted small', text: `${oneLine(spec.category, 40)} · ` }), el('span', { class: 'spec-text', text: inertText(spec.text) })));
  const verifierRun = attempt?.verifier;
  box.append(
    el(
      'div',
      { class: 'pair-verifier', testid: 'review-verifier' },
      el('span', { class: `verifier-word verifier-${c.verifier}`, text: `Verifier: ${c.verifier}` }),
      verifierRun ? el('span', { class: 'muted small', text: ` (${verifierRun.source === 'run' ? `run ${oneLine(verifierRun.runId, 40)}` : `imported ${oneLine(verifierRun.runId, 60)}`}${c.verifierStale ? ', stale: run it again' : ''})` }) : el('span', { class: 'muted small', text: ' (no result yet: run the verifier)' }),
      c.final ? el('span', { class: 'muted small', text: ` · final verdict: ${c.final}${c.from === 'adjudicated' ? ' (adjudicated)' : c.from === 'policy' ? ' (highest severity)' : c.from === 'agreement' ? ' (curators agree)' : ''}` }) : null,
      c.from === 'disagreement' ? el('span', { class: 'warning-text small', text: ' · curators disagree: adjudicate it' }) : null,
    ),
  );

  const disabled = !r.viewer || r.status === 'approved' || r.status === 'rejected';
  const verdicts = el('div', { class: 'verdict-buttons', testid: 'review-verdicts' });
  for (const v of ['satisfied', 'violated', 'unsure'] as const) {
    const b = button(`${VERDICT_LABEL[v]} (${VERDICT_KEY[v]})`, () => rc.label(v, { attempt: c.attempt, spec: c.spec }), {
      testid: `verdict-${v}`,
      secondary: c.mine?.verdict !== v,
      disabled,
      title: `Record: ${c.attempt} ${v === 'satisfied' ? 'satisfies' : v === 'violated' ? 'violates' : 'may or may not satisfy'} ${c.spec}`,
    });
    if (c.mine?.verdict === v) b.classList.add('chosen');
    verdicts.append(b);
  }
  if (c.mine) verdicts.append(el('span', { class: 'muted small', testid: 'review-mine', text: `yours: ${c.mine.verdict}` }));
  box.append(verdicts);
  if (disabled) {
    box.append(
      el('div', {
        class: 'muted small',
        testid: 'review-disabled',
        text: !r.viewer ? `Labels cannot be recorded: ${oneLine(r.curatorProblem ?? 'no curator name', 300)}. Run "SpecWeave: Set Curator Name…".` : `The task is ${r.status}: reopen it (Decision tab) to change labels.`,
      }),
    );
  }

  // Note and evidence: recorded with the verdict; kept here when recording fails.
  const note = document.createElement('textarea');
  note.className = 'review-note';
  note.dataset.testid = 'review-note';
  note.rows = 3;
  note.placeholder = 'Note (why; recorded with the verdict). Esc leaves the note.';
  note.setAttribute('aria-label', `Note on ${c.attempt} × ${c.spec}`);
  note.value = rc.drafts.noteOf(c);
  note.disabled = disabled;
  note.maxLength = 20_000;
  note.addEventListener('input', () => {
    rc.drafts.notes.set(pairKey(c), note.value);
    save.hidden = !c.mine || !rc.drafts.dirty(c);
  });
  rc.trackField(note, `note:${pairKey(c)}`);
  const save = button('Save note and evidence', () => rc.saveNote({ attempt: c.attempt, spec: c.spec }), { testid: 'review-save-note', secondary: true, disabled });
  // Before a verdict, the note and links go with it; after, this re-records them with the same verdict.
  save.hidden = !c.mine || !rc.drafts.dirty(c);
  box.append(el('div', { class: 'pair-note' }, note), renderEvidenceEditor(rc, c, disabled, () => rc.rerender()), el('div', { class: 'pair-actions' }, save));

  box.append(renderOthers(rc, r, c));
  return box;
}

function renderLabel(rc: ReviewController, l: LabelView, testid: string): HTMLElement {
  return el(
    'div',
    { class: `other-label${l.stale ? ' stale' : ''}`, testid, data: { curator: l.curator } },
    el('span', { class: 'curator', text: oneLine(l.curator, 60) }),
    el('span', { class: `verdict verdict-${l.verdict}`, text: ` ${l.verdict}` }),
    l.stale ? el('span', { class: 'muted small', text: ' (on an older revision of the spec)' }) : null,
    l.note ? el('div', { class: 'label-note', testid: `${testid}-note`, text: inertText(l.note) + (l.noteCut ? '\u2026 (cut)' : '') }) : null,
    l.evidence.length > 0 ? renderEvidenceList(rc, l.evidence) : null,
  );
}

function renderOthers(rc: ReviewController, r: ReviewView, c: ReviewCellView): HTMLElement {
  const box = el('div', { class: 'review-others', testid: 'review-others' });
  if (r.othersHidden) {
    box.append(el('div', { class: 'muted small', testid: 'review-blind', text: 'Blind mode: other curators\u2019 labels on this task are hidden until you submit your review (Decision tab, or Enter in review mode).' }));
  }
  if (c.others.length > 0) {
    box.append(el('div', { class: 'section-title small', text: 'Other curators' }));
    for (const l of c.others) box.append(renderLabel(rc, l, 'other-label'));
  }
  if (c.stale.length > 0) {
    box.append(el('div', { class: 'section-title small', text: 'Labels on an older revision' }));
    for (const l of c.stale) box.append(renderLabel(rc, l, 'stale-label'));
  }
  return box;
}

function renderSuggestions(rc: ReviewController, r: ReviewView): HTMLElement {
  const box = el('section', { class: 'review-suggestions', testid: 'review-suggestions' });
  box.append(el('div', { class: 'section-title', text: `Suggestions from the verifier (${r.counts.openSuggestions} open)` }));
  if (r.suggestions.length === 0) {
    box.append(el('p', { class: 'muted small', text: 'No oracle-probe flags for this task (run the verifier with the gold and empty probes to get them).' }));
    return box;
  }
  box.append(el('p', { class: 'muted small', text: 'Oracle-probe flags are suggestions, never labels: confirm one to count it (a confirmed suspect false positive or negative blocks approval), or dismiss it.' }));
  const disabled = !r.viewer || r.status === 'approved' || r.status === 'rejected';
  for (const s of r.suggestions.slice(0, 100)) box.append(renderSuggestion(rc, s, disabled));
  if (r.suggestions.length > 100) box.append(el('p', { class: 'muted small', text: `${r.suggestions.length - 100} more suggestions (see specweave log).` }));
  return box;
}

function renderSuggestion(rc: ReviewController, s: SuggestionView, disabled: boolean): HTMLElement {
  const row = el('div', { class: `suggestion${s.open ? ' open' : ''}`, testid: 'suggestion', data: { suggestion: s.id, kind: s.kind } });
  row.append(
    el(
      'div',
      { class: 'suggestion-head' },
      badge(s.kind.replace(/_/g, ' '), 'suggestion-kind'),
      s.suspect ? el('span', { class: `mark outcome-${s.suspect}`, text: s.suspect === 'false_positive' ? 'suspect FP' : 'suspect FN' }) : null,
      el('span', { class: 'suggestion-message', text: ` ${oneLine(s.message, 400)}` }),
    ),
  );
  const where = [s.attempt ? `attempt ${s.attempt}` : '', s.spec ? `spec ${s.spec}` : '', s.test ? `test ${s.test}` : ''].filter(Boolean).join(' · ');
  if (where) row.append(el('div', { class: 'muted small', text: oneLine(where, 300) }));
  const actions = el('div', { class: 'suggestion-actions' });
  if (s.decision) {
    actions.append(el('span', { class: `decision decision-${s.decision.decision}`, testid: 'suggestion-decision', text: `${s.decision.decision} by ${oneLine(s.decision.curator, 60)}` }));
    if (s.decision.note) actions.append(el('span', { class: 'muted small', text: ` — ${oneLine(s.decision.note, 200)}` }));
  }
  const decide = (decision: 'confirmed' | 'dismissed') => () => void rc.act('decideSuggestion', { suggestion: s.id, decision }, decision === 'confirmed' ? 'Confirmed' : 'Dismissed');
  if (!s.decision || s.decision.decision !== 'confirmed') actions.append(button('Confirm', decide('confirmed'), { testid: 'suggestion-confirm', secondary: true, disabled, title: 'This flag is a real finding' }));
  if (!s.decision || s.decision.decision !== 'dismissed') actions.append(button('Dismiss', decide('dismissed'), { testid: 'suggestion-dismiss', secondary: true, disabled, title: 'This flag is not a problem' }));
  row.append(actions);
  return row;
}
