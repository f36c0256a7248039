// Gold mutants: deterministic mutations of the lines a gold patch adds, each a whole patch against the base that
// differs from the gold patch in that one line (mutated in place, so every hunk keeps its counts and still applies).
// A mutant the tests still accept is evidence that they do not check what the mutated line does (docs/probes.md).
import { createHash } from 'node:crypto';
import { applyFilePatch, filePath, parsePatch } from '../patch';
import type { FilePatch, Hunk } from '../patch';
import type { Edit } from './operators';
import { OPERATOR_NAMES, languageOf } from './operators';

export interface Mutant {
  /** `<operator>-<hash>`, the hash over file, line, column and the mutated line: the same on every run. */
  id: string;
  operator: string;
  /** The file's path in the repository (its new path). */
  file: string;
  /** 1-based line in the patched file. */
  line: number;
  /** 1-based column of the change. */
  column: number;
  /** The added line as the gold patch has it, and as the mutant has it (without the leading `+`). */
  before: string;
  after: string;
  /** The whole gold patch with that one added line changed: a unified diff against the base. */
  patch: string;
}

/** A mutation that was not made, and why (a hunk that lies about its counts, a file that does not match its base...). */
export interface SkippedMutation {
  file: string;
  /** 1-based line in the patched file, where the skip is about one line. */
  line?: number;
  operator?: string;
  reason: string;
}

export interface MutantSet {
  mutants: Mutant[];
  skipped: SkippedMutation[];
  /** Files the gold patch changes that no operator table covers (by language). */
  unsupportedFiles: string[];
}

/**
 * `base`: the text of each file the patch changes as it is at the base commit, by repository path (undefined or
 * absent: not known, e.g. a repository held in an image); with it, each file's hunks are checked to apply.
 */
export function goldMutants(goldPatch: string, base: ReadonlyMap<string, string | undefined> = new Map()): MutantSet {
  const bom = goldPatch.startsWith('\ufeff') ? '\ufeff' : '';
  const raw = goldPatch.slice(bom.length).split('\n');
  const parsed = parsePatch(goldPatch);
  const lyingHunks = new Set(parsed.problems.filter((p) => /hunk header/.test(p.message)).map((p) => p.line));
  const mutants: Mutant[] = [];
  const skipped: SkippedMutation[] = [];
  const unsupportedFiles: string[] = [];
  const seen = new Set<string>();

  for (const fp of parsed.files) {
    const file = filePath(fp);
    const lang = languageOf(file);
    if (fp.status === 'binary' || fp.status === 'deleted' || fp.additions === 0) continue;
    if (!lang) {
      unsupportedFiles.push(file);
      continue;
    }
    const bad = fp.hunks.find((h) => lyingHunks.has(h.patchLine));
    if (bad) {
      skipped.push({ file, reason: `a hunk header (patch line ${bad.patchLine}) disagrees with its body: git apply would refuse any mutant of this file` });
      continue;
    }
    const baseText = fp.status === 'added' ? '' : base.get(fp.oldPath ?? file);
    let newText = '';
    if (baseText !== undefined) {
      const applied = applyFilePatch(baseText, fp);
      if (!applied.ok) {
        skipped.push({ file, reason: `the gold patch does not apply to the base file (${applied.reason}): no mutant of it would` });
        continue;
      }
      newText = applied.text;
    }
    const importsMath = lang.importsMath(newText || goldPatch);
    for (const hunk of fp.hunks) {
      // The new side of the hunk, with the patch line of each added line.
      const side: { text: string; added: boolean; rawIndex: number; newLine: number }[] = [];
      let newLine = hunk.newStart;
      hunk.lines.forEach((l, k) => {
        const c = l[0];
        if (c === '+' || c === ' ') side.push({ text: l.slice(1), added: c === '+', rawIndex: hunk.patchLine + k, newLine: newLine++ });
      });
      let state: unknown;
      side.forEach((entry, k) => {
        const masked = lang.mask(entry.text, state);
        state = masked.state;
        if (!entry.added) return;
        const rawLine = raw[entry.rawIndex] ?? '';
        const cr = rawLine.endsWith('\r') ? '\r' : '';
        if (rawLine.slice(1, rawLine.length - cr.length) !== entry.text) {
          skipped.push({ file, line: entry.newLine, reason: 'the added line could not be found in the patch text as parsed' });
          return;
        }
        const ctx = { code: masked.code, text: entry.text, strings: masked.strings, following: side.slice(k + 1, k + 4).map((s) => s.text), importsMath };
        for (const op of lang.operators) {
          for (const e of op.find(ctx)) {
            const after = applyEdit(entry.text, e);
            if (after === entry.text) continue;
            const lines = raw.slice();
            lines[entry.rawIndex] = `+${after}${cr}`;
            const patch = bom + lines.join('\n');
            if (seen.has(patch)) continue;
            const check = checkMutant(patch, fp, hunk, baseText);
            if (check) {
              skipped.push({ file, line: entry.newLine, operator: op.name, reason: check });
              continue;
            }
            seen.add(patch);
            const column = e.column + 1;
            mutants.push({ id: mutantId(op.name, file, entry.newLine, column, after), operator: op.name, file, line: entry.newLine, column, before: entry.text, after, patch });
          }
        }
      });
    }
  }
  return { mutants, skipped, unsupportedFiles };
}

function applyEdit(text: string, e: Edit): string {
  return text.slice(0, e.column) + e.replacement + text.slice(e.column + e.length);
}

export function mutantId(operator: string, file: string, line: number, column: number, after: string): string {
  const h = createHash('sha256').update(`${file}\0${line}\0${column}\0${after}`).digest('hex').slice(0, 10);
  return `${operator}-${h}`;
}

/** Why a mutated patch is not a valid patch of the same shape against the base, or undefined when it is. */
function checkMutant(patch: string, gold: FilePatch, goldHunk: Hunk, baseText: string | undefined): string | undefined {
  const p = parsePatch(patch);
  if (p.problems.some((x) => x.severity === 'error' || /hunk header/.test(x.message))) return 'the mutated patch is not a valid diff';
  const fp = p.files.find((f) => f.patchLine === gold.patchLine);
  const h = fp?.hunks.find((x) => x.patchLine === goldHunk.patchLine);
  if (!fp || !h || h.lines.length !== goldHunk.lines.length || fp.hunks.length !== gold.hunks.length) return 'the mutated patch changes the shape of its hunk';
  if (baseText !== undefined && !applyFilePatch(baseText, fp).ok) return 'the mutated patch does not apply to the base file';
  return undefined;
}

/**
 * At most `n` mutants, picked round-robin across operators (in table order, each operator's mutants in patch
 * order), so a small cap still covers every kind of mutation it can.
 */
export function pickMutants(all: readonly Mutant[], n: number): Mutant[] {
  if (n >= all.length) return all.slice();
  const byOp = new Map<string, Mutant[]>();
  for (const m of all) {
    const l = byOp.get(m.operator) ?? [];
    l.push(m);
    byOp.set(m.operator, l);
  }
  const order = (op: string) => { const i = OPERATOR_NAMES.indexOf(op); return i < 0 ? OPERATOR_NAMES.length : i; };
  const queues = [...byOp.entries()].sort((a, b) => order(a[0]) - order(b[0])).map(([, q]) => q);
  const out: Mutant[] = [];
  for (let round = 0; out.length < n; round++) {
    for (const q of queues) {
      const m = q[round];
      if (m && out.length < n) out.push(m);
    }
  }
  return out;
}
