// The mutation operators, as a table: each finds the places on one line of added code where it applies and says
// what to put there. Python's table first; another language adds its own table and a lexer that masks its strings
// and comments (see languageOf).
import { MASK, maskPythonLine } from './pythonLexer';
import type { PyLexState } from './pythonLexer';

/** One place an operator changes: replace `length` characters at `column` (0-based) with `replacement`. */
export interface Edit {
  column: number;
  length: number;
  replacement: string;
}

export interface LineContext {
  /** The line with strings and comments masked (same length). */
  code: string;
  /** The line as written. */
  text: string;
  strings: { start: number; end: number }[];
  /** The next lines of the new side of the hunk (context and added), as written, for operators that look ahead. */
  following: string[];
  /** True when the file (or the patch) imports `math`. */
  importsMath: boolean;
}

export interface Operator {
  name: string;
  /** What it does, for docs and reports. */
  summary: string;
  find(ctx: LineContext): Edit[];
}

function all(re: RegExp, s: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  for (let m = g.exec(s); m; m = g.exec(s)) {
    out.push(m);
    if (m[0].length === 0) g.lastIndex++;
  }
  return out;
}

const COMPARISON_FLIP: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '==' };

/** The next non-space character at or after `i`, and the one after it. */
function nextCode(code: string, i: number): string {
  let k = i;
  while (k < code.length && code[k] === ' ') k++;
  return code.slice(k, k + 2);
}

function prevCode(code: string, i: number): string {
  let k = i - 1;
  while (k >= 0 && code[k] === ' ') k--;
  return k >= 0 ? (code[k] as string) : '';
}

/** An operator binding tighter than `+`/`-` (or a call, index or attribute) follows: a term cannot end here. */
function tighterAfter(code: string, i: number): boolean {
  const n = nextCode(code, i);
  return /^[*/%@.([]/.test(n);
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}

const GUARD_BODY_RE = /^\s*(?:raise|return|break|continue)\b/;

/** The `:` ending an `if`/`elif` header: the first at bracket depth 0 that is not part of `:=`. */
function headerColon(code: string, from: number): number {
  let depth = 0;
  for (let k = from; k < code.length; k++) {
    const c = code[k];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ':' && depth === 0 && code[k + 1] !== '=') return k;
  }
  return -1;
}

export const PYTHON_OPERATORS: Operator[] = [
  {
    name: 'comparison',
    summary: 'a comparison flipped at its boundary or negated: < and <=, > and >=, == and !=',
    find({ code }) {
      return all(/<=|>=|==|!=|<|>/, code)
        .filter((m) => {
          const before = code[m.index - 1] ?? '';
          const after = code[m.index + m[0].length] ?? '';
          // Not a shift (<<, >>), an annotation arrow (->), an augmented shift or a longer operator.
          return !/[<>=!-]/.test(before) && !/[<>=]/.test(after);
        })
        .map((m) => ({ column: m.index, length: m[0].length, replacement: COMPARISON_FLIP[m[0]] as string }));
    },
  },
  {
    name: 'off-by-one',
    summary: 'an integer literal one more and one less',
    find({ code }) {
      const edits: Edit[] = [];
      for (const m of all(/(?<![\w.])\d+(?![\w.])/, code)) {
        if (m[0].length > 1 && m[0].startsWith('0')) continue;
        const n = BigInt(m[0]);
        edits.push({ column: m.index, length: m[0].length, replacement: String(n + 1n) });
        if (n > 0n) edits.push({ column: m.index, length: m[0].length, replacement: String(n - 1n) });
      }
      return edits;
    },
  },
  {
    name: 'term-off-by-one',
    summary: 'a `x // n` or `x % n` term made one more and one less; a `+ 1` or `- 1` dropped',
    find({ code }) {
      const edits: Edit[] = [];
      const operand = String.raw`(?:[A-Za-z_][\w.]*|\d+)`;
      for (const m of all(new RegExp(String.raw`(?<![\w.])${operand}\s*(?://|%)\s*${operand}(?![\w.(\[])`), code)) {
        const end = m.index + m[0].length;
        if (tighterAfter(code, end) || /^\*\*/.test(nextCode(code, end))) continue;
        // `a ** x // n`: the term starts earlier; `-x // n`, `a * x // n` still end here, so `+ 1` after it is the term's.
        if (prevCode(code, m.index) === '.') continue;
        edits.push({ column: end, length: 0, replacement: ' + 1' }, { column: end, length: 0, replacement: ' - 1' });
      }
      for (const m of all(/\s*[+-]\s*1(?![\w.])/, code)) {
        const before = prevCode(code, m.index + (m[0].length - m[0].trimStart().length));
        if (!/[\w)\]]/.test(before) || before === MASK) continue;
        const end = m.index + m[0].length;
        if (tighterAfter(code, end) || /^\*\*/.test(nextCode(code, end))) continue;
        // The term before must not bind tighter than `+` on its left (`2 * x + 1` is fine: `(2*x) + 1`).
        edits.push({ column: m.index, length: m[0].length, replacement: '' });
      }
      return edits;
    },
  },
  {
    name: 'guard-drop',
    summary: 'an `if`/`elif` whose body raises, returns, breaks or continues made `if False:` (the guard dropped)',
    find({ code, text, following }) {
      const m = /^(\s*)(if|elif)\s+/.exec(code);
      if (!m) return [];
      const condStart = m[0].length;
      const colon = headerColon(code, condStart);
      if (colon < 0) return [];
      const rest = text.slice(colon + 1);
      let guard = false;
      if (rest.trim() !== '' && !rest.trim().startsWith('#')) guard = GUARD_BODY_RE.test(rest);
      else {
        const body = following.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
        guard = body !== undefined && indentOf(body) > indentOf(text) && GUARD_BODY_RE.test(body);
      }
      const cond = text.slice(condStart, colon);
      if (!guard || cond.trim() === 'False') return [];
      return [{ column: condStart, length: colon - condStart, replacement: 'False' }];
    },
  },
  {
    name: 'not-drop',
    summary: 'a `not` dropped (`not x` is `x`, `not in` is `in`, `is not` is `is`)',
    find({ code }) {
      return all(/\bnot\s+/, code).map((m) => ({ column: m.index, length: m[0].length, replacement: '' }));
    },
  },
  {
    name: 'rounding',
    summary: '`round(` made `int(` (and `math.floor(` where math is imported); `math.floor(` and `math.ceil(` swapped',
    find({ code, importsMath }) {
      const edits: Edit[] = [];
      for (const m of all(/(?<![\w.])round\(/, code)) {
        edits.push({ column: m.index, length: 6, replacement: 'int(' });
        if (importsMath) edits.push({ column: m.index, length: 6, replacement: 'math.floor(' });
      }
      for (const m of all(/(?<![\w.])math\.(floor|ceil)\(/, code)) {
        edits.push({ column: m.index, length: m[0].length, replacement: m[1] === 'floor' ? 'math.ceil(' : 'math.floor(' });
      }
      return edits;
    },
  },
  {
    name: 'default-value',
    summary: 'a default value (of a `def` parameter, or a `default=` argument) made `None` (`None` made `0`)',
    find({ code, text, strings }) {
      const inDef = /^\s*(?:async\s+)?def\s/.test(code);
      const edits: Edit[] = [];
      for (const m of all(/\b([A-Za-z_]\w*)\s*(?<![=<>!])=(?!=)\s*/, code)) {
        if (!inDef && m[1] !== 'default') continue;
        const at = m.index + m[0].length;
        const str = strings.find((s) => s.start === at);
        let end: number;
        if (str) end = str.end;
        else {
          const v = /^(?:-?\d[\w.]*|[A-Za-z_][\w.]*)/.exec(code.slice(at));
          if (!v) continue;
          end = at + v[0].length;
          // A call or an index as default: left alone.
          if (/^[([]/.test(code.slice(end))) continue;
        }
        const value = text.slice(at, end);
        if (value === 'True' || value === 'False') continue; // the boolean operator flips those
        edits.push({ column: at, length: end - at, replacement: value === 'None' ? '0' : 'None' });
      }
      return edits;
    },
  },
  {
    name: 'boolean',
    summary: '`True` and `False` swapped',
    find({ code }) {
      return all(/\b(True|False)\b/, code).map((m) => ({ column: m.index, length: m[0].length, replacement: m[0] === 'True' ? 'False' : 'True' }));
    },
  },
  {
    name: 'and-or',
    summary: '`and` and `or` swapped',
    find({ code }) {
      return all(/\b(and|or)\b/, code).map((m) => ({ column: m.index, length: m[0].length, replacement: m[0] === 'and' ? 'or' : 'and' }));
    },
  },
];

/** A language's operators and how to mask its lines. */
export interface Language {
  name: string;
  operators: Operator[];
  mask(line: string, state: unknown): { code: string; strings: { start: number; end: number }[]; state: unknown };
  importsMath(text: string): boolean;
}

const PYTHON: Language = {
  name: 'python',
  operators: PYTHON_OPERATORS,
  mask: (line, state) => maskPythonLine(line, state as PyLexState),
  importsMath: (text) => /^\s*(?:import\s+math\b|from\s+math\s+import\b)/m.test(text) || /^\+\s*import\s+math\b/m.test(text),
};

/** The language of a file by its name, or undefined when no operators exist for it. */
export function languageOf(file: string): Language | undefined {
  if (/\.pyi?$/.test(file)) return PYTHON;
  return undefined;
}

/** Every operator's name, in table order (the order a capped pick takes them in). */
export const OPERATOR_NAMES: readonly string[] = PYTHON_OPERATORS.map((o) => o.name);
