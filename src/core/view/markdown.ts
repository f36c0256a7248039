// The request's Markdown as inert blocks and runs of text (never HTML), with each spec's statement marked.
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import type { MdBlock, MdRun } from '../../protocol/messages';
import { markSpecs } from './highlight';
import type { SpecText } from './highlight';
import { truncate } from './text';

/** Longest request rendered; a longer one is cut and flagged, which keeps the first message small. */
export const MAX_REQUEST_CHARS = 100_000;

// html: false turns raw HTML into literal text; links are kept only as inert targets shown next to their text.
// As GitHub renders an issue: a line break in a paragraph stays a line break, and a bare URL is a link (inert here).
const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });

export interface RenderedRequest {
  blocks: MdBlock[];
  /** Ids of the specs the request states somewhere. */
  stated: Set<string>;
  truncated: boolean;
}

/** Parses the request and marks the runs that state each spec. */
export function renderRequest(markdown: string, specs: readonly SpecText[] = []): RenderedRequest {
  const truncated = markdown.length > MAX_REQUEST_CHARS;
  const src = truncated ? truncate(markdown, MAX_REQUEST_CHARS) : markdown;
  const tokens = md.parse(src, {});
  const containers: MdRun[][] = [];
  const { blocks } = parseBlocks(tokens, 0, undefined, containers);
  // A sentence wrapped onto the next line is still one sentence: soft breaks read as spaces (same length) here.
  const marks = markSpecs(
    containers.map((runs) => {
      const text = runs.map((r) => r.text).join('');
      return (softBreaks.get(runs) ?? []).reduce((t, at) => `${t.slice(0, at)} ${t.slice(at + 1)}`, text);
    }),
    specs,
  );
  const byContainer = new Map<number, Array<{ start: number; end: number; spec: string }>>();
  for (const m of marks) {
    const list = byContainer.get(m.container) ?? [];
    list.push(m);
    byContainer.set(m.container, list);
  }
  for (const [i, ranges] of byContainer) {
    const runs = containers[i] as MdRun[];
    const marked = applyMarks(runs, ranges);
    runs.splice(0, runs.length, ...marked);
  }
  return { blocks, stated: new Set(marks.map((m) => m.spec)), truncated };
}

function parseBlocks(tokens: Token[], start: number, close: string | undefined, containers: MdRun[][]): { blocks: MdBlock[]; next: number } {
  const blocks: MdBlock[] = [];
  let i = start;
  const runsOf = (t: Token | undefined): MdRun[] => {
    const runs = inlineRuns(t?.children ?? []);
    containers.push(runs);
    return runs;
  };
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    if (close !== undefined && t.type === close) return { blocks, next: i + 1 };
    switch (t.type) {
      case 'heading_open': {
        blocks.push({ kind: 'heading', level: Math.min(6, Math.max(1, Number(t.tag.slice(1)) || 1)), runs: runsOf(tokens[i + 1]) });
        i += 3;
        continue;
      }
      case 'paragraph_open': {
        blocks.push({ kind: 'paragraph', runs: runsOf(tokens[i + 1]) });
        i += 3;
        continue;
      }
      case 'fence':
      case 'code_block':
        blocks.push({ kind: 'code', lang: (t.info.trim().split(/\s+/)[0] ?? '').slice(0, 40), text: t.content });
        i++;
        continue;
      case 'hr':
        blocks.push({ kind: 'rule' });
        i++;
        continue;
      case 'blockquote_open': {
        const inner = parseBlocks(tokens, i + 1, 'blockquote_close', containers);
        blocks.push({ kind: 'quote', blocks: inner.blocks });
        i = inner.next;
        continue;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const ordered = t.type === 'ordered_list_open';
        const closeType = ordered ? 'ordered_list_close' : 'bullet_list_close';
        const items: MdBlock[][] = [];
        i++;
        while (i < tokens.length && (tokens[i] as Token).type !== closeType) {
          if ((tokens[i] as Token).type === 'list_item_open') {
            const inner = parseBlocks(tokens, i + 1, 'list_item_close', containers);
            items.push(inner.blocks);
            i = inner.next;
          } else i++;
        }
        blocks.push({ kind: 'list', ordered, items });
        i++;
        continue;
      }
      case 'table_open': {
        const header: MdRun[][] = [];
        const rows: MdRun[][][] = [];
        let row: MdRun[][] | undefined;
        let inHead = false;
        i++;
        while (i < tokens.length && (tokens[i] as Token).type !== 'table_close') {
          const c = tokens[i] as Token;
          if (c.type === 'thead_open') inHead = true;
          else if (c.type === 'thead_close') inHead = false;
          else if (c.type === 'tr_open') row = [];
          else if (c.type === 'tr_close' && row) {
            if (!inHead) rows.push(row);
            row = undefined;
          } else if (c.type === 'inline') (inHead ? header : (row ?? [])).push(runsOf(c));
          i++;
        }
        blocks.push({ kind: 'table', header, rows });
        i++;
        continue;
      }
      case 'inline':
        blocks.push({ kind: 'paragraph', runs: runsOf(t) });
        i++;
        continue;
      default:
        // html_block cannot occur with html disabled; anything else unknown keeps its text, as text.
        if (t.content && !t.type.endsWith('_close') && !t.type.endsWith('_open')) {
          const runs: MdRun[] = [{ text: t.content }];
          containers.push(runs);
          blocks.push({ kind: 'paragraph', runs });
        }
        i++;
    }
  }
  return { blocks, next: i };
}

/** Only targets a curator might want to read are kept; `javascript:`, `data:` and relative links lose their href. */
function safeHref(href: string | number | null): string | undefined {
  if (typeof href !== 'string') return undefined;
  if (!href) return undefined;
  return /^(https?:|mailto:)/i.test(href) ? href.slice(0, 2000) : undefined;
}

/** Offsets (in the runs' joined text) of the line breaks that were soft in the Markdown: shown, but not sentence ends. */
const softBreaks = new WeakMap<MdRun[], number[]>();

function inlineRuns(children: Token[]): MdRun[] {
  const runs: MdRun[] = [];
  const soft: number[] = [];
  softBreaks.set(runs, soft);
  let length = 0;
  let strong = 0;
  let em = 0;
  const hrefs: Array<string | undefined> = [];
  const push = (text: string, code = false): void => {
    if (text.length === 0) return;
    length += text.length;
    const href = hrefs.length > 0 ? hrefs[hrefs.length - 1] : undefined;
    const run: MdRun = { text, ...(code ? { code: true } : {}), ...(strong > 0 ? { strong: true } : {}), ...(em > 0 ? { em: true } : {}), ...(href ? { href } : {}) };
    const last = runs[runs.length - 1];
    if (last && !code && !last.code && !!last.strong === !!run.strong && !!last.em === !!run.em && last.href === run.href) last.text += text;
    else runs.push(run);
  };
  for (const c of children) {
    switch (c.type) {
      case 'text':
      case 'html_inline':
        push(c.content);
        break;
      case 'code_inline':
        push(c.content, true);
        break;
      case 'softbreak':
        soft.push(length);
        push('\n');
        break;
      case 'hardbreak':
        push('\n');
        break;
      case 'strong_open':
        strong++;
        break;
      case 'strong_close':
        strong = Math.max(0, strong - 1);
        break;
      case 'em_open':
        em++;
        break;
      case 'em_close':
        em = Math.max(0, em - 1);
        break;
      case 'link_open':
        hrefs.push(safeHref(c.attrGet('href')));
        break;
      case 'link_close':
        hrefs.pop();
        break;
      case 'image': {
        const alt = c.children?.map((x) => x.content).join('') || c.content;
        hrefs.push(safeHref(c.attrGet('src')));
        push(`[image: ${alt}]`);
        hrefs.pop();
        break;
      }
      default:
        if (c.content) push(c.content);
    }
  }
  return runs;
}

/** Splits runs at the marked ranges' edges and tags each piece with the specs whose range covers it. */
export function applyMarks(runs: readonly MdRun[], ranges: ReadonlyArray<{ start: number; end: number; spec: string }>): MdRun[] {
  if (ranges.length === 0) return [...runs];
  const cuts = new Set<number>();
  for (const r of ranges) {
    cuts.add(r.start);
    cuts.add(r.end);
  }
  const out: MdRun[] = [];
  let offset = 0;
  for (const run of runs) {
    const end = offset + run.text.length;
    const points = [offset, ...[...cuts].filter((c) => c > offset && c < end).sort((a, b) => a - b), end];
    for (let k = 0; k < points.length - 1; k++) {
      const a = points[k] as number;
      const b = points[k + 1] as number;
      if (b <= a) continue;
      const specs = [...new Set(ranges.filter((r) => r.start <= a && r.end >= b).map((r) => r.spec))];
      const piece: MdRun = { ...run, text: run.text.slice(a - offset, b - offset) };
      delete piece.specs;
      if (specs.length > 0) piece.specs = specs;
      out.push(piece);
    }
    offset = end;
  }
  return out;
}
