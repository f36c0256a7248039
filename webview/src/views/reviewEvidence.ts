// Evidence links on a label: chips that open the place they point at (a trajectory step, a test, a log line, a diff
// hunk, a spec), and the editor that adds or removes links on the focused pair's draft.
import type { EvidenceLinkView, ReviewCellView } from '../../../src/protocol/messages';
import { el, onActivate } from '../dom';
import { oneLine } from '../text';
import { button, select } from '../ui/controls';
import type { ReviewController } from './reviewController';
import { evidenceKey, evidenceText, pairKey } from './reviewModel';

export function renderEvidenceList(rc: ReviewController, links: readonly EvidenceLinkView[], onRemove?: (l: EvidenceLinkView) => void): HTMLElement {
  const chips = el('div', { class: 'chips evidence-chips', testid: 'evidence-list' });
  for (const l of links.slice(0, 50)) {
    const chip = el('span', { class: 'chip evidence-chip', testid: 'evidence-link', role: 'button', tabIndex: 0, data: { kind: l.kind }, title: `Open ${evidenceText(l)}`, text: oneLine(evidenceText(l), 80) });
    onActivate(chip, () => rc.follow(l));
    chips.append(chip);
    if (onRemove) {
      const x = el('span', { class: 'chip-remove', testid: 'evidence-remove', role: 'button', tabIndex: 0, title: 'Remove this link', ariaLabel: `Remove ${evidenceText(l)}`, text: '\u00d7' });
      onActivate(x, (e) => {
        e.stopPropagation();
        onRemove(l);
      });
      chips.append(x);
    }
  }
  if (links.length > 50) chips.append(el('span', { class: 'muted small', text: `${links.length - 50} more` }));
  return chips;
}

type Kind = EvidenceLinkView['kind'];
const KINDS: ReadonlyArray<{ value: Kind; label: string }> = [
  { value: 'trajectory_step', label: 'trajectory step' },
  { value: 'test', label: 'test' },
  { value: 'spec', label: 'spec' },
  { value: 'diff_hunk', label: 'diff hunk' },
  { value: 'log_line', label: 'log line' },
];

/** Remembered across re-renders: which kind the adder shows. */
let adderKind: Kind = 'trajectory_step';

function numberInput(value: number, min: number, testid: string, label: string): HTMLInputElement {
  const i = document.createElement('input');
  i.type = 'number';
  i.min = String(min);
  i.step = '1';
  i.value = String(value);
  i.className = 'evidence-number';
  i.dataset.testid = testid;
  i.setAttribute('aria-label', label);
  return i;
}

function textInput(value: string, testid: string, label: string): HTMLInputElement {
  const i = document.createElement('input');
  i.type = 'text';
  i.value = value;
  i.className = 'evidence-text';
  i.dataset.testid = testid;
  i.placeholder = label;
  i.setAttribute('aria-label', label);
  return i;
}

/** The draft's links (removable) and a row to add one; changes stay in the draft until the label is recorded. */
export function renderEvidenceEditor(rc: ReviewController, c: ReviewCellView, disabled: boolean, changed: () => void): HTMLElement {
  const key = pairKey(c);
  const links = rc.drafts.evidenceOf(c);
  const set = (next: EvidenceLinkView[]) => {
    rc.drafts.evidence.set(key, next);
    changed();
  };
  const box = el('div', { class: 'evidence-editor', testid: 'evidence-editor' });
  box.append(el('span', { class: 'muted small', text: links.length > 0 ? 'Evidence: ' : 'No evidence linked. ' }));
  if (links.length > 0) box.append(renderEvidenceList(rc, links, disabled ? undefined : (l) => set(links.filter((x) => evidenceKey(x) !== evidenceKey(l)))));
  if (disabled) return box;

  const m = rc.ctx.model();
  const r = rc.review;
  const inputs = el('span', { class: 'evidence-inputs' });
  let read: () => EvidenceLinkView | string = () => 'choose what to link';
  const build = () => {
    inputs.replaceChildren();
    switch (adderKind) {
      case 'trajectory_step': {
        const selected = rc.ctx.state().selectedStep[c.attempt];
        const n = numberInput(selected ?? 0, 0, 'evidence-step', 'step number');
        inputs.append(el('span', { class: 'muted small', text: `step of ${oneLine(c.attempt, 40)}` }), n);
        if (selected !== undefined) inputs.append(el('span', { class: 'muted small', text: ' (the step selected in the trajectory)' }));
        read = () => (Number.isInteger(Number(n.value)) && Number(n.value) >= 0 ? { kind: 'trajectory_step', attempt: c.attempt, step: Number(n.value) } : 'the step must be a number');
        break;
      }
      case 'test': {
        const tests = m.tests.map((t) => ({ value: t.id, label: oneLine(`${t.id} ${t.name}`, 80) }));
        const covering = m.specs.find((s) => s.id === c.spec)?.tests[0];
        const s = select(tests, covering ?? tests[0]?.value, 'evidence-test', () => undefined);
        inputs.append(s.element);
        read = () => (s.value ? { kind: 'test', test: s.value } : 'the task has no tests');
        break;
      }
      case 'spec': {
        const s = select(
          m.specs.map((x) => ({ value: x.id, label: oneLine(`${x.id} ${x.text}`, 80) })),
          c.spec,
          'evidence-spec',
          () => undefined,
        );
        inputs.append(s.element);
        read = () => (s.value ? { kind: 'spec', spec: s.value } : 'choose a spec');
        break;
      }
      case 'diff_hunk': {
        const patches = [
          { value: 'attempt', label: `patch of ${oneLine(c.attempt, 40)}` },
          ...(m.columns.some((x) => x.id === 'gold') ? [{ value: 'gold', label: 'gold patch' }] : []),
          { value: 'tests', label: 'test patch' },
        ];
        const p = select(patches, 'attempt', 'evidence-patch', () => undefined);
        const firstFile = m.columns.find((x) => x.id === c.attempt)?.files[0]?.path ?? '';
        const f = textInput(firstFile, 'evidence-file', 'file path');
        const h = numberInput(0, 0, 'evidence-hunk', 'hunk (0 = first)');
        inputs.append(p.element, f, el('span', { class: 'muted small', text: 'hunk' }), h);
        read = () => {
          if (f.value.trim() === '') return 'name the file';
          if (!(Number.isInteger(Number(h.value)) && Number(h.value) >= 0)) return 'the hunk must be a number (0 = first)';
          const patch = p.value as 'attempt' | 'gold' | 'tests';
          return { kind: 'diff_hunk', patch, ...(patch === 'attempt' ? { attempt: c.attempt } : {}), file: f.value.trim(), hunk: Number(h.value) };
        };
        break;
      }
      case 'log_line': {
        const run = r?.attempts.find((a) => a.id === c.attempt)?.verifier;
        const id = textInput(run?.source === 'run' ? run.runId : '', 'evidence-run', 'verifier run id');
        const line = numberInput(1, 1, 'evidence-line', 'line');
        const stream = select(
          [
            { value: 'stdout', label: 'stdout' },
            { value: 'stderr', label: 'stderr' },
          ],
          'stdout',
          'evidence-stream',
          () => undefined,
        );
        inputs.append(id, el('span', { class: 'muted small', text: 'line' }), line, stream.element);
        read = () => {
          if (id.value.trim() === '') return 'name the verifier run';
          if (!(Number.isInteger(Number(line.value)) && Number(line.value) >= 1)) return 'the line must be a number from 1';
          return { kind: 'log_line', run: id.value.trim(), line: Number(line.value), ...(stream.value === 'stderr' ? { stream: 'stderr' as const } : {}) };
        };
        break;
      }
    }
  };
  const kind = select(KINDS, adderKind, 'evidence-kind', (v) => {
    adderKind = v as Kind;
    build();
  });
  build();
  const add = button(
    'Link',
    () => {
      const link = read();
      if (typeof link === 'string') {
        rc.ctx.status(`Cannot link it: ${link}.`, true);
        return;
      }
      if (links.some((x) => evidenceKey(x) === evidenceKey(link))) {
        rc.ctx.status('That link is already there.');
        return;
      }
      set([...links, link]);
      rc.ctx.status(`Linked ${evidenceText(link)}${rc.review && rc.review.cells.find((x) => pairKey(x) === key)?.mine ? ': save to record it' : ': choose a verdict to record it'}.`);
    },
    { testid: 'evidence-add', secondary: true, title: 'Add this link to the label (recorded with the verdict, or with "Save note and evidence")' },
  );
  box.append(el('div', { class: 'evidence-adder' }, el('span', { class: 'muted small', text: 'Link ' }), kind.element, inputs, add));
  return box;
}
