// A small, strict reader of the TOML that task files use (Harbor's `task.toml`): tables, arrays of tables, dotted
// and quoted keys, strings of the four kinds, integers, floats, booleans, arrays and inline tables. Dates are kept as
// their text. Anything else is an error naming the file and line, never a guess.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

export type TomlResult = { ok: true; value: TomlTable } | { ok: false; error: TomlError };

/** Tables defined by a header or as a parent of one; inline tables and array elements are closed to later keys. */
interface Meta {
  explicit: Set<TomlTable>;
  implicit: Set<TomlTable>;
  frozen: Set<TomlTable | TomlValue[]>;
  arrayTables: Set<TomlValue[]>;
}

const BARE_KEY = /^[A-Za-z0-9_-]+/;

class Reader {
  private i = 0;
  line = 1;

  constructor(
    private readonly s: string,
    private readonly file: string,
  ) {}

  fail(reason: string, line = this.line): never {
    throw new TomlError(this.file, line, reason);
  }

  get done(): boolean {
    return this.i >= this.s.length;
  }

  peek(n = 0): string {
    return this.s[this.i + n] ?? '';
  }

  startsWith(t: string): boolean {
    return this.s.startsWith(t, this.i);
  }

  next(): string {
    const c = this.s[this.i++] ?? '';
    if (c === '\n') this.line++;
    return c;
  }

  /** Spaces and tabs only. */
  skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }

  /** Blanks, then a comment, then the end of the line (or of the text). */
  endOfLine(): void {
    this.skipBlanks();
    if (this.peek() === '#') this.skipComment();
    if (this.startsWith('\r\n')) this.i++;
    if (this.done) return;
    if (this.peek() !== '\n') this.fail(`unexpected "${printable(this.peek())}" after the value (one key = value per line)`);
    this.next();
  }

  skipComment(): void {
    while (!this.done && this.peek() !== '\n') {
      const c = this.s.charCodeAt(this.i);
      if ((c < 0x20 && c !== 0x09 && c !== 0x0d) || c === 0x7f) this.fail('control character in a comment');
      this.i++;
    }
  }

  /** Blank lines, comments and newlines (inside arrays). */
  skipWhitespaceAndComments(): void {
    for (;;) {
      this.skipBlanks();
      if (this.peek() === '#') this.skipComment();
      else if (this.peek() === '\n') this.next();
      else if (this.startsWith('\r\n')) {
        this.i++;
        this.next();
      } else return;
    }
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const m = BARE_KEY.exec(this.s.slice(this.i, this.i + 256));
        if (!m) this.fail(c === '' || c === '\n' ? 'a key is missing' : `"${printable(c)}" cannot start a key`);
        parts.push(m[0]);
        this.i += m[0].length;
      }
      this.skipBlanks();
      if (this.peek() !== '.') return parts;
      this.i++;
    }
  }

  value(meta: Meta): TomlValue {
    const c = this.peek();
    if (this.startsWith('"""')) return this.multilineBasic();
    if (this.startsWith("'''")) return this.multilineLiteral();
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    if (c === '[') return this.array(meta);
    if (c === '{') return this.inlineTable(meta);
    if (this.startsWith('true') && !/[A-Za-z0-9_]/.test(this.peek(4))) {
      this.i += 4;
      return true;
    }
    if (this.startsWith('false') && !/[A-Za-z0-9_]/.test(this.peek(5))) {
      this.i += 5;
      return false;
    }
    return this.scalar();
  }

  private scalar(): TomlValue {
    const m = /^[^\s,\]}#]+/.exec(this.s.slice(this.i, this.i + 128));
    if (!m) this.fail(this.peek() === '' || this.peek() === '\n' ? 'a value is missing' : `"${printable(this.peek())}" cannot start a value`);
    let text = m[0];
    // A date-time may hold one space between the date and the time.
    const dt = /^\d{4}-\d{2}-\d{2}[ ]\d{2}:\d{2}/.exec(this.s.slice(this.i, this.i + 40));
    if (dt) text = (/^\S+ \S+/.exec(this.s.slice(this.i, this.i + 64)) as RegExpExecArray)[0].replace(/[,\]}#].*$/, '');
    this.i += text.length;
    if (/^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?)?$|^\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text)) return text;
    const n = parseNumber(text);
    if (n === undefined) this.fail(`"${printable(text)}" is not a TOML value (strings need quotes)`);
    return n;
  }

  basicString(): string {
    const start = this.line;
    this.i++; // opening quote
    let out = '';
    for (;;) {
      if (this.done || this.peek() === '\n') this.fail('the string is not closed on its line', start);
      const c = this.next();
      if (c === '"') return out;
      if (c === '\\') out += this.escape();
      else {
        checkChar(this, c);
        out += c;
      }
    }
  }

  private escape(): string {
    const c = this.next();
    const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\x1b', '"': '"', '\\': '\\' };
    if (c in simple) return simple[c] as string;
    if (c === 'u' || c === 'U') {
      const len = c === 'u' ? 4 : 8;
      const hex = this.s.slice(this.i, this.i + len);
      if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) this.fail(`bad \\${c} escape`);
      this.i += len;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail(`\\${c}${hex} is not a Unicode scalar value`);
      return String.fromCodePoint(cp);
    }
    return this.fail(`unknown escape "\\${printable(c)}"`);
  }

  literalString(): string {
    const start = this.line;
    this.i++;
    const end = this.s.indexOf("'", this.i);
    const nl = this.s.indexOf('\n', this.i);
    if (end < 0 || (nl >= 0 && nl < end)) this.fail('the string is not closed on its line', start);
    const text = this.s.slice(this.i, end);
    for (const c of text) checkChar(this, c);
    this.i = end + 1;
    return text;
  }

  private multilineBasic(): string {
    const start = this.line;
    this.i += 3;
    this.skipFirstNewline();
    let out = '';
    for (;;) {
      if (this.done) this.fail('the """ string is not closed', start);
      if (this.startsWith('"""')) {
        // Up to two quotes may sit right before the closing delimiter.
        let extra = 0;
        while (this.peek(3 + extra) === '"' && extra < 2) extra++;
        out += '"'.repeat(extra);
        this.i += 3 + extra;
        return out;
      }
      const c = this.next();
      if (c === '\\') {
        // A line-ending backslash trims the newline and the whitespace after it.
        let j = this.i;
        while (this.s[j] === ' ' || this.s[j] === '\t') j++;
        if (this.s[j] === '\n' || (this.s[j] === '\r' && this.s[j + 1] === '\n')) {
          while (!this.done && /[ \t\r\n]/.test(this.peek())) this.next();
          continue;
        }
        out += this.escape();
      } else {
        if (c !== '\n' && c !== '\r') checkChar(this, c);
        out += c;
      }
    }
  }

  private multilineLiteral(): string {
    const start = this.line;
    this.i += 3;
    this.skipFirstNewline();
    const end = this.s.indexOf("'''", this.i);
    if (end < 0) this.fail("the ''' string is not closed", start);
    let extra = 0;
    while (this.s[end + 3 + extra] === "'" && extra < 2) extra++;
    const text = this.s.slice(this.i, end + extra);
    while (this.i < end + 3 + extra) this.next();
    return text;
  }

  private skipFirstNewline(): void {
    if (this.startsWith('\r\n')) this.i++;
    if (this.peek() === '\n') this.next();
  }

  private array(meta: Meta): TomlValue[] {
    const start = this.line;
    this.i++;
    const out: TomlValue[] = [];
    for (;;) {
      this.skipWhitespaceAndComments();
      if (this.done) this.fail('the array is not closed', start);
      if (this.peek() === ']') {
        this.i++;
        meta.frozen.add(out);
        return out;
      }
      out.push(this.value(meta));
      this.skipWhitespaceAndComments();
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ']') this.fail(this.done ? 'the array is not closed' : `expected "," or "]" in the array, found "${printable(this.peek())}"`, this.done ? start : this.line);
    }
  }

  private inlineTable(meta: Meta): TomlTable {
    this.i++;
    const out: TomlTable = {};
    this.skipBlanks();
    if (this.peek() === '}') {
      this.i++;
      meta.frozen.add(out);
      return out;
    }
    for (;;) {
      const key = this.key();
      if (this.peek() !== '=') this.fail(`expected "=" after the key "${key.join('.')}"`);
      this.i++;
      this.skipBlanks();
      const line = this.line;
      const v = this.value(meta);
      assign(out, key, v, meta, this, line);
      this.skipBlanks();
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      if (this.peek() === '}') {
        this.i++;
        meta.frozen.add(out);
        return out;
      }
      this.fail('an inline table must close with "}" on the same line');
    }
  }
}

function checkChar(r: Reader, c: string): void {
  const code = c.charCodeAt(0);
  if ((code < 0x20 && code !== 0x09) || code === 0x7f) r.fail(`control character U+${code.toString(16).padStart(4, '0')} in a string (write it as an escape)`);
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 40);
}

function parseNumber(text: string): number | undefined {
  if (/^[+-]?(inf|nan)$/.test(text)) return text.endsWith('nan') ? NaN : text.startsWith('-') ? -Infinity : Infinity;
  if (/^0x[0-9A-Fa-f](_?[0-9A-Fa-f])*$/.test(text)) return parseInt(text.slice(2).replace(/_/g, ''), 16);
  if (/^0o[0-7](_?[0-7])*$/.test(text)) return parseInt(text.slice(2).replace(/_/g, ''), 8);
  if (/^0b[01](_?[01])*$/.test(text)) return parseInt(text.slice(2).replace(/_/g, ''), 2);
  // Decimal: no leading zeros, underscores only between digits.
  const dec = /^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?$/;
  if (!dec.test(text)) return undefined;
  return Number(text.replace(/_/g, ''));
}

/** Own properties only, so a key named `__proto__` or `constructor` is a key like any other. */
function own(t: TomlTable, k: string): TomlValue | undefined {
  return Object.prototype.hasOwnProperty.call(t, k) ? t[k] : undefined;
}

function setOwn(t: TomlTable, k: string, v: TomlValue): void {
  Object.defineProperty(t, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function isTable(v: TomlValue | undefined): v is TomlTable {
  return v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

/** Assigns `key` (dotted) in `table`, creating intermediate tables; a key may be defined once. */
function assign(table: TomlTable, key: string[], v: TomlValue, meta: Meta, r: Reader, line: number): void {
  let t = table;
  for (let k = 0; k < key.length - 1; k++) {
    const part = key[k] as string;
    const cur = own(t, part);
    if (cur === undefined) {
      const n: TomlTable = {};
      setOwn(t, part, n);
      meta.implicit.add(n);
      t = n;
    } else if (isTable(cur) && !meta.frozen.has(cur) && !meta.explicit.has(cur)) t = cur;
    else if (isTable(cur) && meta.implicit.has(cur)) t = cur;
    else r.fail(`"${key.slice(0, k + 1).join('.')}" is already defined as a value; it cannot hold "${key.slice(k + 1).join('.')}"`, line);
  }
  const last = key[key.length - 1] as string;
  if (Object.prototype.hasOwnProperty.call(t, last)) r.fail(`the key "${key.join('.')}" is defined twice`, line);
  setOwn(t, last, v);
}

/** Parses a TOML text; `file` names it in errors. */
export function parseToml(text: string, file: string): TomlResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const root: TomlTable = {};
  const meta: Meta = { explicit: new Set(), implicit: new Set(), frozen: new Set(), arrayTables: new Set() };
  const r = new Reader(src, file);
  let current: TomlTable = root;
  try {
    for (;;) {
      r.skipWhitespaceAndComments();
      if (r.done) break;
      const line = r.line;
      if (r.peek() === '[') {
        const isArray = r.peek(1) === '[';
        r.next();
        if (isArray) r.next();
        const key = r.key();
        if (r.peek() !== ']' || (isArray && r.peek(1) !== ']')) r.fail(`a table header must end with "${isArray ? ']]' : ']'}"`);
        r.next();
        if (isArray) r.next();
        r.endOfLine();
        current = isArray ? openArrayTable(root, key, meta, r, line) : openTable(root, key, meta, r, line);
        continue;
      }
      const key = r.key();
      if (r.peek() !== '=') r.fail(`expected "=" after the key "${key.join('.')}"`);
      r.next();
      r.skipBlanks();
      const vline = r.line;
      const v = r.value(meta);
      assign(current, key, v, meta, r, vline);
      // Tables created by a dotted key belong to the table they were written in: a later header may not reopen them.
      let t: TomlTable = current;
      for (const part of key.slice(0, -1)) {
        t = own(t, part) as TomlTable;
        meta.frozen.add(t);
      }
      r.endOfLine();
    }
  } catch (e) {
    if (e instanceof TomlError) return { ok: false, error: e };
    throw e;
  }
  return { ok: true, value: root };
}

function openTable(root: TomlTable, key: string[], meta: Meta, r: Reader, line: number): TomlTable {
  const parent = key.length > 1 ? openPath(root, key.slice(0, -1), meta, r, line) : root;
  const last = key[key.length - 1] as string;
  const cur = own(parent, last);
  if (cur === undefined) {
    const n: TomlTable = {};
    setOwn(parent, last, n);
    meta.explicit.add(n);
    return n;
  }
  if (!isTable(cur) || meta.frozen.has(cur)) r.fail(`the table [${key.join('.')}] clashes with a value defined earlier`, line);
  if (meta.explicit.has(cur)) r.fail(`the table [${key.join('.')}] is defined twice`, line);
  meta.implicit.delete(cur);
  meta.explicit.add(cur);
  return cur;
}

function openArrayTable(root: TomlTable, key: string[], meta: Meta, r: Reader, line: number): TomlTable {
  const parent = key.length > 1 ? openPath(root, key.slice(0, -1), meta, r, line) : root;
  const last = key[key.length - 1] as string;
  const cur = own(parent, last);
  const n: TomlTable = {};
  if (cur === undefined) {
    const arr: TomlValue[] = [n];
    meta.arrayTables.add(arr);
    setOwn(parent, last, arr);
  } else if (Array.isArray(cur) && meta.arrayTables.has(cur)) cur.push(n);
  else r.fail(`[[${key.join('.')}]] clashes with a value or table defined earlier`, line);
  meta.explicit.add(n);
  return n;
}

/** The table at `key` for a header below it: the last element of an array of tables, or a (possibly new) table. */
function openPath(root: TomlTable, key: string[], meta: Meta, r: Reader, line: number): TomlTable {
  let t = root;
  for (const part of key) {
    let cur = own(t, part);
    if (cur === undefined) {
      const n: TomlTable = {};
      setOwn(t, part, n);
      meta.implicit.add(n);
      cur = n;
    } else if (Array.isArray(cur) && meta.arrayTables.has(cur)) cur = cur[cur.length - 1] as TomlTable;
    else if (!isTable(cur) || meta.frozen.has(cur)) r.fail(`the table [${key.join('.')}] clashes with a value defined earlier`, line);
    t = cur as TomlTable;
  }
  return t;
}
