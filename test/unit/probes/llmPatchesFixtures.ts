// Scripted model replies for the LLM-written probes, as real patches against the example repository: an alternative
// solution of total-command that reports bad lines in other (spec-valid) words, one that cannot apply, and variants of
// format-precision's gold patch (halves to even, meant to violate A2; another default precision, meant to violate A1).
import * as fs from 'node:fs';
import * as path from 'node:path';

export const EXAMPLE_TASKS = path.resolve(__dirname, '../../../examples/dataset/tasks');
export const taskFile = (task: string, file: string) => fs.readFileSync(path.join(EXAMPLE_TASKS, task, file), 'utf8');

function swap(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the patch has no ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

/** total-command's gold patch reporting `durations: log.txt, line 3: cannot parse 'abc'` (B5 holds; TB3 pins the words). */
export const otherMessage = () =>
  swap(taskFile('total-command', 'gold.patch'), '+            print(f"error: {path}:{number}: {exc}", file=sys.stderr)', '+            print(f"durations: {path}, line {number}: {exc}", file=sys.stderr)');

/**
 * A rewrite written against other code: it removes an import line the base does not have, so it cannot apply (and,
 * as models do, it left the hunk header's counts as they were).
 */
export const notApplying = () => swap(taskFile('total-command', 'gold.patch'), ' from .parse import parse_duration\n', '-from .parse import parse_seconds\n');

/** format-precision's gold patch rounding halves to even (round()): violates A2 on 150 s, which no test uses. */
export const halfEven = () => swap(taskFile('format-precision', 'gold.patch'), '+    rounded = (seconds + step // 2) // step * step', '+    rounded = round(seconds / step) * step');

/** format-precision's gold patch with "m" as the default precision: violates A1 (and every existing call). */
export const minuteDefault = () => swap(taskFile('format-precision', 'gold.patch'), '+def format_duration(seconds, precision="s"):', '+def format_duration(seconds, precision="m"):');

/**
 * format-precision's gold patch refusing an unknown precision in other words (`unknown precision 'w': use one of d, h,
 * m, s`): every spec holds and the task's own test (`match="d.*h.*m.*s"`) passes it; a test pinned to the gold's
 * wording (the planted false negative) rejects it.
 */
export const otherPrecisionMessage = () =>
  swap(
    taskFile('format-precision', 'gold.patch'),
    `+        raise ValueError(f"precision must be one of {', '.join(UNITS)}; got {precision!r}")`,
    `+        raise ValueError(f"unknown precision {precision!r}: use one of {', '.join(UNITS)}")`,
  );

export interface ReplyPatch {
  spec: string | null;
  summary: string;
  patch: string;
  outsideGoldFiles: string | null;
}

export const patchOf = (patch: string, over: Partial<ReplyPatch> = {}): ReplyPatch => ({ spec: null, summary: 'a rewrite', patch, outsideGoldFiles: null, ...over });
export const replyWith = (...patches: ReplyPatch[]) => JSON.stringify({ refusal: null, patches });
