// What the curation commands share: opening the store, the curator's name, the --policy flag, printing a refusal
// or a log error the same way everywhere.
import { CurationStore, resolveCurator } from '../app/curationStore';
import { ReviewLogError } from '../adapters/fs/reviewLog';
import type { ConsensusPolicy } from '../core/review/consensus';
import { CONSENSUS_POLICIES } from '../core/review/consensus';
import type { ActResult } from '../app/curationStore';
import type { FlagSpec, ParsedArgs } from './args';
import { UsageError } from './args';
import { err, formatProblem, one, out, printJson } from './output';

export const curatorFlag: Record<string, FlagSpec> = {
  curator: { type: 'string', help: 'who is deciding (default: git config user.name, else $USER)' },
};
export const policyFlag: Record<string, FlagSpec> = {
  policy: { type: 'string', help: 'how curators\' disagreements settle: adjudicate (default) or highest-severity' },
};
export const jsonFlag: Record<string, FlagSpec> = { json: { type: 'boolean', help: 'print JSON (see docs/curation.md)' } };

export function policyOf(a: ParsedArgs): ConsensusPolicy {
  const p = a.strings.policy ?? 'adjudicate';
  if (!(CONSENSUS_POLICIES as readonly string[]).includes(p)) throw new UsageError(`--policy must be one of ${CONSENSUS_POLICIES.join(', ')}`);
  return p as ConsensusPolicy;
}

/** Opens the dataset's review state; a folder that is no dataset is a usage error. Log problems go to stderr. */
export function openStore(a: ParsedArgs, opts: { quiet?: boolean } = {}): CurationStore {
  const root = a.positional[0] as string;
  const store = CurationStore.open(root, { policy: policyOf(a) });
  if (!opts.quiet) for (const p of store.problems()) err(`${formatProblem(p)}\n`);
  return store;
}

/** The curator from --curator, git or the environment; an invalid name is a usage error naming the problem. */
export function curatorOf(a: ParsedArgs, cwd: string): string {
  const r = resolveCurator({ ...(a.strings.curator !== undefined ? { option: a.strings.curator } : {}), cwd });
  if (!r.ok) throw new UsageError(r.message);
  return r.name;
}

/** Records an intent; prints the event (or JSON) and returns the exit code. */
export async function record(
  a: ParsedArgs,
  command: string,
  run: () => Promise<ActResult>,
  describe: (r: Extract<ActResult, { ok: true }>) => string,
): Promise<number> {
  let r: ActResult;
  try {
    r = await run();
  } catch (e) {
    if (e instanceof ReviewLogError) {
      if (a.booleans.json) printJson({ ok: false, error: { code: e.code, message: e.message } });
      err(`specweave ${command}: ${one(e.message)}\n`);
      return 1;
    }
    throw e;
  }
  if (!r.ok) {
    if (a.booleans.json) printJson({ ok: false, refusal: r.refusal });
    err(`specweave ${command}: ${one(r.refusal.message)}\n`);
    return 1;
  }
  if (a.booleans.json) printJson({ ok: true, event: r.event });
  // The description is one line whatever the names and notes in it hold.
  else out(`${one(describe(r))}\n`);
  return 0;
}

/** Parses a 0-3 severity flag. */
export function severityOf(a: ParsedArgs, flag: string): number {
  const v = a.strings[flag];
  if (v === undefined) throw new UsageError(`--${flag} is required (0-3)`);
  if (!/^[0-3]$/.test(v)) throw new UsageError(`--${flag} must be 0, 1, 2 or 3; got "${v}"`);
  return Number(v);
}
