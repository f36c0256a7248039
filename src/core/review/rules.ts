// The approval rules, all in this one place: each has an id (what a waiver names), a title, and a check that says
// what breaks it. Approval is refused while a rule fails without a waiver.
import type { CandidateTask, CuratorVerdict, LabelOutcome } from '../model';
import type { FinalSource } from './consensus';
import type { Waiver } from './events';
import type { TaskVerifierResults, VerifierFlag } from './verdicts';
import { FN_FLAG_KINDS, FP_FLAG_KINDS, TAMPER_FLAG_KINDS, testsBySpec } from './verdicts';
import { GOLD_PROBE } from '../model';

/** What the rules look at: the task, the final verdict and outcome per (attempt, spec), the verifier's results. */
export interface RuleContext {
  task: Pick<CandidateTask, 'id' | 'specs' | 'tests' | 'attempts' | 'files'>;
  cells: ReadonlyArray<{ attempt: string; spec: string; final?: CuratorVerdict; from: FinalSource; outcome: LabelOutcome }>;
  verifier: TaskVerifierResults;
  /** Oracle-probe flags a curator confirmed and that the current results still raise. */
  confirmedFlags: readonly VerifierFlag[];
  /** Flags the current results raise that no curator has confirmed or dismissed yet. */
  openFlags?: readonly VerifierFlag[];
}

export type RuleCheck = { ok: true } | { ok: false; message: string; items: string[] };

export interface ApprovalRule {
  id: string;
  title: string;
  check(ctx: RuleContext): RuleCheck;
}

export interface RuleResult {
  id: string;
  title: string;
  ok: boolean;
  /** Why it fails, naming what breaks it. */
  message?: string;
  items: string[];
  /** The waiver recorded against it, if any. */
  waiver?: Waiver;
}

const cell = (c: { attempt: string; spec: string }) => `${c.attempt} × ${c.spec}`;
const list = (items: string[], max = 5) => (items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`);

export const APPROVAL_RULES: readonly ApprovalRule[] = [
  {
    // Without specs every other rule is vacuously true: nothing would have been judged (a SWE-bench row as imported).
    id: 'has-specs',
    title: 'the task has at least one spec',
    check({ task }) {
      if (task.specs.length > 0) return { ok: true };
      return { ok: false, message: `task ${task.id} has no specs: add them (the per-spec review needs them)`, items: [] };
    },
  },
  {
    id: 'gold-passes',
    title: 'the gold patch passes',
    check({ task, verifier }) {
      if (!task.files.goldPatch) return { ok: false, message: `task ${task.id} has no gold patch`, items: [] };
      const gold = verifier.attempts[GOLD_PROBE];
      if (!gold) return { ok: false, message: `the gold patch has not been verified (specweave verify DATASET ${task.id} --gold)`, items: [] };
      if (gold.stale) return { ok: false, message: `the gold patch's run ${gold.runId} is stale (${(gold.staleReasons ?? ['the task changed']).join(', ')}): verify it again`, items: [gold.runId] };
      if (gold.resolved !== true) return { ok: false, message: `the gold patch does not pass (run ${gold.runId}: ${gold.status})`, items: [gold.runId] };
      return { ok: true };
    },
  },
  {
    id: 'no-open-false-positive',
    title: 'no open false positive',
    check: ({ cells, confirmedFlags }) => openDefects(cells, confirmedFlags, 'false_positive', FP_FLAG_KINDS, 'false positive'),
  },
  {
    id: 'no-open-false-negative',
    title: 'no open false negative',
    check: ({ cells, confirmedFlags }) => openDefects(cells, confirmedFlags, 'false_negative', FN_FLAG_KINDS, 'false negative'),
  },
  {
    id: 'tampering-decided',
    title: 'every attempt that touches what grades it has been looked at',
    check({ openFlags }) {
      const open = (openFlags ?? []).filter((f) => TAMPER_FLAG_KINDS.includes(f.kind));
      if (open.length === 0) return { ok: true };
      const items = open.map((f) => `${f.attempt ?? '?'}: ${f.message}`);
      return {
        ok: false,
        message: `${open.length} attempt flag${open.length > 1 ? 's' : ''} to confirm or dismiss (the patch touches what grades it): ${list(items)}`,
        items,
      };
    },
  },
  {
    id: 'every-spec-tested',
    title: 'every spec is covered by at least one test',
    check({ task }) {
      const untested = [...testsBySpec(task)].filter(([, tests]) => tests.length === 0).map(([s]) => s);
      if (untested.length === 0) return { ok: true };
      return { ok: false, message: `spec${untested.length > 1 ? 's' : ''} without a test: ${list(untested)}`, items: untested };
    },
  },
  {
    id: 'every-attempt-judged',
    title: 'every attempt is judged against every spec',
    check({ task, cells }) {
      if (task.attempts.length === 0) return { ok: false, message: `task ${task.id} has no attempt to judge`, items: [] };
      if (task.specs.length === 0) {
        const ids = task.attempts.map((a) => a.id);
        return { ok: false, message: `no spec to judge the attempts ${list(ids)} against`, items: ids };
      }
      if (cells.length === 0) return { ok: false, message: 'no (attempt, spec) pair was judged', items: [] };
      const missing = cells.filter((c) => c.final === undefined || c.final === 'unsure');
      if (missing.length === 0) return { ok: true };
      const why = (c: (typeof cells)[number]) => (c.from === 'disagreement' ? 'curators disagree' : c.final === 'unsure' ? 'unsure' : 'no verdict');
      const items = missing.map((c) => `${cell(c)} (${why(c)})`);
      return { ok: false, message: `${missing.length} (attempt, spec) pair${missing.length > 1 ? 's' : ''} not judged: ${list(items)}`, items };
    },
  },
];

function openDefects(
  cells: RuleContext['cells'],
  flags: readonly VerifierFlag[],
  outcome: LabelOutcome,
  flagKinds: readonly string[],
  what: string,
): RuleCheck {
  const items = cells.filter((c) => c.outcome === outcome).map(cell);
  for (const f of flags) if (flagKinds.includes(f.kind)) items.push(`confirmed suggestion: ${f.message}`);
  if (items.length === 0) return { ok: true };
  return { ok: false, message: `${items.length} open ${what}${items.length > 1 ? 's' : ''}: ${list(items)}`, items };
}

export const RULE_IDS: readonly string[] = APPROVAL_RULES.map((r) => r.id);

/** Every rule's result, with the waivers given attached to the rules they name. */
export function evaluateRules(ctx: RuleContext, waivers: readonly Waiver[] = []): RuleResult[] {
  return APPROVAL_RULES.map((r) => {
    const c = r.check(ctx);
    const waiver = waivers.find((w) => w.rule === r.id);
    return {
      id: r.id,
      title: r.title,
      ok: c.ok,
      ...(c.ok ? {} : { message: c.message }),
      items: c.ok ? [] : c.items,
      ...(waiver ? { waiver } : {}),
    };
  });
}

/** The rules that block approval: failing and not waived. */
export function blockingRules(results: readonly RuleResult[]): RuleResult[] {
  return results.filter((r) => !r.ok && !r.waiver);
}

/**
 * Whether the rules allow approval: at least one rule was evaluated, and none fails without a waiver. An empty rule
 * set never approves (nothing would have been checked).
 */
export function approvalAllowed(results: readonly RuleResult[]): { ok: true } | { ok: false; message: string; blockers: RuleResult[] } {
  if (results.length === 0) return { ok: false, message: 'no approval rule was evaluated', blockers: [] };
  const blockers = blockingRules(results);
  if (blockers.length === 0) return { ok: true };
  return { ok: false, message: blockers.map((r) => `rule ${r.id} (${r.title}): ${r.message ?? 'fails'}`).join('; '), blockers };
}

/** Waivers that name no rule, or have no reason. */
export function waiverProblems(waivers: readonly Waiver[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of waivers) {
    if (!RULE_IDS.includes(w.rule)) out.push(`unknown rule "${w.rule}" (rules: ${RULE_IDS.join(', ')})`);
    if (w.reason.trim().length === 0) out.push(`the waiver of ${w.rule} needs a reason`);
    if (seen.has(w.rule)) out.push(`${w.rule} is waived twice`);
    seen.add(w.rule);
  }
  return out;
}
