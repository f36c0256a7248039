// A patch that is a chat answer: the diff wrapped in a Markdown fence (```diff ... ```) or SWE-bench's <patch> tags,
// sometimes with prose around it. git ignores text before the first header, so it may even apply; our hunk checks
// would count the fence lines as hunk lines. Found here so the importer can say so and, on request, store the inside.

export interface Fence {
  /** 1-based line of the opening fence and its text (```` ```diff ````, `<patch>`). */
  open: { line: number; text: string };
  close: { line: number; text: string };
  /** The lines between the fences, with their line endings. */
  inner: string;
  /** Non-blank lines outside the fence (prose before or after it). */
  linesOutside: number;
}

const OPEN_FENCE = /^```[\w+-]*\s*$/;
const CLOSE_FENCE = /^```\s*$/;
const OPEN_TAG = /^<(patch|diff)>\s*$/;
const DIFF_HEADER = /^(diff --git |--- |Index: )/;

const strip = (line: string) => line.replace(/\r?\n$/, '');

/**
 * The fence around a patch: its first non-blank line opens a fence (or a `<patch>`/`<diff>` tag) that a later line
 * closes; or the text does not start with a diff header but holds a fenced block that does.
 */
export function findFence(patch: string): Fence | undefined {
  const lines = patch.split(/(?<=\n)/);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return undefined;
  const firstText = strip(lines[first] as string);
  if (OPEN_FENCE.test(firstText) || OPEN_TAG.test(firstText)) {
    const fence = closeAt(lines, first);
    if (fence) return fence;
  }
  if (DIFF_HEADER.test(firstText)) return undefined;
  for (let i = first + 1; i < lines.length; i++) {
    const text = strip(lines[i] as string);
    if (!OPEN_FENCE.test(text) && !OPEN_TAG.test(text)) continue;
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    if (next === undefined || !DIFF_HEADER.test(next)) continue;
    const fence = closeAt(lines, i);
    if (fence) return fence;
  }
  return undefined;
}

function closeAt(lines: string[], open: number): Fence | undefined {
  const openText = strip(lines[open] as string);
  const tag = OPEN_TAG.exec(openText);
  const closes = (t: string) => (tag ? t.trim() === `</${tag[1] as string}>` : CLOSE_FENCE.test(t));
  for (let j = open + 1; j < lines.length; j++) {
    const text = strip(lines[j] as string);
    if (!closes(text)) continue;
    const inside = lines.slice(open + 1, j);
    if (!inside.some((l) => DIFF_HEADER.test(l))) return undefined;
    const outside = [...lines.slice(0, open), ...lines.slice(j + 1)].filter((l) => l.trim() !== '').length;
    return { open: { line: open + 1, text: openText.trim() }, close: { line: j + 1, text: text.trim() }, inner: inside.join(''), linesOutside: outside };
  }
  return undefined;
}

/** "```diff at line 1, closing ``` at line 9; 1 line of text outside it" */
export function describeFence(f: Fence, outsideVerb = ''): string {
  const outside = f.linesOutside > 0 ? `; ${f.linesOutside} line${f.linesOutside === 1 ? '' : 's'} of text outside it${outsideVerb ? ` ${outsideVerb}` : ''}` : '';
  return `${f.open.text} at line ${f.open.line}, closing ${f.close.text} at line ${f.close.line}${outside}`;
}
