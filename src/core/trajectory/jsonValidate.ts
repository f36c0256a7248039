// Locates the first syntax error in a JSON text. Used only after JSON.parse has failed, because V8's messages do
// not always carry a position and a user needs the line.

export interface JsonErrorPosition {
  /** UTF-16 index into the text. */
  index: number;
  message: string;
}

class Stop {
  constructor(
    readonly index: number,
    readonly message: string,
  ) {}
}

function describe(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  const ch = text[i]!;
  const code = ch.charCodeAt(0);
  if (code < 0x20) return `control character 0x${code.toString(16).padStart(2, '0')}`;
  return `'${ch}'`;
}

/** Returns the index and a message for the first syntax error, or undefined when the text is valid JSON. */
export function jsonErrorAt(text: string): JsonErrorPosition | undefined {
  let i = 0;
  const n = text.length;

  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };

  const str = (): void => {
    // text[i] is the opening quote.
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === undefined) throw new Stop(i, 'unterminated string');
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop(i, 'invalid \\u escape in string');
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e)) throw new Stop(i, `invalid escape '\\${e}' in string`);
        i += 2;
        continue;
      }
      if (c < 0x20) throw new Stop(i, `${describe(text, i)} inside a string (unterminated string?)`);
      i++;
    }
    throw new Stop(n, 'unterminated string');
  };

  const num = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null || m[0].length === 0 || m[0] === '-') throw new Stop(i, `expected a JSON value, found ${describe(text, i)}`);
    i += m[0].length;
  };

  const value = (depth: number): void => {
    if (depth > 10000) throw new Stop(i, 'nesting too deep');
    ws();
    if (i >= n) throw new Stop(i, 'unexpected end of the value');
    const ch = text[i]!;
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw new Stop(i, `expected a member name in quotes, found ${describe(text, i)}`);
        str();
        ws();
        if (text[i] !== ':') throw new Stop(i, `expected ':', found ${describe(text, i)}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        throw new Stop(i, `expected ',' or '}', found ${describe(text, i)}`);
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        throw new Stop(i, `expected ',' or ']', found ${describe(text, i)}`);
      }
    }
    if (ch === '"') return str();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    num();
  };

  try {
    value(0);
    ws();
    if (i < n) throw new Stop(i, `unexpected ${describe(text, i)} after the JSON value`);
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return { index: e.index, message: e.message };
    if (e instanceof RangeError) return { index: i, message: 'nesting too deep' };
    throw e;
  }
}
