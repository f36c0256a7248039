// The attempts region: one column per attempt and one for the gold patch, each with its changed files and their
// change counts. A file opens the native diff; the compare button opens the same file of another column against it.
import type { ColumnView, FileChangeView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { clear, el, toggleClass } from '../dom';
import { formatCost, oneLine } from '../text';
import { badge, button, select } from '../ui/controls';

/** File rows per column before "show all": ten attempts of patches touching hundreds of files stay a small DOM. */
const FIRST_FILES = 8;
const STATUS_LETTER: Record<FileChangeView['status'], string> = { modified: 'M', added: 'A', deleted: 'D', renamed: 'R', binary: 'B' };

export class ColumnsView {
  readonly element = el('div', { class: 'attempts', testid: 'attempts' });
  private cards = new Map<string, HTMLElement>();

  constructor(private readonly ctx: Ctx) {}

  render(): void {
    const m = this.ctx.model();
    const s = this.ctx.state();
    clear(this.element);
    this.cards.clear();
    const compare = select(
      m.columns.map((c) => ({ value: c.id, label: oneLine(c.label, 60) })),
      s.compareWith,
      'compare-with',
      (v) => {
        this.ctx.setState({ compareWith: v });
        this.render();
      },
    );
    this.element.append(
      el('div', { class: 'toolbar' }, el('span', { class: 'muted', text: 'Compare files with' }), compare.element),
    );
    const row = el('div', { class: 'columns', testid: 'columns' });
    for (const c of m.columns) {
      const card = this.card(c, s.compareWith);
      this.cards.set(c.id, card);
      row.append(card);
    }
    if (m.columns.length === 0) row.append(el('p', { class: 'muted', text: 'No gold patch and no attempts.' }));
    this.element.append(row);
    this.setActive(s.activeColumn);
  }

  setActive(id: string | undefined): void {
    for (const [cid, card] of this.cards) toggleClass(card, 'active', cid === id);
    const card = id === undefined ? undefined : this.cards.get(id);
    card?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  /** Marks the file the "open diff" key opens. */
  setSelectedFile(column: string, path: string): void {
    const card = this.cards.get(column);
    if (!card) return;
    for (const row of card.querySelectorAll<HTMLElement>('.file-row')) toggleClass(row, 'selected', row.dataset.path === path);
  }

  private card(c: ColumnView, compareWith: string | undefined): HTMLElement {
    const adds = c.files.reduce((n, f) => n + f.additions, 0);
    const dels = c.files.reduce((n, f) => n + f.deletions, 0);
    const meta = [c.model, c.agent, c.costUsd !== undefined ? formatCost(c.costUsd) : undefined, c.claimed ? `claims: ${c.claimed}` : undefined]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .map((x) => oneLine(x, 80))
      .join(' · ');
    const head = el(
      'div',
      { class: 'column-head', role: 'button', tabIndex: 0, title: 'Make this the active column' },
      el('span', { class: 'column-label', text: oneLine(c.label, 80) }),
      c.verdict ? badge(oneLine(c.verdict, 60), 'column-verdict') : null,
      meta ? el('div', { class: 'muted small', text: meta }) : null,
      el('div', { class: 'small', testid: 'column-totals' }, `${c.files.length} file${c.files.length === 1 ? '' : 's'} `, el('span', { class: 'adds', text: `+${adds}` }), ' ', el('span', { class: 'dels', text: `\u2212${dels}` })),
    );
    const activate = () => this.ctx.actions.activateColumn(c.id);
    head.addEventListener('click', activate);
    head.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        activate();
      }
    });
    const card = el('div', { class: 'column', testid: `column-${c.id}`, data: { column: c.id } }, head);
    card.append(el('div', { class: 'column-actions' }, button('Patch', () => this.ctx.actions.openPatch(c.id), { secondary: true, testid: 'open-patch', title: 'Open the whole patch as text' })));
    if (c.patchError) card.append(el('div', { class: 'error small', testid: 'patch-error', text: oneLine(c.patchError, 500) }));
    const files = el('div', { class: 'files', role: 'list' });
    const selected = this.ctx.state().selectedFile[c.id] ?? c.files[0]?.path;
    const showFiles = (n: number) => {
      clear(files);
      for (const f of c.files.slice(0, n)) files.append(this.fileRow(c, f, compareWith, f.path === selected));
      if (c.files.length > n) {
        const more = el('button', { class: 'link-button', testid: 'files-show-all', text: `Show all ${c.files.length} files` });
        more.addEventListener('click', () => showFiles(c.files.length));
        files.append(more);
      }
    };
    showFiles(FIRST_FILES);
    if (c.files.length === 0 && !c.patchError) files.append(el('div', { class: 'muted small', text: 'No changed files.' }));
    card.append(files);
    if (c.trajectoryError) card.append(el('div', { class: 'error small', testid: 'trajectory-error', text: oneLine(c.trajectoryError, 500) }));
    return card;
  }

  private fileRow(c: ColumnView, f: FileChangeView, compareWith: string | undefined, selected: boolean): HTMLElement {
    const open = () => {
      this.ctx.actions.selectFile(c.id, f.path);
      this.ctx.actions.openDiff(c.id, f.path);
    };
    const row = el(
      'div',
      {
        class: `file-row st-${f.status}${selected ? ' selected' : ''}`,
        testid: 'file-row',
        // The status letter is drawn by CSS from data-status: one element less per row.
        data: { column: c.id, path: f.path, status: STATUS_LETTER[f.status] ?? '?' },
        role: 'listitem',
        tabIndex: 0,
        title: `${f.path} (${f.status}): open the diff`,
      },
      el('span', { class: 'file-path', text: oneLine(f.path, 300) }),
      el('span', { class: 'adds', text: `+${f.additions}` }),
      el('span', { class: 'dels', text: `\u2212${f.deletions}` }),
    );
    row.addEventListener('click', open);
    row.addEventListener('focus', () => this.ctx.actions.selectFile(c.id, f.path));
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        open();
      }
    });
    if (compareWith !== undefined && compareWith !== c.id) {
      const other = this.ctx.model().columns.find((x) => x.id === compareWith);
      const cmp = el('button', { class: 'icon-button', testid: 'compare-file', text: '\u21c4', title: `Compare with ${other?.label ?? compareWith}`, ariaLabel: `Compare ${f.path} with ${other?.label ?? compareWith}` });
      cmp.addEventListener('click', (e) => {
        e.stopPropagation();
        this.ctx.actions.compareColumns(compareWith, c.id, f.path);
      });
      row.append(cmp);
    }
    return row;
  }
}
