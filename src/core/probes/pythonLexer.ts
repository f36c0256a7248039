// Which characters of a Python source line are code: strings (single, double, triple-quoted, with prefixes) and
// comments are masked so mutation operators never touch them. A triple-quoted string left open carries over to the
// next line through the returned state.

/** The open triple quote a line ends inside, if any. */
export type PyLexState = '"""' | "'''" | undefined;

export interface MaskedLine {
  /** The line with every string and comment character replaced by MASK (same length as the line). */
  code: string;
  /** Each string literal's span [start, end) in the line, prefix and quotes included. */
  strings: { start: number; end: number }[];
  state: PyLexState;
}

/** The character masked text is made of: never part of an operator's pattern. */
export const MASK = '\u0001';

const PREFIX_RE = /^(?:[rRbBuUfF]{1,2})$/;

/** Masks the strings and comments of one line, starting inside `state`'s open triple quote. */
export function maskPythonLine(line: string, state: PyLexState): MaskedLine {
  const out = line.split('');
  const strings: { start: number; end: number }[] = [];
  let i = 0;
  let cur = state;
  const mask = (from: number, to: number) => {
    for (let k = from; k < to; k++) out[k] = MASK;
  };
  if (cur) {
    const close = line.indexOf(cur);
    if (close < 0) {
      mask(0, line.length);
      return { code: out.join(''), strings: [{ start: 0, end: line.length }], state: cur };
    }
    mask(0, close + 3);
    strings.push({ start: 0, end: close + 3 });
    i = close + 3;
    cur = undefined;
  }
  while (i < line.length) {
    const c = line[i] as string;
    if (c === '#') {
      mask(i, line.length);
      break;
    }
    if (c === '"' || c === "'") {
      // A prefix (r, b, f, rb...) directly before the quote belongs to the string.
      let start = i;
      let p = i;
      while (p > 0 && /[A-Za-z]/.test(line[p - 1] as string)) p--;
      if (i - p > 0 && i - p <= 2 && PREFIX_RE.test(line.slice(p, i)) && (p === 0 || !/[\w]/.test(line[p - 1] as string))) start = p;
      const triple = line.startsWith(c.repeat(3), i);
      if (triple) {
        const q = c.repeat(3);
        const close = line.indexOf(q, i + 3);
        if (close < 0) {
          mask(start, line.length);
          strings.push({ start, end: line.length });
          return { code: out.join(''), strings, state: q as PyLexState };
        }
        mask(start, close + 3);
        strings.push({ start, end: close + 3 });
        i = close + 3;
        continue;
      }
      let k = i + 1;
      while (k < line.length && line[k] !== c) k += line[k] === '\\' ? 2 : 1;
      const end = Math.min(line.length, k + 1);
      mask(start, end);
      strings.push({ start, end });
      i = end;
      continue;
    }
    i++;
  }
  return { code: out.join(''), strings, state: undefined };
}
