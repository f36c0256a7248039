// A test's source as the test patch adds it, found from the name the runner reports (pytest node ids, Django and
// unittest names), with the patch line to jump to.
import type { FilePatch, ParsedPatch } from './patch';
import { filePath } from './patch';

export interface TestRef {
  /** File path for pytest ids. */
  file?: string;
  /** Dotted module path for Django/unittest names. */
  module?: string;
  className?: string;
  func: string;
}

/** Reads the parts of a test name: `path::Class::test_x[param]`, `test_x (module.Class)`, `module.Class.test_x`. */
export function parseTestName(name: string): TestRef {
  const trimmed = name.trim();
  if (trimmed.includes('::')) {
    const parts = trimmed.split('::');
    const func = (parts[parts.length - 1] as string).replace(/\[.*$/s, '');
    const className = parts.length > 2 ? (parts[parts.length - 2] as string) : undefined;
    return { file: parts[0] as string, func, ...(className ? { className } : {}) };
  }
  const django = /^([\w]+) \(([\w.]+)\)/.exec(trimmed);
  if (django) {
    const func = django[1] as string;
    let dotted = django[2] as string;
    // Django 5 prints `test_x (module.Class.test_x)`.
    if (dotted.endsWith(`.${func}`)) dotted = dotted.slice(0, -func.length - 1);
    const segs = dotted.split('.');
    const className = segs.length > 1 ? segs.pop() : undefined;
    return { func, module: segs.join('.'), ...(className ? { className } : {}) };
  }
  if (/^[\w]+(\.[\w]+){2,}$/.test(trimmed)) {
    const segs = trimmed.split('.');
    const func = segs.pop() as string;
    const className = /^[A-Z]/.test(segs[segs.length - 1] as string) ? segs.pop() : undefined;
    return { func, module: segs.join('.'), ...(className ? { className } : {}) };
  }
  return { func: trimmed.replace(/\[.*$/s, '') };
}

export interface TestSource {
  file: string;
  /** 1-based line in the test patch text of the test's first line (decorators included). */
  patchLine: number;
  text: string;
}

interface NewLine {
  text: string;
  patchLine: number;
}

/** Most lines of a test's source shown; the patch itself has the rest. */
export const MAX_TEST_SOURCE_LINES = 200;

function fileMatches(path: string, ref: TestRef): number {
  if (ref.file) return path === ref.file ? 3 : path.endsWith(`/${ref.file}`) || ref.file.endsWith(`/${path}`) ? 2 : 0;
  if (ref.module) {
    const asPath = `${ref.module.replace(/\./g, '/')}.py`;
    if (path === asPath || path.endsWith(`/${asPath}`)) return 3;
    const last = `${ref.module.split('.').pop() ?? ''}.py`;
    return path === last || path.endsWith(`/${last}`) ? 2 : 0;
  }
  return 1;
}

const indentOf = (s: string): number => s.length - s.trimStart().length;

/** Finds the test's function in the lines the patch adds or keeps; undefined when the patch does not contain it. */
export function findTestSource(parsed: ParsedPatch, ref: TestRef): TestSource | undefined {
  const files = parsed.files
    .filter((f) => f.status !== 'deleted' && f.status !== 'binary')
    .map((f) => ({ f, rank: fileMatches(filePath(f), ref) }))
    .filter((x) => x.rank > 0)
    .sort((a, b) => b.rank - a.rank);
  const defRe = new RegExp(`^(\\s*)(?:async\\s+)?def\\s+${escapeRe(ref.func)}\\s*\\(`);
  let fallback: TestSource | undefined;
  for (const { f } of files) {
    for (const hunk of f.hunks) {
      const lines = newSide(hunk.lines, hunk.patchLine);
      for (let i = 0; i < lines.length; i++) {
        const m = defRe.exec((lines[i] as NewLine).text);
        if (!m) continue;
        const found = extract(f, lines, i);
        const cls = enclosingClass(lines, i);
        if (!ref.className || cls === ref.className) return found;
        if (cls === undefined) fallback ??= found;
      }
    }
  }
  return fallback;
}

function newSide(body: readonly string[], headerLine: number): NewLine[] {
  const out: NewLine[] = [];
  body.forEach((l, k) => {
    const c = l[0];
    if (c === ' ' || c === '+') out.push({ text: l.slice(1), patchLine: headerLine + 1 + k });
  });
  return out;
}

function enclosingClass(lines: readonly NewLine[], at: number): string | undefined {
  const indent = indentOf((lines[at] as NewLine).text);
  for (let k = at - 1; k >= 0; k--) {
    const t = (lines[k] as NewLine).text;
    if (t.trim() === '' || indentOf(t) >= indent) continue;
    const m = /^\s*class\s+(\w+)/.exec(t);
    return m ? m[1] : undefined;
  }
  return undefined;
}

function extract(f: FilePatch, lines: readonly NewLine[], at: number): TestSource {
  const indent = indentOf((lines[at] as NewLine).text);
  let first = at;
  while (first > 0 && /^\s*@/.test((lines[first - 1] as NewLine).text) && indentOf((lines[first - 1] as NewLine).text) === indent) first--;
  let end = at + 1;
  while (end < lines.length) {
    const t = (lines[end] as NewLine).text;
    if (t.trim() !== '' && indentOf(t) <= indent) break;
    end++;
  }
  while (end > at + 1 && (lines[end - 1] as NewLine).text.trim() === '') end--;
  const body = lines.slice(first, Math.min(end, first + MAX_TEST_SOURCE_LINES)).map((l) => l.text);
  if (end - first > MAX_TEST_SOURCE_LINES) body.push(`… ${end - first - MAX_TEST_SOURCE_LINES} more lines in the test patch`);
  return { file: filePath(f), patchLine: (lines[first] as NewLine).patchLine, text: body.join('\n') };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
