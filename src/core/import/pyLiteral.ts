// Python literals (the `repr` of dicts, lists, strings, numbers, True/False/None) as JSON values: some harnesses log
// their report with `print(report)` instead of `json.dumps`.

export type PyResult = { ok: true; value: unknown; end: number } | { ok: false; offset: number; message: string };

/** Parses one Python literal starting at `start` (leading blanks allowed); `end` is the offset after it. */
export function parsePyLiteral(text: string, start = 0): PyResult {
  let i = start;
  const fail = (message: string): never => {
    throw new PyError(i, message);
  };
  const blank = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const value = (): unknown => {
    blank();
    const c = text[i];
    if (c === undefined) return fail('unexpected end of text');
    if (c === '{') return container('{', '}', true);
    if (c === '[') return container('[', ']', false);
    if (c === '(') return container('(', ')', false);
    if (c === "'" || c === '"') return str();
    if (/[bruBRU]/.test(c) && (text[i + 1] === "'" || text[i + 1] === '"')) {
      const raw = c === 'r' || c === 'R';
      i++;
      return str(raw);
    }
    const word = /^(True|False|None|-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan))/.exec(text.slice(i, i + 64));
    if (!word) return fail(`unexpected character ${JSON.stringify(c)}`);
    i += (word[0] as string).length;
    switch (word[0]) {
      case 'True':
        return true;
      case 'False':
        return false;
      case 'None':
        return null;
      default:
        return Number(word[0]);
    }
  };
  const container = (open: string, close: string, dict: boolean): unknown => {
    i++; // the opening bracket
    const out: unknown[] = [];
    const obj: Record<string, unknown> = {};
    for (;;) {
      blank();
      if (text[i] === close) {
        i++;
        return dict ? obj : out;
      }
      const k = value();
      if (dict) {
        blank();
        if (text[i] !== ':') fail(`expected ':' after a key inside ${open}${close}`);
        i++;
        obj[typeof k === 'string' ? k : JSON.stringify(k)] = value();
      } else out.push(k);
      blank();
      if (text[i] === ',') i++;
      else if (text[i] !== close) fail(`expected ',' or '${close}'`);
    }
  };
  const str = (raw = false): string => {
    const q = text[i] as string;
    const triple = text.startsWith(q.repeat(3), i);
    const delim = triple ? q.repeat(3) : q;
    i += delim.length;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      if (text.startsWith(delim, i)) {
        i += delim.length;
        return out;
      }
      const c = text[i] as string;
      if (c === '\n' && !triple) fail('newline inside a string');
      if (c !== '\\' || raw) {
        out += c;
        i++;
        continue;
      }
      const e = text[i + 1];
      i += 2;
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case '0':
          out += '\0';
          break;
        case 'x':
          out += String.fromCharCode(parseInt(text.slice(i, i + 2), 16));
          i += 2;
          break;
        case 'u':
          out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
          i += 4;
          break;
        case 'U':
          out += String.fromCodePoint(parseInt(text.slice(i, i + 8), 16));
          i += 8;
          break;
        case '\n':
          break;
        case undefined:
          fail('unterminated string');
          break;
        default:
          out += e === '\\' || e === "'" || e === '"' ? e : `\\${e}`;
      }
    }
  };
  try {
    const v = value();
    return { ok: true, value: v, end: i };
  } catch (e) {
    if (e instanceof PyError) return { ok: false, offset: e.offset, message: e.message };
    throw e;
  }
}

class PyError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}
