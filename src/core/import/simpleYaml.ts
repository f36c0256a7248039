// The project's one YAML reader: small and strict, for the YAML that Python's `yaml.dump`/`yaml.safe_dump` writes
// (SWE-bench task folders' `task.yaml`, Terminal-Bench 1's `task.yaml`, SWE-bench experiments' `metadata.yaml`,
// SWE-agent's `args.yaml` and `run_batch.config.yaml`). It reads block mappings and sequences
// (compact nested ones, `- - 1`, too), plain, single- and double-quoted scalars folded over lines, block scalars
// (`|`, `>`, with chomping and indentation indicators), comments, and flow collections on one line (`[a, 'b', 1]`,
// `{a: 1}`). Plain scalars are typed as PyYAML's `safe_load` types them (YAML 1.1: null, booleans, integers in
// decimal, octal, hex, binary and base 60, floats; timestamps stay text), and keys are named as Python's json.dumps
// names the keys PyYAML reads. What PyYAML would read differently or refuse, and what this reader does not read
// (anchors, aliases, tags, complex keys, merge keys, directives, several documents, flow collections over several
// lines, duplicate keys, tabs in the indentation, integers past 2^53, nesting deeper than MAX_YAML_DEPTH), is a
// Problem naming the file and line, never a guess. No YAML library is a dependency of this project.
import { stripBom } from '../json';
import type { Problem } from '../model';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export type YamlResult = { ok: true; value: YamlValue } | { ok: false; problem: Problem };

/** Mappings and sequences (block or flow) nested deeper than this are refused, so the stack never overflows. */
export const MAX_YAML_DEPTH = 64;

class YamlError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface Line {
  /** 1-based line number. */
  no: number;
  /** Leading spaces. */
  indent: number;
  /** The text after the indentation, as written (trailing blanks kept; no line break). */
  body: string;
  /** `body` without trailing blanks. */
  text: string;
  /** Whether a line break ends the line (false only for a last line without one). */
  eol: boolean;
}

/** Parses one YAML document; `file` names it in the problem. */
export function parseYaml(text: string, file: string): YamlResult {
  try {
    return { ok: true, value: new Parser(splitLines(stripBom(text))).document() };
  } catch (e) {
    if (e instanceof YamlError) return { ok: false, problem: { severity: 'error', file, line: e.line, message: e.reason } };
    throw e;
  }
}

// What PyYAML's reader refuses (its NON_PRINTABLE), and the line breaks it knows besides \n, \r\n and \r.
const NON_PRINTABLE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
const OTHER_BREAK = /[\x85\u2028\u2029]/;
const BREAK = /\r\n|\r|\n/;

const hex4 = (c: string) => (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');

function splitLines(src: string): Line[] {
  const bad = NON_PRINTABLE.exec(src);
  if (bad) throw new YamlError(lineOf(src, bad.index), `the control character U+${hex4(bad[0])} (YAML allows none; PyYAML refuses it)`);
  const br = OTHER_BREAK.exec(src);
  if (br) throw new YamlError(lineOf(src, br.index), `a line break other than \\n, \\r\\n or \\r (U+${hex4(br[0])}) that this reader does not read`);
  const raw = src.split(BREAK);
  return raw.map((s, i) => {
    const no = i + 1;
    let indent = 0;
    while (s[indent] === ' ') indent++;
    const body = s.slice(indent);
    return { no, indent, body, text: trimEnd(body), eol: i < raw.length - 1 };
  });
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t';
// YAML's blanks are spaces and tabs only: String.prototype.trim would also take U+00A0 and others, which PyYAML keeps.
function trimStart(s: string): string {
  let i = 0;
  while (isSpace(s[i])) i++;
  return s.slice(i);
}
function trimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isSpace(s[end - 1])) end--;
  return s.slice(0, end);
}
const trim = (s: string) => trimEnd(trimStart(s));
/** 1-based line of a character offset. */
const lineOf = (s: string, at: number) => s.slice(0, at).split(BREAK).length;
const isSeqEntry = (t: string) => t === '-' || t.startsWith('- ');
const isComplexKey = (t: string) => t === '?' || t.startsWith('? ') || t.startsWith('?\t');
const isDocStart = (t: string) => t === '---' || (t.startsWith('---') && isSpace(t[3]));
const isDocEnd = (t: string) => t === '...' || (t.startsWith('...') && isSpace(t[3]));
/** `---` or `...` at column 1. */
const isMarker = (l: Line) => l.indent === 0 && (isDocStart(l.text) || isDocEnd(l.text));
/** A blank or comment-only line (for the structure; block and quoted scalars read lines themselves). */
const isBlank = (l: Line) => trimStart(l.text) === '' || trimStart(l.text).startsWith('#');

/** Whether a plain scalar may start with `t` (PyYAML's check_plain, in the block context). */
function plainStart(t: string): boolean {
  const c = t[0];
  if (c === undefined) return false;
  if (',[]{}#&*!|>\'"%@`'.includes(c)) return false;
  return !('-?:'.includes(c) && (t.length === 1 || isSpace(t[1])));
}

/** `key:` at the start of `t`: a plain or one-line quoted key; `rest` is the index after the colon. */
function keyOf(t: string, line: number): { key: string; plain: boolean; rest: number } | undefined {
  const q = t[0];
  if (q === '"' || q === "'") {
    const end = quoteEnd(t, 1, q);
    if (end < 0) return undefined;
    let j = end + 1;
    while (isSpace(t[j])) j++;
    if (t[j] !== ':' || (j + 1 < t.length && t[j + 1] !== ' ')) return undefined;
    const raw = t.slice(1, end);
    return { key: q === "'" ? raw.replace(/''/g, "'") : unescapeDouble(raw, line), plain: false, rest: j + 1 };
  }
  if (!plainStart(t)) return undefined;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '#' && i > 0 && isSpace(t[i - 1])) return undefined;
    if (t[i] === ':' && (i + 1 === t.length || t[i + 1] === ' ')) return { key: trimEnd(t.slice(0, i)), plain: true, rest: i + 1 };
  }
  return undefined;
}

/** A plain scalar's text on one line, cut at its comment (` #`). */
function plainLine(t: string): { value: string; comment: boolean } {
  for (let i = 1; i < t.length; i++) if (t[i] === '#' && isSpace(t[i - 1])) return { value: trimEnd(t.slice(0, i)), comment: true };
  return { value: trimEnd(t), comment: false };
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly lines: Line[]) {}

  private fail(reason: string, line: number): never {
    throw new YamlError(line, reason);
  }

  /** The next line that holds structure; blank and comment lines are skipped, a tab in the indentation refused. */
  private peek(): Line | undefined {
    while (this.pos < this.lines.length) {
      const l = this.lines[this.pos] as Line;
      if (l.body.startsWith('\t') && l.text !== '') this.fail('a tab in the indentation (YAML indents with spaces)', l.no);
      if (!isBlank(l)) return l;
      this.pos++;
    }
    return undefined;
  }

  /** Runs `f` one level deeper, refusing nesting past MAX_YAML_DEPTH. */
  private nested<T>(line: number, f: () => T): T {
    if (++this.depth > MAX_YAML_DEPTH) this.fail(`nested deeper than ${MAX_YAML_DEPTH} levels`, line);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  document(): YamlValue {
    const first = this.peek();
    if (!first) return null;
    if (first.indent === 0 && first.text.startsWith('%')) this.fail('YAML directives are not supported', first.no);
    if (first.indent === 0 && isDocEnd(first.text)) this.fail('a document end (...) with no document before it', first.no);
    let value: YamlValue = null;
    if (first.indent === 0 && isDocStart(first.text)) {
      this.pos++;
      const rest = first.body.slice(3).replace(/^[ \t]+/, '');
      // `--- value`: a scalar on the marker's line (a mapping or a list there is refused, as PyYAML refuses it).
      if (trim(rest) !== '' && !rest.startsWith('#')) value = this.scalarValue(first, rest, -1);
      else {
        const l = this.peek();
        if (l && !isMarker(l)) value = this.block(l.indent, -1);
      }
    } else value = this.block(first.indent, -1);
    this.end();
    return value;
  }

  /** After the document: nothing, or a `...` and nothing. */
  private end(): void {
    let rest = this.peek();
    if (!rest) return;
    if (rest.indent === 0 && isDocEnd(rest.text)) {
      const after = trimStart(rest.text.slice(3));
      if (after === '' || after.startsWith('#')) {
        this.pos++;
        rest = this.peek();
        if (!rest) return;
      }
    }
    if (isMarker(rest)) this.fail('several YAML documents in one file are not supported', rest.no);
    this.fail(rest.indent > 0 ? `unexpected indentation at "${printable(rest.text)}"` : `unexpected "${printable(rest.text)}"`, rest.no);
  }

  /** The node whose first line is the next one, indented `indent`, inside a block indented `parent`. */
  private block(indent: number, parent: number): YamlValue {
    const l = this.peek();
    if (!l || isMarker(l)) return null;
    if (l.indent !== indent) this.fail(`unexpected indentation at "${printable(l.text)}"`, l.no);
    const t = l.text;
    if (/^[&*!]/.test(t)) this.fail('anchors, aliases and tags are not supported', l.no);
    if (isComplexKey(t)) this.fail('complex keys (?) are not supported', l.no);
    if (isSeqEntry(t)) return this.sequence(indent);
    if (keyOf(t, l.no)) return this.mapping(indent);
    this.pos++;
    return this.scalarValue(l, l.body, parent);
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    return this.nested((this.peek() as Line).no, () => {
      const out = new Map<string, YamlValue>();
      const seen = new Set<string>();
      for (;;) {
        const l = this.peek();
        // fromEntries defines own properties: a key named __proto__ is an ordinary key.
        if (!l || l.indent < indent || isMarker(l)) return Object.fromEntries(out);
        if (l.indent > indent) this.fail(`unexpected indentation at "${printable(l.text)}"`, l.no);
        const t = l.text;
        if (/^[&*!]/.test(t)) this.fail('anchors, aliases and tags are not supported', l.no);
        if (isComplexKey(t)) this.fail('complex keys (?) are not supported', l.no);
        const k = keyOf(t, l.no);
        if (!k) this.fail(isSeqEntry(t) ? 'a list item where a key was expected' : `expected "key: value", found "${printable(t)}"`, l.no);
        if (k.plain && k.key === '<<') this.fail('merge keys (<<) are not supported', l.no);
        const { name, id } = mappingKey(k.key, k.plain, l.no);
        if (seen.has(id) || out.has(name)) this.fail(`the key "${printable(name)}" is defined twice`, l.no);
        seen.add(id);
        this.pos++;
        out.set(name, this.valueAfter(l, k.rest, indent, true));
      }
    });
  }

  private sequence(indent: number): YamlValue[] {
    return this.nested((this.peek() as Line).no, () => {
      const out: YamlValue[] = [];
      for (;;) {
        const l = this.peek();
        if (!l || l.indent < indent || isMarker(l)) return out;
        if (l.indent > indent) this.fail(`unexpected indentation at "${printable(l.text)}"`, l.no);
        if (!isSeqEntry(l.text)) return out;
        let off = 1;
        while (l.body[off] === ' ') off++;
        if (l.body[off] === '\t') this.fail('a tab after "-" (PyYAML refuses it; use spaces)', l.no);
        const content = l.text.slice(off);
        if (content === '' || content.startsWith('#')) {
          this.pos++;
          const next = this.peek();
          out.push(next && !isMarker(next) && next.indent > indent ? this.block(next.indent, indent) : null);
          continue;
        }
        // `- key: value` and `- - item` open a mapping or a list whose lines sit at the column after the dash:
        // read this line again as its first, from that column.
        if (isSeqEntry(content) || keyOf(content, l.no)) {
          this.lines[this.pos] = { ...l, indent: indent + off, body: l.body.slice(off), text: content };
          out.push(this.block(indent + off, indent));
          continue;
        }
        if (isComplexKey(content)) this.fail('complex keys (?) are not supported', l.no);
        this.pos++;
        out.push(this.scalarValue(l, l.body.slice(off), indent));
      }
    });
  }

  /** The value after `key:` (from index `at` of line `l`): on the line, or a block on the following lines. */
  private valueAfter(l: Line, at: number, indent: number, inMapping: boolean): YamlValue {
    const rest = l.body.slice(at).replace(/^ +/, '');
    if (rest.startsWith('\t')) this.fail('a tab after ":" (PyYAML refuses it; use spaces)', l.no);
    const t = trimEnd(rest);
    if (t === '' || t.startsWith('#')) {
      const next = this.peek();
      if (!next || isMarker(next)) return null;
      if (next.indent > indent) return this.block(next.indent, indent);
      // PyYAML writes a mapping's list at the key's own indentation.
      if (inMapping && next.indent === indent && isSeqEntry(next.text)) return this.sequence(indent);
      return null;
    }
    return this.scalarValue(l, rest, indent);
  }

  /** A scalar or flow collection that starts on line `l` with `rest` (as written), inside a block indented `parent`. */
  private scalarValue(l: Line, rest: string, parent: number): YamlValue {
    const t = trimEnd(rest);
    const c = t[0] as string;
    if ('&*!'.includes(c)) this.fail('anchors, aliases and tags are not supported', l.no);
    if (isComplexKey(t)) this.fail('complex keys (?) are not supported', l.no);
    if (c === '|' || c === '>') return this.blockScalar(l, t, parent);
    if (c === '"' || c === "'") return this.quoted(l, rest);
    if (c === '[' || c === '{') return new Flow(stripFlowComment(t), l.no, this.depth).all();
    if (isSeqEntry(t)) this.fail('a list item where a value was expected', l.no);
    if (!plainStart(t)) this.fail(`a plain value cannot start with "${printable(c)}" (PyYAML refuses it; quote the value)`, l.no);
    // A plain scalar, folded over its continuation lines: those indented more than `parent`, until a comment.
    const first = plainLine(t);
    if (/:([ \t]|$)/.test(first.value)) this.fail('": " inside a plain value (PyYAML refuses it; quote the value)', l.no);
    let out = first.value;
    let comment = first.comment;
    while (!comment) {
      let n = this.pos;
      let blanks = 0;
      while (n < this.lines.length && (this.lines[n] as Line).text === '') {
        n++;
        blanks++;
      }
      const next = this.lines[n];
      if (!next || next.indent <= parent || isMarker(next) || next.text.startsWith('#') || next.body.startsWith('\t')) break;
      const p = plainLine(next.text);
      // A key here is an error PyYAML makes too; leaving the line makes it "unexpected indentation" below.
      if (/:([ \t]|$)/.test(p.value)) break;
      out += (blanks > 0 ? '\n'.repeat(blanks) : ' ') + p.value;
      comment = p.comment;
      this.pos = n + 1;
    }
    return typed(out, l.no);
  }

  /** A quoted scalar that starts on line `l` with `rest` (its opening quote first). */
  private quoted(l: Line, rest: string): string {
    const q = rest[0] as string;
    let cur = rest.slice(1);
    let line = l;
    let out = '';
    for (;;) {
      // One line of the scalar: escapes, and blanks kept unless a line break follows them.
      let ws = '';
      let closed = -1;
      let joined = false;
      for (let i = 0; i < cur.length; i++) {
        const ch = cur[i] as string;
        if (q === "'" && ch === "'") {
          if (cur[i + 1] === "'") {
            out += `${ws}'`;
            ws = '';
            i++;
            continue;
          }
          closed = i;
          break;
        }
        if (q === '"' && ch === '"') {
          closed = i;
          break;
        }
        if (q === '"' && ch === '\\') {
          if (i + 1 === cur.length) {
            out += ws;
            ws = '';
            joined = true;
            break;
          }
          const e = escapeAt(cur, i, line.no);
          out += ws + e.text;
          ws = '';
          i = e.next - 1;
          continue;
        }
        if (isSpace(ch)) ws += ch;
        else {
          out += ws + ch;
          ws = '';
        }
      }
      if (closed >= 0) {
        out += ws;
        const tail = trim(cur.slice(closed + 1));
        if (tail !== '' && !tail.startsWith('#')) this.fail(`unexpected "${printable(tail)}" after the quoted text`, line.no);
        return out;
      }
      // The scalar goes on, at any indentation (as in PyYAML): a line break is a space, k blank lines are k
      // newlines; after an escaped line break ("\" at the end of a line) only the blank lines count.
      let blanks = 0;
      let next = this.lines[this.pos];
      while (next && next.text === '' && next.eol) {
        blanks++;
        this.pos++;
        next = this.lines[this.pos];
      }
      if (!next || (next.text === '' && !next.eol) || isMarker(next)) this.fail('a quoted scalar is not closed', l.no);
      this.pos++;
      out += blanks > 0 ? '\n'.repeat(blanks) : joined ? '' : ' ';
      line = next;
      cur = next.body.replace(/^[ \t]+/, '');
    }
  }

  /** A block scalar (`|` literal, `>` folded) whose header `header` is on line `l`, as PyYAML's scanner reads it. */
  private blockScalar(l: Line, header: string, parent: number): string {
    const m = /^([|>])(?:([+-])([1-9])?|([1-9])([+-])?)?(?:[ \t]+(?:#.*)?)?$/.exec(header);
    if (!m) this.fail(`a block scalar header "${printable(header)}" that is not supported`, l.no);
    const folded = m[1] === '>';
    const chomp = m[2] ?? m[5] ?? '';
    const increment = m[3] ?? m[4];
    const minIndent = Math.max(parent + 1, 1);
    let indent: number;
    if (increment) indent = minIndent + Number(increment) - 1;
    else {
      // The first non-blank line sets the indentation; blank lines before it may only widen it (as in PyYAML).
      let n = this.pos;
      let widest = 0;
      while (n < this.lines.length && (this.lines[n] as Line).body === '') widest = Math.max(widest, (this.lines[n++] as Line).indent);
      indent = Math.max(minIndent, widest, this.lines[n]?.indent ?? 0);
    }
    // Lines of the scalar: a blank one has no more spaces than the indentation, a text line at least as many.
    const entries: Array<{ text?: string; eol: boolean }> = [];
    while (this.pos < this.lines.length) {
      const x = this.lines[this.pos] as Line;
      if (x.body === '' && x.indent <= indent) entries.push({ eol: x.eol });
      else if (x.indent >= indent) entries.push({ text: ' '.repeat(x.indent - indent) + x.body, eol: x.eol });
      else break;
      this.pos++;
    }
    let out = '';
    let breaks = 0;
    let prev: { text?: string; eol: boolean } | undefined;
    for (const e of entries) {
      if (e.text === undefined) {
        if (e.eol) breaks++;
        continue;
      }
      if (!prev) out += '\n'.repeat(breaks);
      else if (folded && !isSpace(prev.text?.[0]) && !isSpace(e.text[0])) out += breaks === 0 ? ' ' : '\n'.repeat(breaks);
      else out += '\n'.repeat(breaks + 1);
      out += e.text;
      breaks = 0;
      prev = e;
    }
    if (chomp !== '-' && prev?.eol) out += '\n';
    if (chomp === '+') out += '\n'.repeat(breaks);
    return out;
  }
}

/** A flow collection on one line: `[a, 'b', 1]`, `{a: 1, b: [c]}`. */
class Flow {
  private i = 0;

  constructor(
    private readonly s: string,
    private readonly line: number,
    private depth: number,
  ) {}

  private fail(reason: string): never {
    throw new YamlError(this.line, reason);
  }

  all(): YamlValue {
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail(`unexpected "${printable(this.s.slice(this.i))}" after the flow collection`);
    return v;
  }

  private ws(): void {
    while (isSpace(this.s[this.i])) this.i++;
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_YAML_DEPTH) this.fail(`nested deeper than ${MAX_YAML_DEPTH} levels`);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private value(): YamlValue {
    this.ws();
    const c = this.s[this.i];
    if (c === '[') return this.nested(() => this.list());
    if (c === '{') return this.nested(() => this.map());
    if (c === '"' || c === "'") return this.quoted();
    return typed(this.plain(), this.line);
  }

  private list(): YamlValue[] {
    this.i++;
    const out: YamlValue[] = [];
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) this.fail('a flow list must close with "]" on the same line');
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.ws();
      const c = this.s[this.i];
      if (c === ',') this.i++;
      else if (c === ':') this.fail('a "key: value" pair inside a flow list is not supported');
      else if (c !== ']') this.fail('a flow list must close with "]" on the same line');
    }
  }

  private map(): { [key: string]: YamlValue } {
    this.i++;
    const out = new Map<string, YamlValue>();
    const seen = new Set<string>();
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) this.fail('a flow mapping must close with "}" on the same line');
      if (this.s[this.i] === '}') {
        this.i++;
        return Object.fromEntries(out);
      }
      const c = this.s[this.i];
      if (c === '[' || c === '{') this.fail('a flow collection as a key is not supported');
      const quoted = c === '"' || c === "'";
      const key = quoted ? this.quoted() : this.plain();
      if (!quoted && key === '<<') this.fail('merge keys (<<) are not supported');
      const { name, id } = mappingKey(key, !quoted, this.line);
      if (seen.has(id) || out.has(name)) this.fail(`the key "${printable(name)}" is defined twice`);
      seen.add(id);
      this.ws();
      if (this.s[this.i] !== ':') this.fail('expected ":" in a flow mapping');
      this.i++;
      this.ws();
      const next = this.s[this.i];
      if (next === ',' || next === '}' || next === undefined) this.fail(`the key "${printable(key)}" has no value in the flow mapping`);
      out.set(name, this.value());
      this.ws();
      const e = this.s[this.i];
      if (e === ',') this.i++;
      else if (e !== '}') this.fail('a flow mapping must close with "}" on the same line');
    }
  }

  private quoted(): string {
    const q = this.s[this.i] as string;
    const end = quoteEnd(this.s, this.i + 1, q);
    if (end < 0) this.fail('the quoted text is not closed');
    const raw = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    return q === "'" ? raw.replace(/''/g, "'") : unescapeDouble(raw, this.line);
  }

  /** A plain scalar in a flow collection: up to `,`, `?`, a bracket, or `:` before a blank or a bracket (PyYAML's scan_plain). */
  private plain(): string {
    const s = this.s;
    const c = s[this.i];
    if (c === '&' || c === '*' || c === '!') this.fail('anchors, aliases and tags are not supported');
    // In a flow collection PyYAML takes `?` for a complex key and `:` for a value wherever they start a value.
    if (c === '?') this.fail('complex keys (?) are not supported');
    if (c === undefined || ',[]{}#|>%@`:'.includes(c) || (c === '-' && (this.i + 1 === s.length || isSpace(s[this.i + 1])))) this.fail(c === undefined || c === ',' || c === ']' || c === '}' ? 'a value is missing in the flow collection' : `a value in a flow collection cannot start with "${printable(c)}"`);
    let j = this.i;
    while (j < s.length) {
      const ch = s[j] as string;
      if (',?[]{}'.includes(ch)) break;
      if (ch === ':' && (j + 1 === s.length || isSpace(s[j + 1]) || ',[]{}'.includes(s[j + 1] as string))) break;
      j++;
    }
    const v = trim(s.slice(this.i, j));
    this.i = j;
    return v;
  }
}

/** Index of the quote `q` that closes a scalar whose text starts at `from` (`''` and `\"` are inside it), or -1. */
function quoteEnd(s: string, from: number, q: string): number {
  for (let i = from; i < s.length; i++) {
    if (q === '"' && s[i] === '\\') i++;
    else if (s[i] === q) {
      if (q === "'" && s[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

const ESCAPES: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029' };

/**
 * The double-quoted escape at `s[i]` (a backslash) and the index after it. A surrogate (\ud800-\udfff) is refused:
 * PyYAML keeps two of them as two characters, JavaScript would join them into one.
 */
function escapeAt(s: string, i: number, line: number): { text: string; next: number } {
  const e = s[i + 1];
  if (e === undefined) throw new YamlError(line, 'a backslash ends the quoted text');
  const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
  if (len === 0) {
    const m = ESCAPES[e];
    if (m === undefined) throw new YamlError(line, `unknown escape "\\${printable(e)}"`);
    return { text: m, next: i + 2 };
  }
  const hex = s.slice(i + 2, i + 2 + len);
  if (hex.length !== len || !/^[0-9A-Fa-f]+$/.test(hex)) throw new YamlError(line, `bad \\${e} escape`);
  const cp = parseInt(hex, 16);
  if (cp > 0x10ffff) throw new YamlError(line, `\\${e}${hex} is not a Unicode code point`);
  if (cp >= 0xd800 && cp <= 0xdfff) throw new YamlError(line, `\\${e}${hex} is a surrogate, which this reader does not read`);
  return { text: String.fromCodePoint(cp), next: i + 2 + len };
}

/** A one-line double-quoted text (between its quotes) with its escapes read. */
function unescapeDouble(s: string, line: number): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const at = s.indexOf('\\', i);
    if (at < 0) return out + s.slice(i);
    out += s.slice(i, at);
    const e = escapeAt(s, at, line);
    out += e.text;
    i = e.next;
  }
  return out;
}

/** Removes a comment (` #` outside quotes) and trailing blanks from a flow collection's text. */
function stripFlowComment(s: string): string {
  let q: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === '\\' && q === '"') i++;
      else if (c === q) q = undefined;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s[{,:]/.test(s[i - 1] as string)) q = c;
    } else if (c === '#' && (i === 0 || isSpace(s[i - 1]))) return trimEnd(s.slice(0, i));
  }
  return trimEnd(s);
}

// PyYAML's implicit resolvers (YAML 1.1), in `yaml/resolver.py`.
const INT_RE = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT_RE = /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

type Resolved = { kind: 'null'; value: null } | { kind: 'bool'; value: boolean } | { kind: 'int' | 'float'; value: number } | { kind: 'str'; value: string };

/** A plain scalar as PyYAML's safe_load reads it: null, a boolean, a number, or the text (timestamps stay text). */
function resolve(s: string, line: number): Resolved {
  if (/^(?:~|null|Null|NULL|)$/.test(s)) return { kind: 'null', value: null };
  if (/^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/.test(s)) return { kind: 'bool', value: true };
  if (/^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/.test(s)) return { kind: 'bool', value: false };
  if (FLOAT_RE.test(s)) return { kind: 'float', value: yamlFloat(s) };
  if (INT_RE.test(s)) return { kind: 'int', value: yamlInt(s, line) };
  if (s === '<<') throw new YamlError(line, 'merge keys (<<) are not supported');
  if (s === '=') throw new YamlError(line, 'the value "=" (PyYAML refuses it; quote it)');
  return { kind: 'str', value: s };
}

const typed = (s: string, line: number): YamlValue => resolve(s, line).value;

function yamlInt(s: string, line: number): number {
  let v = s.replace(/_/g, '');
  const sign = v[0] === '-' ? -1n : 1n;
  if (v[0] === '-' || v[0] === '+') v = v.slice(1);
  let n: bigint;
  const digits = v.startsWith('0b') || v.startsWith('0x') ? v.slice(2) : v;
  if (digits === '' || digits.length > 64) throw new YamlError(line, `the integer "${printable(s)}" is not one this reader reads exactly`);
  if (v === '0') n = 0n;
  else if (v.startsWith('0b')) n = BigInt(`0b${digits}`);
  else if (v.startsWith('0x')) n = BigInt(`0x${digits}`);
  else if (v.startsWith('0')) n = BigInt(`0o${v.slice(1)}`);
  else if (v.includes(':')) n = v.split(':').reduce((acc, part) => acc * 60n + BigInt(part), 0n);
  else n = BigInt(v);
  n *= sign;
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) throw new YamlError(line, `the integer ${printable(s)} is too large to read exactly (quote it)`);
  return Number(n);
}

function yamlFloat(s: string): number {
  let v = s.replace(/_/g, '').toLowerCase();
  const sign = v[0] === '-' ? -1 : 1;
  if (v[0] === '-' || v[0] === '+') v = v.slice(1);
  if (v === '.inf') return sign * Infinity;
  if (v === '.nan') return NaN;
  if (v.includes(':')) return sign * v.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
  return sign * Number(v);
}

/**
 * A mapping key: its `name` is what Python's json.dumps makes of the key PyYAML reads (`1` and `0x1` are "1", `yes`
 * is "true", `~` is "null", `1.5e+3` is "1500.0"), and keys PyYAML takes for one key get the same `id` (equal
 * numbers, and true is 1; nulls; equal texts).
 */
function mappingKey(key: string, plain: boolean, line: number): { name: string; id: string } {
  const r: Resolved = plain ? resolve(key, line) : { kind: 'str', value: key };
  switch (r.kind) {
    case 'str':
      return { name: r.value, id: `s:${r.value}` };
    case 'null':
      return { name: 'null', id: 'null' };
    case 'bool':
      return { name: String(r.value), id: `n:${Number(r.value)}` };
    case 'int':
      return { name: String(r.value), id: `n:${r.value}` };
    case 'float':
      return { name: pythonFloat(r.value), id: Number.isNaN(r.value) ? `nan:${key}` : `n:${r.value}` };
  }
}

/** Python's repr of a float, as json.dumps writes a float key. */
function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [m, e] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = m.replace('.', '');
  const exp = Number(e);
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 16) return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.padEnd(exp + 1, '0');
  return `${sign}${whole.slice(0, exp + 1)}.${whole.slice(exp + 1) || '0'}`;
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 60);
}
