// Trajectory steps as the webview sees them: cleaned once, previewed, paged, filtered by kind.
import type { TrajectoryStep } from '../model';
import { MAX_STEP_PAGE, MAX_TEXT_SLICE, STEP_PREVIEW_CHARS } from '../../protocol/messages';
import type { StepKindView, StepView } from '../../protocol/messages';
import { cleanText, countLines, jsonBytes, truncate } from './text';
import { turnsOf } from './turns';

/** Longest tool-call argument text sent in a page; the search looks in the whole arguments. */
export const TOOL_ARGS_PREVIEW_CHARS = 2000;
/** Budget of one page of steps in bytes of JSON, under the 1 MB message limit with room for the envelope. */
export const STEP_PAGE_BUDGET = 900_000;

/** A step with its text cleaned once, so previews, slices and search offsets all refer to the same text. */
export interface PreparedStep {
  index: number;
  kind: StepKindView;
  /** The step's text with ANSI escapes and control characters removed. */
  text: string;
  lines: number;
  /** Tool calls, cleaned like the text; the search looks in each name and arguments apart (search.ts `searchParts`). */
  toolCalls?: Array<{ name: string; arguments: string }>;
  costUsd?: number;
  timestamp?: string;
  edits?: string[];
}

export function prepareStep(step: TrajectoryStep): PreparedStep {
  const text = cleanText(step.text);
  const calls = step.toolCalls?.map((c) => ({ name: cleanText(c.name), arguments: cleanText(c.arguments) }));
  const edits = step.edits ? [...new Set(step.edits.map((e) => e.path))] : undefined;
  return {
    index: step.index,
    kind: step.kind,
    text,
    lines: countLines(text),
    ...(calls && calls.length > 0 ? { toolCalls: calls } : {}),
    ...(step.costUsd !== undefined ? { costUsd: step.costUsd } : {}),
    ...(step.timestamp !== undefined ? { timestamp: step.timestamp } : {}),
    ...(edits && edits.length > 0 ? { edits } : {}),
  };
}

/** The step as a page sends it; `turn` is its turn in the whole trajectory (turns.ts), absent when it stands alone. */
export function stepView(s: PreparedStep, turn?: number): StepView {
  return {
    index: s.index,
    kind: s.kind,
    ...(turn !== undefined ? { turn } : {}),
    preview: truncate(s.text, STEP_PREVIEW_CHARS),
    length: s.text.length,
    lines: s.lines,
    ...(s.toolCalls ? { toolCalls: s.toolCalls.map((c) => ({ name: truncate(c.name, 200), arguments: truncate(c.arguments, TOOL_ARGS_PREVIEW_CHARS) })) } : {}),
    ...(s.costUsd !== undefined ? { costUsd: s.costUsd } : {}),
    ...(s.timestamp !== undefined ? { timestamp: s.timestamp } : {}),
    ...(s.edits ? { edits: s.edits.slice(0, 50) } : {}),
  };
}

/** The prepared steps of one trajectory, with the filtered index lists memoised per kind set. */
export class StepIndex {
  private readonly filtered = new Map<string, number[]>();
  /** The turn of each step (by position), over the whole trajectory, so a kind filter does not renumber them. */
  readonly turns: ReadonlyArray<number | undefined>;

  constructor(readonly steps: readonly PreparedStep[]) {
    this.turns = turnsOf(steps.map((s) => s.kind));
  }

  /** Positions (into `steps`) of the steps of the given kinds; all steps when `kinds` is empty or absent. */
  positions(kinds?: readonly StepKindView[]): readonly number[] | undefined {
    if (!kinds || kinds.length === 0) return undefined;
    const key = [...kinds].sort().join(',');
    let list = this.filtered.get(key);
    if (!list) {
      const want = new Set(kinds);
      list = [];
      for (let i = 0; i < this.steps.length; i++) if (want.has((this.steps[i] as PreparedStep).kind)) list.push(i);
      this.filtered.set(key, list);
    }
    return list;
  }

  /** Position of the step numbered `index` (steps are numbered in order, usually from 0). */
  positionOf(index: number): number {
    if (this.steps[index]?.index === index) return index;
    return this.steps.findIndex((s) => s.index === index);
  }

  /** A page of step views; fewer than `count` when the page would exceed STEP_PAGE_BUDGET bytes. */
  page(start: number, count: number, kinds?: readonly StepKindView[]): { steps: StepView[]; total: number; totalUnfiltered: number } {
    const pos = this.positions(kinds);
    const total = pos ? pos.length : this.steps.length;
    const n = Math.min(count, MAX_STEP_PAGE);
    const out: StepView[] = [];
    let budget = STEP_PAGE_BUDGET;
    for (let k = start; k < total && out.length < n; k++) {
      const at = pos ? (pos[k] as number) : k;
      const v = stepView(this.steps[at] as PreparedStep, this.turns[at]);
      const size = jsonBytes(v);
      if (out.length > 0 && size > budget) break;
      budget -= size;
      out.push(v);
    }
    return { steps: out, total, totalUnfiltered: this.steps.length };
  }

  /** Position of step `index` within the filtered list, or of the nearest following one; -1 when none follows. */
  locate(index: number, kinds?: readonly StepKindView[]): number {
    const pos = this.positions(kinds);
    const at = this.positionOf(index);
    if (at < 0) return -1;
    if (!pos) return at;
    let lo = 0;
    let hi = pos.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pos[mid] as number) < at) lo = mid + 1;
      else hi = mid;
    }
    return lo < pos.length ? lo : -1;
  }

  /** A slice of a step's cleaned text, at most MAX_TEXT_SLICE characters. */
  textSlice(index: number, offset: number, length: number): { text: string; offset: number; total: number } | undefined {
    const s = this.steps[this.positionOf(index)];
    if (!s) return undefined;
    const from = Math.min(offset, s.text.length);
    let to = Math.min(s.text.length, from + Math.min(length, MAX_TEXT_SLICE));
    const c = s.text.charCodeAt(to - 1);
    if (to < s.text.length && c >= 0xd800 && c <= 0xdbff) to--;
    return { text: s.text.slice(from, to), offset: from, total: s.text.length };
  }
}
