// A small, strict reader for the YAML that run folders carry: SWE-bench experiments' `metadata.yaml`, SWE-agent's
// `args.yaml` (0.x) and `run_batch.config.yaml` (1.x, one quoted JSON string), exit-status files. It reads block
// mappings and sequences, plain, single- and double-quoted scalars (folded over lines), block scalars (`|`, `>`),
// comments and empty flow collections, as PyYAML writes them. Anything else (anchors, aliases, tags, complex keys,
// non-empty flow mappings, several documents) is refused with its line rather than guessed: the importer then
// names the file and does without its model name. No YAML library is a dependency of this project.
import { stripBom } from '../json';
import type { Problem } from '../model';

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export type YamlResult = { ok: true; value: YamlValue } | { ok: false; problem: Problem };

class YamlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

interface Line {
  /** 1-based line number. */
  no: number;
  indent: number;
  /** The line without its indentation (and without a trailing CR). */
  text: string;
}

const MAX_DEPTH = 64;

export function parseYaml(text: string, file: string): YamlResult {
  const lines: Line[] = stripBom(text)
    .split('\n')
    .map((raw, i) => {
      const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const indent = l.length - l.trimStart().length;
      return { no: i + 1, indent, text: l.slice(indent) };
    });
  try {
    const p = new Parser(lines);
    const value = p.document();
    return { ok: true, value };
  } catch (e) {
    if (e instanceof YamlError) return { ok: false, problem: { severity: 'error', file, line: e.line, message: `YAML this reader does not read: ${e.message}` } };
    throw e;
  }
}

const isBlank = (l: Line) => l.text === '' || l.text.startsWith('#');

class Parser {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  document(): YamlValue {
    this.skipBlank();
    if (this.peek()?.text === '---') {
      this.i++;
      this.skipBlank();
    }
    const first = this.peek();
    if (!first) return null;
    if (first.indent !== 0) throw new YamlError('the document does not start at column 1', first.no);
    const value = this.node(0, 0);
    this.skipBlank();
    const rest = this.peek();
    if (rest) throw new YamlError(rest.text === '---' || rest.text === '...' ? 'more than one document' : `unexpected "${clip(rest.text)}"`, rest.no);
    return value;
  }

  private peek(): Line | undefined {
    return this.lines[this.i];
  }

  private skipBlank(): void {
    while (this.i < this.lines.length && isBlank(this.lines[this.i] as Line)) this.i++;
  }

  /** The node starting at the current (non-blank) line, whose lines are indented `indent`. */
  private node(indent: number, depth: number): YamlValue {
    if (depth > MAX_DEPTH) throw new YamlError(`nested deeper than ${MAX_DEPTH} levels`, this.peek()?.no ?? 0);
    const l = this.peek() as Line;
    refuseFeatures(l);
    if (l.text === '-' || l.text.startsWith('- ')) return this.sequence(l.indent, depth);
    if (keyOf(l.text)) return this.mapping(l.indent, depth);
    this.i++;
    return this.scalar(l.text, l, indent - 1);
  }

  private mapping(indent: number, depth: number): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    for (;;) {
      this.skipBlank();
      const l = this.peek();
      if (!l || l.indent < indent) return out;
      if (l.indent > indent) throw new YamlError(`unexpected indentation at "${clip(l.text)}"`, l.no);
      refuseFeatures(l);
      const k = keyOf(l.text);
      if (!k) {
        if (l.text === '-' || l.text.startsWith('- ')) return out; // a sequence at the parent's indentation ends us
        throw new YamlError(`expected "key: value", found "${clip(l.text)}"`, l.no);
      }
      if (Object.prototype.hasOwnProperty.call(out, k.key)) throw new YamlError(`the key "${clip(k.key)}" appears twice`, l.no);
      this.i++;
      out[k.key] = this.valueAfterKey(k.rest, l, indent, depth);
    }
  }

  private sequence(indent: number, depth: number): YamlValue[] {
    const out: YamlValue[] = [];
    for (;;) {
      this.skipBlank();
      const l = this.peek();
      if (!l || l.indent !== indent || !(l.text === '-' || l.text.startsWith('- '))) {
        if (l && l.indent > indent) throw new YamlError(`unexpected indentation at "${clip(l.text)}"`, l.no);
        return out;
      }
      const after = l.text.slice(1);
      const content = after.trimStart();
      if (content === '' || content.startsWith('#')) {
        this.i++;
        this.skipBlank();
        const next = this.peek();
        out.push(next && next.indent > indent ? this.node(next.indent, depth + 1) : null);
        continue;
      }
      // "- key: value" opens a mapping whose keys sit where "key" starts: re-read this line as that mapping's first.
      const at = indent + 1 + (after.length - content.length);
      if (keyOf(content) || content === '-' || content.startsWith('- ')) {
        this.lines[this.i] = { no: l.no, indent: at, text: content };
        out.push(this.node(at, depth + 1));
        continue;
      }
      this.i++;
      out.push(this.scalar(content, l, indent));
    }
  }

  private valueAfterKey(rest: string, l: Line, indent: number, depth: number): YamlValue {
    if (rest === '' || rest.startsWith('#')) {
      this.skipBlank();
      const next = this.peek();
      if (!next) return null;
      if (next.indent > indent) return this.node(next.indent, depth + 1);
      // PyYAML writes a sequence value at the key's own indentation: "model:\n- name".
      if (next.indent === indent && (next.text === '-' || next.text.startsWith('- '))) return this.sequence(indent, depth + 1);
      return null;
    }
    return this.scalar(rest, l, indent);
  }

  /** A scalar that starts on line `l` with `text`; continuation lines must be indented more than `parentIndent`. */
  private scalar(text: string, l: Line, parentIndent: number): YamlValue {
    const c = text[0];
    if (c === '|' || c === '>') return this.blockScalar(text, l, parentIndent);
    if (c === "'" || c === '"') return this.quoted(text, l, parentIndent);
    if (c === '[' || c === '{') return flow(text, l);
    if (c === '&' || c === '*' || c === '!') throw new YamlError('anchors, aliases and tags are not supported', l.no);
    if (c === '?' && (text.length === 1 || text[1] === ' ')) throw new YamlError('complex keys are not supported', l.no);
    let value = stripComment(text);
    // A plain scalar may go on over more-indented lines, folded into one line.
    while (this.i < this.lines.length) {
      const n = this.lines[this.i] as Line;
      if (n.text === '' || n.indent <= parentIndent || n.text.startsWith('#') || keyOf(n.text) || n.text.startsWith('- ')) break;
      value += ` ${stripComment(n.text)}`;
      this.i++;
    }
    return resolvePlain(value);
  }

  private quoted(text: string, l: Line, parentIndent: number): string {
    const q = text[0] as string;
    const parts: string[] = [];
    let cur = text.slice(1);
    let line = l;
    for (;;) {
      const end = q === "'" ? singleEnd(cur) : doubleEnd(cur);
      if (end >= 0) {
        parts.push(cur.slice(0, end));
        const tail = cur.slice(end + 1).trim();
        if (tail !== '' && !tail.startsWith('#')) throw new YamlError(`text after a quoted scalar: "${clip(tail)}"`, line.no);
        break;
      }
      parts.push(cur);
      const next = this.lines[this.i];
      if (!next) throw new YamlError('a quoted scalar is not closed', line.no);
      if (next.text !== '' && next.indent <= parentIndent) throw new YamlError('a quoted scalar is not closed before the next key', line.no);
      this.i++;
      line = next;
      cur = next.text;
    }
    // Fold: a line break between two lines is a space, k blank lines between them are k newlines; the spaces
    // around a break go. In a double-quoted scalar an escaped break ("\" at the end of a line) joins the lines.
    const segs = parts.map((p, k) => {
      let x = p;
      if (k > 0) x = x.replace(/^[ \t]+/, '');
      if (k < parts.length - 1) x = x.replace(/[ \t]+$/, '');
      return x;
    });
    let out = segs[0] as string;
    let blanks = 0;
    for (let k = 1; k < segs.length; k++) {
      const seg = segs[k] as string;
      if (seg === '' && k < segs.length - 1) {
        blanks++;
        continue;
      }
      if (q === '"' && blanks === 0 && /(^|[^\\])(\\\\)*\\$/.test(out)) out = out.slice(0, -1);
      else out += blanks > 0 ? '\n'.repeat(blanks) : ' ';
      blanks = 0;
      out += seg;
    }
    return q === "'" ? out.replace(/''/g, "'") : unescapeDouble(out, l.no);
  }

  private blockScalar(header: string, l: Line, parentIndent: number): string {
    const m = /^([|>])([1-9])?([+-])?([1-9])?\s*(#.*)?$/.exec(header);
    if (!m) throw new YamlError(`a block scalar header "${clip(header)}" this reader does not read`, l.no);
    const literal = m[1] === '|';
    const chomp = m[3] ?? '';
    const explicit = m[2] ?? m[4];
    const body: Line[] = [];
    let indent = explicit ? parentIndent + Number(explicit) : -1;
    while (this.i < this.lines.length) {
      const n = this.lines[this.i] as Line;
      if (n.text !== '') {
        if (indent < 0) indent = n.indent;
        if (n.indent < indent || n.indent <= parentIndent) break;
      }
      body.push(n);
      this.i++;
    }
    // Trailing blank lines belong to the scalar only for chomping; put back none (they are blank anyway).
    const texts = body.map((n) => (n.text === '' ? '' : ' '.repeat(n.indent - Math.max(indent, 0)) + n.text));
    while (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
    let value = '';
    if (literal) value = texts.join('\n');
    else {
      // Folded: a break between two ordinary lines is a space, blank lines are newlines, more-indented lines keep theirs.
      let blanks = 0;
      let prevNormal = false;
      texts.forEach((t, k) => {
        if (t === '') {
          blanks++;
          return;
        }
        const normal = !t.startsWith(' ');
        if (k > 0) value += blanks > 0 ? '\n'.repeat(blanks + (prevNormal && normal ? 0 : 1)) : prevNormal && normal ? ' ' : '\n';
        value += t;
        blanks = 0;
        prevNormal = normal;
      });
    }
    if (texts.length === 0) return '';
    return chomp === '-' ? value : `${value}\n`;
  }
}

/** `key: rest` with a plain or quoted key; undefined when the text is no mapping entry. */
function keyOf(text: string): { key: string; rest: string } | undefined {
  if (text.startsWith('- ') || text === '-' || text.startsWith('#')) return undefined;
  if (text[0] === '"' || text[0] === "'") {
    const q = text[0];
    const end = q === "'" ? singleEnd(text.slice(1)) : doubleEnd(text.slice(1));
    if (end < 0) return undefined;
    const after = text.slice(end + 2);
    const m = /^\s*:(\s+|$)(.*)$/.exec(after);
    if (!m) return undefined;
    const raw = text.slice(1, end + 1);
    return { key: q === "'" ? raw.replace(/''/g, "'") : unescapeDouble(raw, 0), rest: (m[2] as string).trim() };
  }
  if (text[0] === '[' || text[0] === '{' || text[0] === '|' || text[0] === '>') return undefined;
  const m = /^([^#:\s][^:#]*?|[^#\s][^#]*?[^\s:]):(?:\s+(.*))?$/.exec(text);
  if (!m) return undefined;
  return { key: (m[1] as string).trim(), rest: (m[2] ?? '').trim() };
}

/** Index of the closing quote of a single-quoted scalar ('' is a quote inside it), or -1. */
function singleEnd(s: string): number {
  for (let k = 0; k < s.length; k++) {
    if (s[k] !== "'") continue;
    if (s[k + 1] === "'") {
      k++;
      continue;
    }
    return k;
  }
  return -1;
}

function doubleEnd(s: string): number {
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '\\') k++;
    else if (s[k] === '"') return k;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/', '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v', ' ': ' ', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029' };

function unescapeDouble(s: string, line: number): string {
  return s.replace(/\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (all, e: string) => {
    if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    const v = ESCAPES[e];
    if (v === undefined) throw new YamlError(`unknown escape "${all}" in a double-quoted scalar`, line);
    return v;
  });
}

function stripComment(s: string): string {
  const at = s.search(/\s#/);
  return (at >= 0 ? s.slice(0, at) : s).trim();
}

function resolvePlain(s: string): YamlValue {
  if (s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (/^(true|True|TRUE)$/.test(s)) return true;
  if (/^(false|False|FALSE)$/.test(s)) return false;
  if (/^[-+]?(0|[1-9][0-9_]*)$/.test(s)) return Number(s.replace(/_/g, ''));
  if (/^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/.test(s)) return Number(s.replace(/_/g, ''));
  return s;
}

/** Flow collections: empty ones, and flow sequences of plain or quoted scalars on one line. */
function flow(text: string, l: Line): YamlValue {
  const t = stripComment(text);
  if (t === '[]') return [];
  if (t === '{}') return {};
  if (t.startsWith('[') && t.endsWith(']') && !/[[\]{}]/.test(t.slice(1, -1))) {
    return t
      .slice(1, -1)
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '')
      .map((x) => (x.startsWith("'") && x.endsWith("'") ? x.slice(1, -1).replace(/''/g, "'") : x.startsWith('"') && x.endsWith('"') ? unescapeDouble(x.slice(1, -1), l.no) : resolvePlain(x)));
  }
  throw new YamlError('flow collections with content are not supported', l.no);
}

function refuseFeatures(l: Line): void {
  if (/^(&|\*|!)/.test(l.text)) throw new YamlError('anchors, aliases and tags are not supported', l.no);
  if (l.text.startsWith('? ')) throw new YamlError('complex keys are not supported', l.no);
  if (l.text === '---' || l.text === '...') throw new YamlError('more than one document', l.no);
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
