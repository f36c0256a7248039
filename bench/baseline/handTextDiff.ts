// The hand-written Myers line diff as of c42285d, kept as the baseline of bench/diff.bench.ts.
// Line diffs of two texts as unified diffs (Myers' O(ND) algorithm), to turn edited files back into patches.

export type Edit = { op: ' ' | '-' | '+'; line: string };

const NO_NEWLINE = '\u0000<no newline>';

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text.length === 0) return { lines: [], finalNewline: true };
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, finalNewline };
}

/** The shortest edit script turning `a` into `b`, line by line. */
export function diffLines(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))) x = v[offset + k + 1] as number;
      else x = (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  trace.push(v.slice());
  // Walk the trace backwards to recover the edits.
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0; d--) {
    const vd = trace[d] as Int32Array;
    const k = x - y;
    let prevK: number;
    if (k === -d || (k !== d && (vd[offset + k - 1] as number) < (vd[offset + k + 1] as number))) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : (vd[offset + prevK] as number);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      edits.push({ op: ' ', line: a[x - 1] as string });
      x--;
      y--;
    }
    if (d === 0) break;
    if (x === prevX) edits.push({ op: '+', line: b[y - 1] as string });
    else edits.push({ op: '-', line: a[x - 1] as string });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    edits.push({ op: ' ', line: a[x - 1] as string });
    x--;
    y--;
  }
  return edits.reverse();
}

/**
 * A git-style unified diff of one file from `before` to `after` (empty string when they are equal). `oldPath`
 * undefined means the file is new; `newPath` undefined means it was deleted.
 */
export function unifiedDiff(oldPath: string | undefined, newPath: string | undefined, before: string, after: string, context = 3): string {
  if (before === after && oldPath === newPath) return '';
  // A last line without a newline differs from the same line with one: mark it so the diff says so.
  const mark = (t: string) => {
    const { lines, finalNewline } = splitLines(t);
    if (!finalNewline && lines.length > 0) lines[lines.length - 1] += NO_NEWLINE;
    return lines;
  };
  const edits = diffLines(mark(before), mark(after));
  const path = newPath ?? oldPath ?? '';
  const out = [`diff --git a/${oldPath ?? path} b/${newPath ?? path}`];
  if (oldPath === undefined) out.push('new file mode 100644');
  if (newPath === undefined) out.push('deleted file mode 100644');
  out.push(`--- ${oldPath === undefined ? '/dev/null' : `a/${oldPath}`}`, `+++ ${newPath === undefined ? '/dev/null' : `b/${newPath}`}`);
  let aLine = 0;
  let bLine = 0;
  const positions = edits.map((e) => {
    const p = { a: aLine, b: bLine };
    if (e.op !== '+') aLine++;
    if (e.op !== '-') bLine++;
    return p;
  });
  let i = 0;
  while (i < edits.length) {
    while (i < edits.length && (edits[i] as Edit).op === ' ') i++;
    if (i >= edits.length) break;
    const start = Math.max(0, i - context);
    let lastChange = i;
    for (let j = i; j < edits.length; j++) {
      if ((edits[j] as Edit).op !== ' ') lastChange = j;
      else if (j - lastChange > 2 * context) break;
    }
    const end = Math.min(edits.length, lastChange + context + 1);
    const hunk = edits.slice(start, end);
    const p0 = positions[start] as { a: number; b: number };
    const oldCount = hunk.filter((e) => e.op !== '+').length;
    const newCount = hunk.filter((e) => e.op !== '-').length;
    out.push(`@@ -${oldCount === 0 ? p0.a : p0.a + 1},${oldCount} +${newCount === 0 ? p0.b : p0.b + 1},${newCount} @@`);
    for (const e of hunk) {
      if (e.line.endsWith(NO_NEWLINE)) out.push(e.op + e.line.slice(0, -NO_NEWLINE.length), '\\ No newline at end of file');
      else out.push(e.op + e.line);
    }
    i = end;
  }
  return out.join('\n') + '\n';
}
