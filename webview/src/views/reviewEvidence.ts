// Evidence links on a label: chips that open the place they point at (a trajectory step, a test, a log line, a diff
// hunk, a spec), and the editor that adds or removes links on the focused pair's draft (lit-html templates).
import { html, nothing, type TemplateResult } from 'lit-html';
import type { EvidenceLinkView, ReviewCellView } from '../../../src/protocol/messages';
import { oneLine } from '../text';
import { selectValue, vsButton, vsSelect } from '../ui/controls';
import type { ReviewController } from './reviewController';
import { evidenceKey, evidenceText, pairKey } from './reviewModel';

/** Enter and Space act like a click on an element that acts as a button. */
function onKeyActivate(fn: (e: Event) => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      fn(e);
    }
  };
}

export function evidenceList(rc: ReviewController, links: readonly EvidenceLinkView[], onRemove?: (l: EvidenceLinkView) => void): TemplateResult {
  return html`<div class="chips evidence-chips" data-testid="evidence-list">
    ${links.slice(0, 50).map((l) => {
      const follow = (): void => rc.follow(l);
      const remove = (e: Event): void => {
        e.stopPropagation();
        onRemove?.(l);
      };
      return html`<span
          class="chip evidence-chip"
          data-testid="evidence-link"
          role="button"
          tabindex="0"
          data-kind=${l.kind}
          title=${oneLine(`Open ${evidenceText(l)}`, 500)}
          @click=${follow}
          @keydown=${onKeyActivate(follow)}
          >${oneLine(evidenceText(l), 80)}</span
        >${onRemove
          ? html`<span
              class="chip-remove"
              data-testid="evidence-remove"
              role="button"
              tabindex="0"
              title="Remove this link"
              aria-label=${oneLine(`Remove ${evidenceText(l)}`, 200)}
              @click=${remove}
              @keydown=${onKeyActivate(remove)}
              >×</span
            >`
          : nothing}`;
    })}
    ${links.length > 50 ? html`<span class="muted small">${links.length - 50} more</span>` : nothing}
  </div>`;
}

/** Kinds a curator adds by hand (a finding link comes from accepting the finding). */
type Kind = Exclude<EvidenceLinkView['kind'], 'finding'>;
const KINDS: ReadonlyArray<{ value: Kind; label: string }> = [
  { value: 'trajectory_step', label: 'trajectory step' },
  { value: 'test', label: 'test' },
  { value: 'spec', label: 'spec' },
  { value: 'diff_hunk', label: 'diff hunk' },
  { value: 'log_line', label: 'log line' },
];

const numberInput = (value: number, min: number, testid: string, label: string): TemplateResult =>
  html`<input type="number" min=${String(min)} step="1" class="evidence-number" data-testid=${testid} aria-label=${label} .value=${String(value)} />`;

/** A number field that starts empty: a link is never made from a number nobody chose. */
const emptyNumberInput = (min: number, testid: string, label: string): TemplateResult =>
  html`<input type="number" min=${String(min)} step="1" class="evidence-number" data-testid=${testid} aria-label=${label} placeholder=${label} />`;

const textInput = (value: string, testid: string, label: string): TemplateResult =>
  html`<input type="text" class="evidence-text" data-testid=${testid} placeholder=${label} aria-label=${label} .value=${value} />`;

/** What the adder's inputs say, read at the click: a link, or why there is none. */
function readLink(rc: ReviewController, c: ReviewCellView, box: Element | null): EvidenceLinkView | string {
  const v = (testid: string): string => selectValue(box?.querySelector(`[data-testid="${testid}"]`));
  const isIndex = (x: string, min: number): boolean => x.trim() !== '' && Number.isInteger(Number(x)) && Number(x) >= min;
  switch (rc.adderKind) {
    case 'trajectory_step': {
      const n = v('evidence-step');
      return isIndex(n, 0) ? { kind: 'trajectory_step', attempt: c.attempt, step: Number(n) } : 'the step must be a number';
    }
    case 'test': {
      const t = v('evidence-test');
      return t ? { kind: 'test', test: t } : 'the task has no tests';
    }
    case 'spec': {
      const s = v('evidence-spec');
      return s ? { kind: 'spec', spec: s } : 'choose a spec';
    }
    case 'diff_hunk': {
      const file = v('evidence-file').trim();
      const hunk = v('evidence-hunk');
      if (file === '') return 'choose the file';
      if (!isIndex(hunk, 0)) return 'choose the hunk';
      const patch = (v('evidence-patch') || 'attempt') as 'attempt' | 'gold' | 'tests';
      return { kind: 'diff_hunk', patch, ...(patch === 'attempt' ? { attempt: c.attempt } : {}), file, hunk: Number(hunk) };
    }
    case 'log_line': {
      const run = v('evidence-run').trim();
      const line = v('evidence-line');
      if (run === '') return 'name the verifier run';
      if (!isIndex(line, 1)) return 'give the line (a number from 1)';
      return { kind: 'log_line', run, line: Number(line), ...(v('evidence-stream') === 'stderr' ? { stream: 'stderr' as const } : {}) };
    }
  }
}

function adderInputs(rc: ReviewController, c: ReviewCellView): TemplateResult {
  const m = rc.ctx.model();
  switch (rc.adderKind) {
    case 'trajectory_step': {
      const selected = rc.ctx.state().selectedStep[c.attempt];
      return html`<span class="muted small">step of ${oneLine(c.attempt, 40)}</span>${selected !== undefined ? numberInput(selected, 0, 'evidence-step', 'step number') : emptyNumberInput(0, 'evidence-step', 'step number')}${selected !== undefined
          ? html`<span class="muted small"> (the step selected in the trajectory)</span>`
          : nothing}`;
    }
    case 'test': {
      const tests = m.tests.map((t) => ({ value: t.id, label: oneLine(`${t.id} ${t.name}`, 80) }));
      const covering = m.specs.find((s) => s.id === c.spec)?.tests[0];
      return vsSelect(tests, covering ?? tests[0]?.value, 'evidence-test');
    }
    case 'spec':
      return vsSelect(
        m.specs.map((x) => ({ value: x.id, label: oneLine(`${x.id} ${x.text}`, 80) })),
        c.spec,
        'evidence-spec',
      );
    case 'diff_hunk': {
      const patches = [
        { value: 'attempt', label: `patch of ${oneLine(c.attempt, 40)}` },
        ...(m.columns.some((x) => x.id === 'gold') ? [{ value: 'gold', label: 'gold patch' }] : []),
        { value: 'tests', label: 'test patch' },
      ];
      const patch = rc.adderPatch;
      const choose = (p: Partial<{ patch: typeof rc.adderPatch; file: string }>): void => {
        if (p.patch !== undefined && p.patch !== rc.adderPatch) {
          rc.adderPatch = p.patch;
          rc.adderFile = '';
        }
        if (p.file !== undefined) rc.adderFile = p.file;
        rc.rerender();
      };
      const column = patch === 'tests' ? undefined : m.columns.find((x) => x.id === (patch === 'gold' ? 'gold' : c.attempt));
      const picker = vsSelect(patches, patch, 'evidence-patch', (v) => choose({ patch: v as typeof rc.adderPatch }));
      // The test patch's files are not in the model: its file is typed, its hunk counted. A column's are chosen.
      if (!column) {
        return html`${picker}${textInput(rc.adderFile, 'evidence-file', 'file path')}<span class="muted small">hunk</span>${emptyNumberInput(0, 'evidence-hunk', 'hunk (0 = first)')}`;
      }
      const files = [{ value: '', label: 'choose a file\u2026' }, ...column.files.slice(0, 500).map((f) => ({ value: f.path, label: oneLine(f.path, 80) }))];
      const file = column.files.find((f) => f.path === rc.adderFile);
      const hunks = file?.hunks ?? [];
      const hunkChoice = !file
        ? nothing
        : hunks.length > 0
          ? vsSelect([{ value: '', label: 'choose a hunk\u2026' }, ...hunks.map((h, i) => ({ value: String(i), label: oneLine(`${i + 1}. ${h}`, 90) }))], '', 'evidence-hunk')
          : html`<span class="muted small">hunk</span>${emptyNumberInput(0, 'evidence-hunk', 'hunk (0 = first)')}`;
      return html`${picker}${vsSelect(files, rc.adderFile, 'evidence-file', (v) => choose({ file: v }))}${hunkChoice}`;
    }
    case 'log_line': {
      const run = rc.review?.attempts.find((a) => a.id === c.attempt)?.verifier;
      return html`${textInput(run?.source === 'run' ? run.runId : '', 'evidence-run', 'verifier run id')}<span class="muted small">line</span>${emptyNumberInput(1, 'evidence-line', 'line (from 1)')}${vsSelect(
          [
            { value: 'stdout', label: 'stdout' },
            { value: 'stderr', label: 'stderr' },
          ],
          'stdout',
          'evidence-stream',
        )}`;
    }
  }
}

/** The draft's links (removable) and a row to add one; changes stay in the draft until the label is recorded. */
export function evidenceEditor(rc: ReviewController, c: ReviewCellView, disabled: boolean): TemplateResult {
  const key = pairKey(c);
  const links = rc.drafts.evidenceOf(c);
  const set = (next: EvidenceLinkView[]): void => {
    rc.drafts.evidence.set(key, next);
    rc.rerender();
  };
  const add = (): void => {
    const link = readLink(rc, c, document.querySelector('[data-testid="evidence-editor"] .evidence-adder'));
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
  };
  return html`<div class="evidence-editor" data-testid="evidence-editor">
    <span class="muted small">${links.length > 0 ? 'Evidence: ' : 'No evidence linked. '}</span>${links.length > 0
      ? evidenceList(rc, links, disabled ? undefined : (l) => set(links.filter((x) => evidenceKey(x) !== evidenceKey(l))))
      : nothing}${disabled
      ? nothing
      : html`<div class="evidence-adder">
          <span class="muted small">Link </span>${vsSelect(KINDS, rc.adderKind, 'evidence-kind', (v) => {
            rc.adderKind = v as Kind;
            rc.rerender();
          })}<span class="evidence-inputs">${adderInputs(rc, c)}</span>${vsButton('Link', add, {
            testid: 'evidence-add',
            secondary: true,
            title: 'Add this link to the label (recorded with the verdict, or with "Save note and evidence")',
          })}
        </div>`}
  </div>`;
}
