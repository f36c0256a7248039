// A small, strict reader of the YAML that Python's `yaml.safe_dump` writes (the SWE-bench team's `task.yaml`,
// Terminal-Bench 1's `task.yaml`): block mappings and sequences, plain, quoted and block scalars (folded over
// lines), and flow collections of scalars. Anchors, aliases, tags and multiple documents are errors naming the file
// and line, never guesses. Plain scalars are typed as PyYAML types them (null, booleans, numbers); the rest are text.

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export class YamlError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

export type YamlResult = { ok: true; value: YamlValue } | { ok: false; error: YamlError };

interface Line {
  /** 1-based line number. */
  no: number;
  indent: number;
  /** The text after the indentation, without the line break. */
  text: string;
}

const KEY_RE = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\-?:,[\]{}&*!|>%@`][^:#]*?|-[^\s:#][^:#]*?)\s*:(?:\s+|$)/;

class Parser {
  private pos = 0;

  constructor(
    private readonly lines: Line[],
    private readonly file: string,
  ) {}

  fail(reason: string, line?: number): never {
    throw new YamlError(this.file, line ?? this.lines[Math.min(this.pos, this.lines.length - 1)]?.no ?? 1, reason);
  }

  /** The next line that holds content (blank lines and comment-only lines are skipped). */
  peek(): Line | undefined {
    while (this.pos < this.lines.length) {
      const l = this.lines[this.pos] as Line;
      if (l.text === '' || l.text.startsWith('#')) this.pos++;
      else return l;
    }
    return undefined;
  }

  document(): YamlValue {
    const first = this.peek();
    if (!first) return null;
    const v = this.block(first.indent);
    const rest = this.peek();
    if (rest) this.fail(rest.text === '---' || rest.text === '...' ? 'several YAML documents in one file are not supported' : 'unexpected indentation', rest.no);
    return v;
  }

  block(indent: number): YamlValue {
    const l = this.peek();
    if (!l) return null;
    if (l.indent !== indent) this.fail('unexpected indentation', l.no);
    if (/^[&*!]/.test(l.text)) this.fail('anchors, aliases and tags are not supported', l.no);
    if (l.text === '-' || l.text.startsWith('- ')) return this.sequence(indent);
    if (KEY_RE.test(l.text)) return this.mapping(indent);
    this.pos++;
    return this.scalarAt(l, l.text, indent - 1);
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    for (;;) {
      const l = this.peek();
      if (!l || l.indent < indent) return out;
      if (l.indent > indent) this.fail('unexpected indentation', l.no);
      if (l.indent === 0 && (l.text === '---' || l.text === '...')) this.fail('several YAML documents in one file are not supported', l.no);
      const m = KEY_RE.exec(l.text);
      if (!m) this.fail(l.text === '-' || l.text.startsWith('- ') ? 'a list item where a key was expected' : `expected "key: value", found "${printable(l.text)}"`, l.no);
      const key = this.keyText((m[1] as string).trim(), l.no);
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail(`the key "${printable(key)}" is defined twice`, l.no);
      const rest = l.text.slice(m[0].length);
      this.pos++;
      Object.defineProperty(out, key, { value: this.valueAfterIndicator(l, rest, indent, true), enumerable: true, writable: true, configurable: true });
    }
  }

  private sequence(indent: number): YamlValue[] {
    const out: YamlValue[] = [];
    for (;;) {
      const l = this.peek();
      if (!l || l.indent < indent) return out;
      if (l.indent > indent) this.fail('unexpected indentation', l.no);
      if (!(l.text === '-' || l.text.startsWith('- '))) return out;
      const rest = l.text === '-' ? '' : l.text.slice(2).replace(/^\s+/, '');
      const offset = l.text.length - rest.length;
      if (rest !== '' && KEY_RE.test(rest)) {
        // `- key: value`: a mapping whose keys sit at the column after the dash.
        this.lines[this.pos] = { no: l.no, indent: indent + offset, text: rest };
        out.push(this.mapping(indent + offset));
        continue;
      }
      this.pos++;
      out.push(this.valueAfterIndicator(l, rest, indent, false));
    }
  }

  /** The value after `key:` or `- `: inline, a block scalar, or a nested block on the following lines. */
  private valueAfterIndicator(l: Line, rest: string, indent: number, inMapping: boolean): YamlValue {
    const text = stripComment(rest);
    if (/^[&*!]/.test(text)) this.fail('anchors, aliases and tags are not supported', l.no);
    if (text === '') {
      const next = this.peek();
      if (!next) return null;
      if (next.indent > indent) return this.block(next.indent);
      // PyYAML writes a mapping's list at the key's own indentation.
      if (inMapping && next.indent === indent && (next.text === '-' || next.text.startsWith('- '))) return this.sequence(indent);
      return null;
    }
    if (/^[|>]/.test(text)) return this.blockScalar(l, text, indent);
    return this.scalarAt(l, rest, indent);
  }

  /** A scalar starting on line `l` with text `text`, which may continue on lines indented more than `parent`. */
  private scalarAt(l: Line, text: string, parent: number): YamlValue {
    const t = text.trimStart();
    if (t.startsWith('"') || t.startsWith("'")) return this.quoted(l, t, parent);
    if (t.startsWith('[') || t.startsWith('{')) {
      const r = new Flow(stripComment(t), this.file, l.no).all();
      return r;
    }
    // A plain scalar, folded over its continuation lines.
    const parts = [stripComment(t)];
    let blanks = 0;
    for (;;) {
      const save = this.pos;
      let n = this.pos;
      let b = 0;
      while (n < this.lines.length && (this.lines[n] as Line).text === '') {
        n++;
        b++;
      }
      const next = this.lines[n];
      if (!next || next.indent <= parent || next.text.startsWith('#') || KEY_RE.test(next.text) || next.text === '-' || next.text.startsWith('- ')) {
        this.pos = save;
        break;
      }
      this.pos = n + 1;
      blanks = b;
      parts.push((blanks > 0 ? '\n'.repeat(blanks) : ' ') + stripComment(next.text));
    }
    return typed(parts.join('').replace(/ \n/g, '\n'));
  }

  private quoted(l: Line, t: string, parent: number): string {
    const q = t[0] as string;
    let buf = t.slice(1);
    let lineNo = l.no;
    let out = '';
    for (;;) {
      const end = q === "'" ? findSingleEnd(buf) : findDoubleEnd(buf);
      if (end >= 0) {
        out += q === "'" ? buf.slice(0, end).replace(/''/g, "'") : unescapeDouble(buf.slice(0, end), this.file, lineNo);
        const after = stripComment(buf.slice(end + 1));
        if (after !== '') this.fail(`unexpected "${printable(after)}" after the quoted text`, lineNo);
        return out;
      }
      // The string continues on the next line: a line break folds to a space, blank lines to newlines.
      out += q === "'" ? buf.replace(/''/g, "'").trimEnd() : unescapeDouble(buf.replace(/\s+$/, ''), this.file, lineNo, true);
      let blanks = 0;
      let next = this.lines[this.pos];
      while (next && next.text === '') {
        blanks++;
        this.pos++;
        next = this.lines[this.pos];
      }
      if (!next || next.indent <= parent) this.fail('the quoted text is not closed', l.no);
      this.pos++;
      lineNo = next.no;
      if (q === '"' && out.endsWith('\\\u0000')) out = out.slice(0, -2);
      else out += blanks > 0 ? '\n'.repeat(blanks) : ' ';
      buf = next.text;
    }
  }

  private blockScalar(l: Line, header: string, parent: number): string {
    const m = /^([|>])([+-]?)([1-9]?)([+-]?)$/.exec(header.trim());
    if (!m) this.fail(`a block scalar header "${printable(header)}" that is not supported`, l.no);
    const folded = m[1] === '>';
    const chomp = m[2] || m[4];
    const explicit = m[3] ? parent + Number(m[3]) : undefined;
    const body: string[] = [];
    let indent = explicit;
    while (this.pos < this.lines.length) {
      const x = this.lines[this.pos] as Line;
      if (x.text === '') {
        body.push('');
        this.pos++;
        continue;
      }
      if (indent === undefined) indent = x.indent;
      if (x.indent < indent || indent <= parent) break;
      body.push(' '.repeat(x.indent - indent) + x.text);
      this.pos++;
    }
    // Trailing blank lines belong to the chomping, not the text; a blank line that is not ours is given back.
    let trailing = 0;
    while (body.length > 0 && body[body.length - 1] === '') {
      body.pop();
      trailing++;
    }
    let text: string;
    if (folded) {
      text = '';
      for (let i = 0; i < body.length; i++) {
        const cur = body[i] as string;
        if (i > 0) {
          const prev = body[i - 1] as string;
          text += prev === '' || cur === '' || /^\s/.test(cur) || /^\s/.test(prev) ? '\n' : ' ';
        }
        text += cur;
      }
      text = text.replace(/\n\n/g, '\n');
    } else text = body.join('\n');
    if (body.length === 0) return '';
    if (chomp === '-') return text;
    if (chomp === '+') return text + '\n'.repeat(trailing + 1);
    return text + '\n';
  }

  private keyText(raw: string, line: number): string {
    if (raw.startsWith('"')) return unescapeDouble(raw.slice(1, -1), this.file, line);
    if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
    return raw;
  }
}

/** A flow collection on one line: `[a, 'b', 1]`, `{a: 1}`. Nested flow collections are allowed. */
class Flow {
  private i = 0;

  constructor(
    private readonly s: string,
    private readonly file: string,
    private readonly line: number,
  ) {}

  fail(reason: string): never {
    throw new YamlError(this.file, this.line, reason);
  }

  all(): YamlValue {
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail(`unexpected "${printable(this.s.slice(this.i))}" after the flow collection`);
    return v;
  }

  private ws(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  private value(): YamlValue {
    this.ws();
    const c = this.s[this.i];
    if (c === '[') {
      this.i++;
      const out: YamlValue[] = [];
      this.ws();
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      for (;;) {
        out.push(this.value());
        this.ws();
        if (this.s[this.i] === ',') {
          this.i++;
          this.ws();
          if (this.s[this.i] === ']') {
            this.i++;
            return out;
          }
          continue;
        }
        if (this.s[this.i] === ']') {
          this.i++;
          return out;
        }
        this.fail('a flow list must close with "]" on the same line');
      }
    }
    if (c === '{') {
      this.i++;
      const out: { [key: string]: YamlValue } = {};
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      for (;;) {
        const k = this.value();
        this.ws();
        if (this.s[this.i] !== ':') this.fail('expected ":" in a flow mapping');
        this.i++;
        const v = this.value();
        const key = String(k);
        if (Object.prototype.hasOwnProperty.call(out, key)) this.fail(`the key "${printable(key)}" is defined twice`);
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
        this.ws();
        if (this.s[this.i] === ',') {
          this.i++;
          continue;
        }
        if (this.s[this.i] === '}') {
          this.i++;
          return out;
        }
        this.fail('a flow mapping must close with "}" on the same line');
      }
    }
    if (c === '"' || c === "'") {
      const rest = this.s.slice(this.i + 1);
      const end = c === "'" ? findSingleEnd(rest) : findDoubleEnd(rest);
      if (end < 0) this.fail('the quoted text is not closed');
      this.i += end + 2;
      return c === "'" ? rest.slice(0, end).replace(/''/g, "'") : unescapeDouble(rest.slice(0, end), this.file, this.line);
    }
    const m = /^[^,[\]{}:]*(?::(?!\s)[^,[\]{}:]*)*/.exec(this.s.slice(this.i)) as RegExpExecArray;
    if (m[0].trim() === '') this.fail('a value is missing in the flow collection');
    this.i += m[0].length;
    return typed(m[0].trim());
  }
}

function findSingleEnd(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== "'") continue;
    if (s[i + 1] === "'") {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

function findDoubleEnd(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

/** Double-quoted escapes; with `continued`, a final backslash joins the next line without a space (marked \\\0). */
function unescapeDouble(s: string, file: string, line: number, continued = false): string {
  const map: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029' };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = s[i + 1];
    if (e === undefined) {
      if (continued) return out + '\\\u0000';
      throw new YamlError(file, line, 'a backslash ends the quoted text');
    }
    const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (len > 0) {
      const hex = s.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) throw new YamlError(file, line, `bad \\${e} escape`);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) throw new YamlError(file, line, `\\${e}${hex} is not a Unicode code point`);
      out += String.fromCodePoint(cp);
      i += 1 + len;
      continue;
    }
    const m = map[e];
    if (m === undefined) throw new YamlError(file, line, `unknown escape "\\${printable(e)}"`);
    out += m;
    i++;
  }
  return out;
}

/** Removes a comment (` #` outside quotes) and trailing blanks from a plain or flow text. */
function stripComment(s: string): string {
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === '\\' && q === '"') i++;
      else if (c === q) q = undefined;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s[{,]/.test(s[i - 1] as string)) q = c;
    } else if (c === '#' && (i === 0 || /\s/.test(s[i - 1] as string))) return s.slice(0, i).trimEnd();
  }
  return s.trimEnd();
}

/** PyYAML's resolution of plain scalars (YAML 1.1): null, booleans, integers and floats; anything else is text. */
function typed(s: string): YamlValue {
  if (/^(~|null|Null|NULL|)$/.test(s)) return null;
  if (/^(true|True|TRUE|yes|Yes|YES|on|On|ON)$/.test(s)) return true;
  if (/^(false|False|FALSE|no|No|NO|off|Off|OFF)$/.test(s)) return false;
  if (/^[-+]?(0|[1-9][0-9_]*)$/.test(s)) return Number(s.replace(/_/g, ''));
  if (/^[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+][0-9]+)?$/.test(s) && /[0-9]/.test(s)) return Number(s.replace(/_/g, ''));
  if (/^[-+]?\.(inf|Inf|INF)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(s)) return NaN;
  return s;
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 60);
}

/** Parses one YAML document; `file` names it in errors. */
export function parseYaml(text: string, file: string): YamlResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const raw = src.split(/\r?\n/);
  const lines: Line[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i] as string;
    const m = /^( *)(.*?)\s*$/.exec(t) as RegExpExecArray;
    if (/^ *\t/.test(t) && (m[2] as string) !== '') return { ok: false, error: new YamlError(file, i + 1, 'a tab in the indentation (YAML indents with spaces)') };
    const body = m[2] as string;
    if (i === 0 && body === '---') continue;
    if (/^%/.test(body) && (m[1] as string) === '') return { ok: false, error: new YamlError(file, i + 1, 'YAML directives are not supported') };
    lines.push({ no: i + 1, indent: (m[1] as string).length, text: body });
  }
  try {
    return { ok: true, value: new Parser(lines, file).document() };
  } catch (e) {
    if (e instanceof YamlError) return { ok: false, error: e };
    throw e;
  }
}
