// Where does the request state each spec? Sentence-level fuzzy matching: a spec and a request sentence match when
// they share enough content words (after light normalization), scored by the Dice coefficient of their word sets.

const STOPWORDS = new Set(
  ('a an and are as at be been but by can could do does for from has have if in into is it its itself may must ' +
    'no not of on or our shall should so such than that the their them then there these they this those to was ' +
    'we were what when where which while who will with would you your also any all each every only same other ' +
    'more most one two new use used using given given').split(' '),
);

/** Normalized content words of a text: lowercase, identifiers also split at `_`, simple plural/verb endings cut. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  const add = (w: string): void => {
    if (w.length < 2 || STOPWORDS.has(w)) return;
    out.add(stem(w));
  };
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const w = m[0];
    add(w);
    if (w.includes('_')) for (const part of w.split('_')) add(part);
  }
  return out;
}

function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('es') && /(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

export interface Span {
  start: number;
  end: number;
}

/** Sentences of a text: cut after . ! ? ; or : followed by white space, and at line breaks. */
export function splitSentences(text: string): Span[] {
  const out: Span[] = [];
  const re = /[.!?;:](?=\s)|\n/g;
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s] as string)) s++;
    while (e > s && /\s/.test(text[e - 1] as string)) e--;
    if (e > s) out.push({ start: s, end: e });
  };
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    push(m.index + 1);
    start = m.index + 1;
  }
  push(text.length);
  return out;
}

export interface SpecText {
  id: string;
  text: string;
}

export interface SpecMark extends Span {
  /** Index of the container (paragraph, heading, list item, table cell) the span is in. */
  container: number;
  spec: string;
  score: number;
}

/** A match counts when its Dice score reaches this and at least two content words are shared. */
export const MATCH_THRESHOLD = 0.3;
/** Other sentences as good as this fraction of the best one are marked too (a spec stated twice). */
const NEAR_BEST = 0.85;
/** Longest container text considered; beyond it matching would cost more than it shows. */
const MAX_CONTAINER_CHARS = 20_000;

/**
 * For each spec, the sentences of the containers that state it. `containers` are the plain texts of the request's
 * text blocks in document order.
 */
export function markSpecs(containers: readonly string[], specs: readonly SpecText[]): SpecMark[] {
  const sentences: Array<Span & { container: number; words: Set<string> }> = [];
  containers.forEach((text, container) => {
    if (text.length > MAX_CONTAINER_CHARS) return;
    for (const s of splitSentences(text)) {
      const words = contentWords(text.slice(s.start, s.end));
      if (words.size > 0) sentences.push({ ...s, container, words });
    }
  });
  const marks: SpecMark[] = [];
  for (const spec of specs) {
    const sw = contentWords(spec.text);
    if (sw.size === 0) continue;
    const scored: Array<{ i: number; score: number }> = [];
    sentences.forEach((s, i) => {
      let shared = 0;
      for (const w of sw) if (s.words.has(w)) shared++;
      const need = Math.min(2, sw.size);
      if (shared < need) return;
      const score = (2 * shared) / (sw.size + s.words.size);
      if (score >= MATCH_THRESHOLD) scored.push({ i, score });
    });
    if (scored.length === 0) continue;
    const best = Math.max(...scored.map((x) => x.score));
    for (const { i, score } of scored) {
      if (score < best * NEAR_BEST) continue;
      const s = sentences[i] as (typeof sentences)[number];
      marks.push({ container: s.container, start: s.start, end: s.end, spec: spec.id, score });
    }
  }
  return marks;
}
