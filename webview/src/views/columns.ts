// The attempts region: one column per attempt and one for the gold patch, each with its changed files and their
// change counts. A file opens the native diff; the compare button opens the same file of another column against it.
// A lit-html template: the active column, the selected file and "compare with" are part of it, so changing any of
// them (or a push) patches the cards instead of rebuilding them.
// When the full cards do not fit side by side (many attempts, a narrow editor group) or the curator asks for it, the
// cards turn compact: a grid of small cards (label, verdict, change counts) that all stay in view, and the active
// column's full card (its files, Patch) below it.
import { html, nothing, type TemplateResult } from 'lit-html';
import { repeat } from 'lit-html/directives/repeat.js';
import type { ColumnView, FileChangeView } from '../../../src/protocol/messages';
import type { Ctx } from '../context';
import { formatCost, oneLine } from '../text';
import { vsBadge, vsButton, vsCheckbox, vsSelect } from '../ui/controls';
import { uniqueKeys } from '../ui/template';
import type { CompactMode } from '../state';
import './layout.css';

/** File rows per column before "show all": ten attempts of patches touching hundreds of files stay a small DOM. */
const FIRST_FILES = 8;
const STATUS_LETTER: Record<FileChangeView['status'], string> = { modified: 'M', added: 'A', deleted: 'D', renamed: 'R', binary: 'B' };
/** The narrowest a full card gets, and the gap between cards (layout.css says the same). */
const FULL_CARD_MIN_PX = 180;
const CARD_GAP_PX = 8;
const SCROLLBAR_PX = 14;

/** Whether `count` full cards would not fit side by side in `width` pixels (unknown width: they fit). */
export function needsCompact(mode: CompactMode, count: number, width: number | undefined): boolean {
  if (mode === 'on') return true;
  if (width === undefined || width <= 0) return false;
  return count * (FULL_CARD_MIN_PX + CARD_GAP_PX) - CARD_GAP_PX > width;
}

export class ColumnsView {
  /** Columns whose files are all shown. */
  private readonly allFiles = new Set<string>();
  /** The width the cards have (the region's), followed by a ResizeObserver; undefined until measured. */
  private width: number | undefined;
  private observer: ResizeObserver | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly repaint: () => void,
  ) {}

  /** Follows the width of `box` (the region's body): the cards turn compact when the full ones stop fitting. */
  watch(box: HTMLElement): void {
    if (this.observer) return;
    this.observer = new ResizeObserver(() => {
      const before = this.compact();
      // The box's outer width less its padding and room for a scrollbar: whether a scrollbar shows (which a change of
      // form can cause) never flips the form back.
      this.width = box.getBoundingClientRect().width - paddingX(box) - SCROLLBAR_PX;
      // Next frame: a repaint inside the observer's callback would resize what it observes within the same frame.
      if (this.compact() !== before) requestAnimationFrame(() => this.repaint());
    });
    this.observer.observe(box);
  }

  dispose(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }

  private compact(): boolean {
    return needsCompact(this.ctx.state().compactAttempts, this.ctx.model().columns.length, this.width);
  }

  /** Scrolls the active column's card into view (the active column changed). */
  reveal(container: HTMLElement | null): void {
    const id = this.ctx.state().activeColumn;
    if (id === undefined || !container) return;
    // The compact card first: in compact mode it is the one among all the attempts.
    [...container.querySelectorAll<HTMLElement>('.attempt-card, .column')].find((c) => c.dataset.column === id)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  template(): TemplateResult {
    const m = this.ctx.model();
    const s = this.ctx.state();
    const compact = this.compact();
    const active = compact ? m.columns.find((c) => c.id === s.activeColumn) : undefined;
    const toggle = (): void => {
      this.ctx.setState({ compactAttempts: s.compactAttempts === 'on' ? 'auto' : 'on' });
      this.repaint();
    };
    return html`<div class=${compact ? 'attempts compact' : 'attempts'} data-testid="attempts" data-compact=${compact ? 'true' : 'false'}>
      <div class="toolbar">
        <span class="muted">Compare files with</span>${vsSelect(
          m.columns.map((c) => ({ value: c.id, label: oneLine(c.label, 60) })),
          s.compareWith,
          'compare-with',
          (v) => {
            this.ctx.setState({ compareWith: v });
            this.repaint();
          },
        )}<button
          class="toggle compact-toggle"
          data-testid="compact-toggle"
          aria-pressed=${s.compactAttempts === 'on' ? 'true' : 'false'}
          title=${s.compactAttempts === 'on'
            ? 'Compact cards always; click for auto (compact only when the full cards do not fit side by side)'
            : 'Compact cards when the full cards do not fit side by side; click for compact always'}
          @click=${toggle}
        >${s.compactAttempts === 'on' ? 'Compact: on' : 'Compact: auto'}</button>
      </div>
      ${compact
        ? html`<div class="attempt-cards" data-testid="attempt-cards">
              ${repeat(
                m.columns,
                uniqueKeys(m.columns, (c) => c.id),
                (c) => this.compactCard(c, c.id === s.activeColumn),
              )}
            </div>
            <div class="columns column-detail" data-testid="columns">${active ? this.card(active, s.compareWith, true) : nothing}</div>`
        : html`<div class="columns" data-testid="columns">
            ${repeat(
              m.columns,
              uniqueKeys(m.columns, (c) => c.id),
              (c) => this.card(c, s.compareWith, c.id === s.activeColumn),
            )}
          </div>`}${m.columns.length === 0 ? html`<p class="muted">No gold patch and no attempts.</p>` : nothing}
    </div>`;
  }

  /** The dense form: label, verdict (its first word; the whole on hover) and change counts. */
  private compactCard(c: ColumnView, active: boolean): TemplateResult {
    const adds = c.files.reduce((n, f) => n + f.additions, 0);
    const dels = c.files.reduce((n, f) => n + f.deletions, 0);
    const verdict = c.verdict ? oneLine(c.verdict, 60) : undefined;
    const problem = c.patchError ?? c.trajectoryError;
    const activate = (): void => this.ctx.actions.activateColumn(c.id);
    const title = [oneLine(c.label, 200), verdict, `${c.files.length} file${c.files.length === 1 ? '' : 's'} +${adds} \u2212${dels}`, problem ? oneLine(problem, 300) : undefined]
      .filter((x): x is string => x !== undefined)
      .join('\n');
    return html`<div
      class=${active ? 'attempt-card active' : 'attempt-card'}
      data-testid="attempt-card"
      data-column=${c.id}
      role="button"
      tabindex="0"
      aria-current=${active ? 'true' : 'false'}
      title=${title}
      @click=${activate}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          activate();
        }
      }}
    >
      <span class="attempt-card-label">${oneLine(c.label, 80)}</span>
      <span class="attempt-card-stats"
        >${verdict ? html`<span class="attempt-card-verdict" data-testid="attempt-card-verdict">${verdict.split(' ')[0]}</span>` : problem ? html`<span class="attempt-card-verdict error">error</span>` : nothing}<span
          class="adds"
          >${`+${adds}`}</span
        ><span class="dels">${`\u2212${dels}`}</span></span
      >
    </div>`;
  }

  private card(c: ColumnView, compareWith: string | undefined, active: boolean): TemplateResult {
    const adds = c.files.reduce((n, f) => n + f.additions, 0);
    const dels = c.files.reduce((n, f) => n + f.deletions, 0);
    const meta = [c.model, c.agent, c.costUsd !== undefined ? formatCost(c.costUsd) : undefined, c.claimed ? `claims: ${c.claimed}` : undefined]
      .filter((x): x is string => typeof x === 'string' && x !== '')
      .map((x) => oneLine(x, 80))
      .join(' · ');
    const activate = (): void => this.ctx.actions.activateColumn(c.id);
    const selected = this.ctx.state().selectedFile[c.id] ?? c.files[0]?.path;
    const all = this.allFiles.has(c.id);
    const files = all ? c.files : c.files.slice(0, FIRST_FILES);
    const viewed = this.ctx.model().viewed;
    const viewedCol = viewed?.columns.includes(c.id) ?? false;
    const viewedPaths = new Set(viewed?.files.filter((f) => f.column === c.id).map((f) => f.path));
    const viewedFiles = c.files.filter((f) => viewedPaths.has(f.path)).length;
    return html`<div class=${active ? 'column active' : 'column'} data-testid=${`column-${c.id}`} data-column=${c.id}>
      <div
        class="column-head"
        role="button"
        tabindex="0"
        title="Make this the active column"
        @click=${activate}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            activate();
          }
        }}
      >
        <span class="column-label">${oneLine(c.label, 80)}</span>${c.verdict ? vsBadge(oneLine(c.verdict, 60), 'column-verdict') : nothing}${meta
          ? html`<div class="muted small">${meta}</div>`
          : nothing}
        <div class="small" data-testid="column-totals">${`${c.files.length} file${c.files.length === 1 ? '' : 's'} `}<span class="adds">${`+${adds}`}</span> <span class="dels"
            >${`\u2212${dels}`}</span
          ></div>
      </div>
      <div class="column-actions">${vsButton('Patch', () => this.ctx.actions.openPatch(c.id), { secondary: true, testid: 'open-patch', title: 'Open the whole patch as text' })}${c.files.length > 0
          ? vsCheckbox(`Viewed${viewedFiles > 0 && !viewedCol ? ` (${viewedFiles}/${c.files.length} files)` : ''}`, viewedCol, 'column-viewed', (on) => this.ctx.actions.setViewed(c.id, undefined, on))
          : nothing}</div>
      ${c.patchError ? html`<div class="error small" data-testid="patch-error">${oneLine(c.patchError, 500)}</div>` : nothing}
      <div class="files" role="list">
        ${repeat(
          files,
          uniqueKeys(files, (f) => f.path),
          (f) => this.fileRow(c, f, compareWith, f.path === selected, viewedPaths.has(f.path)),
        )}${c.files.length > files.length
          ? html`<button
              class="link-button"
              data-testid="files-show-all"
              @click=${() => {
                this.allFiles.add(c.id);
                this.repaint();
              }}
            >${`Show all ${c.files.length} files`}</button>`
          : nothing}${c.files.length === 0 && !c.patchError ? html`<div class="muted small">No changed files.</div>` : nothing}
      </div>
      ${c.trajectoryError ? html`<div class="error small" data-testid="trajectory-error">${oneLine(c.trajectoryError, 500)}</div>` : nothing}
    </div>`;
  }

  private fileRow(c: ColumnView, f: FileChangeView, compareWith: string | undefined, selected: boolean, viewed: boolean): TemplateResult {
    const open = (): void => {
      this.ctx.actions.selectFile(c.id, f.path);
      this.ctx.actions.openDiff(c.id, f.path);
    };
    const other = compareWith !== undefined && compareWith !== c.id ? this.ctx.model().columns.find((x) => x.id === compareWith) : undefined;
    // The status letter is drawn by CSS from data-status: one element less per row.
    return html`<div
      class=${`file-row st-${f.status}${selected ? ' selected' : ''}${viewed ? ' viewed' : ''}`}
      data-testid="file-row"
      data-viewed=${viewed ? 'true' : 'false'}
      data-column=${c.id}
      data-path=${f.path}
      data-status=${STATUS_LETTER[f.status] ?? '?'}
      role="listitem"
      tabindex="0"
      title=${oneLine(`${f.path} (${f.status}): open the diff`, 500)}
      @click=${open}
      @focus=${() => this.ctx.actions.selectFile(c.id, f.path)}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          open();
        }
      }}
    >
      <input
        type="checkbox"
        class="file-viewed"
        data-testid="file-viewed"
        .checked=${viewed}
        title=${viewed ? 'Viewed: untick to mark it not viewed' : 'Mark this file as viewed'}
        aria-label=${oneLine(`${f.path} viewed`, 200)}
        @click=${(e: Event) => e.stopPropagation()}
        @keydown=${(e: Event) => e.stopPropagation()}
        @change=${(e: Event) => this.ctx.actions.setViewed(c.id, f.path, (e.currentTarget as HTMLInputElement).checked)}
      /><span class="file-path">${oneLine(f.path, 300)}</span><span class="adds">${`+${f.additions}`}</span><span class="dels">${`\u2212${f.deletions}`}</span>${compareWith !== undefined &&
      compareWith !== c.id
        ? html`<button
            class="icon-button"
            data-testid="compare-file"
            title=${oneLine(`Compare with ${other?.label ?? compareWith}`, 500)}
            aria-label=${oneLine(`Compare ${f.path} with ${other?.label ?? compareWith}`, 200)}
            @click=${(e: Event) => {
              e.stopPropagation();
              this.ctx.actions.compareColumns(compareWith, c.id, f.path);
            }}
          >⇄</button>`
        : nothing}
    </div>`;
  }
}

/** The horizontal padding of a box: what its content cannot use. */
function paddingX(box: HTMLElement): number {
  const cs = getComputedStyle(box);
  return (parseFloat(cs.paddingLeft) || 0) + (parseFloat(cs.paddingRight) || 0);
}
