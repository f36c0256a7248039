// `specweave list DATASET`: one row per task (id, specs, tests, attempts, solve rate, status); `--in-band` only the
// tasks whose solve rate is in the band (default: mixed success, strictly between 0 and 1).
import { openDataset } from '../adapters/fs/datasetLoader';
import { CurationStore } from '../app/curationStore';
import type { SolveBand } from '../core/solver/difficulty';
import { MIXED_SUCCESS, inBand, parseBand } from '../core/solver/difficulty';
import { UsageError } from './args';
import { defineCommand } from './command';
import { err, formatProblem, out, printJson, table } from './output';

export const bandFlag = {
  band: { type: 'string', help: 'the solve-rate band: LOW..HIGH strictly between, or [LOW,HIGH] inclusive, shares from 0 to 1 (default 0..1: mixed success)' },
} as const;

export function bandFrom(text: string | undefined): SolveBand {
  if (text === undefined) return MIXED_SUCCESS;
  const b = parseBand(text);
  if (!b.ok) throw new UsageError(`--${b.message}`);
  return b.band;
}

const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)}%`);

export const listCommand = defineCommand({
  name: 'list',
  summary: 'one row per task: id, specs, tests, attempts, solve rate, status',
  usage: 'specweave list DATASET [--in-band] [--band LOW..HIGH] [--json]',
  flags: {
    'in-band': { type: 'boolean', help: 'only tasks whose solve rate is in the band (default: mixed success, some attempts solve it and some do not)' },
    ...bandFlag,
    json: { type: 'boolean', help: 'print [{id, title, specs, tests, attempts, status, solveRate: {overall, byModel, unverified, stale}, inBand}] as JSON' },
  },
  positional: { min: 1, max: 1 },
  async run(a) {
    const band = bandFrom(a.strings.band);
    const dataset = openDataset(a.positional[0] as string);
    const problems = [...dataset.problems];
    const store = CurationStore.forDataset(dataset);
    problems.push(...store.problems().filter((p) => p.severity === 'error'));
    let rows = dataset.tasks.map((t) => {
      const d = store.difficulty(t.id);
      return {
        id: t.id,
        title: t.title,
        specs: t.specs.length,
        tests: t.tests.length,
        attempts: t.attempts.length,
        status: store.state.tasks.get(t.id)?.status ?? 'candidate',
        ...(d ? { solveRate: d, inBand: inBand(d, band) } : {}),
      };
    });
    if (a.booleans['in-band']) rows = rows.filter((r) => r.inBand === true);
    const errors = problems.filter((p) => p.severity === 'error');
    if (a.booleans.json) printJson(rows);
    else
      out(
        table(
          ['TASK', 'SPECS', 'TESTS', 'ATTEMPTS', 'SOLVED', 'STATUS', 'TITLE'],
          rows.map((r) => [r.id, r.specs, r.tests, r.attempts, r.solveRate ? `${pct(r.solveRate.overall.rate)} (${r.solveRate.overall.solved}/${r.solveRate.overall.attempts})` : '-', r.status, r.title]),
        ),
      );
    for (const p of errors) err(formatProblem(p) + '\n');
    if (errors.length > 0) err(`${errors.length} problems: run \`specweave validate\` for all of them\n`);
    return errors.length > 0 ? 1 : 0;
  },
});
