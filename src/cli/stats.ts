// `specweave stats DATASET [--json]`: the FP/FN breakdown of reviewed tasks, agreement, defect rates, funnel.
import type { CurationStats } from '../core/review/stats';
import { defineCommand } from './command';
import { jsonFlag, openStore, policyFlag } from './curationCommon';
import { out, printJson, table } from './output';

const pct = (x: number | undefined) => (x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const fix = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

export function formatStats(s: CurationStats): string {
  const out: string[] = [];
  const f = s.funnel;
  out.push(`Tasks: ${f.imported} imported, ${f.reviewed} reviewed, ${f.approved} approved, ${f.rejected} rejected (policy: ${s.policy})`);
  out.push(`Status: ${Object.entries(s.byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out.push('');
  const b = s.breakdown;
  out.push(`Reviewed tasks by what the review found (${b.reviewed}):`);
  out.push(
    table(
      ['FINDING', 'TASKS', 'SHARE'],
      [
        ['false positives only', b.falsePositivesOnly, pct(b.shares?.falsePositivesOnly)],
        ['false negatives only', b.falseNegativesOnly, pct(b.shares?.falseNegativesOnly)],
        ['both', b.both, pct(b.shares?.both)],
        ['none observed', b.none, pct(b.shares?.none)],
      ],
    ),
  );
  out.push('Agreement between curators:');
  out.push(
    table(
      ['KIND', 'METRIC', 'CURATORS', 'ITEMS', 'ALPHA', 'KAPPA'],
      s.agreement.map((a) => [a.kind, a.metric, a.curators, a.items, fix(a.alpha), a.kappa !== undefined ? `${fix(a.kappa)} (${a.kappaItems})` : '-']),
    ),
  );
  out.push('Defect rates by spec category:');
  out.push(
    table(
      ['CATEGORY', 'SPECS', 'DECIDED', 'FP', 'FN', 'FP RATE', 'FN RATE'],
      s.byCategory.map((c) => [c.category, c.specs, c.decided, c.falsePositives, c.falseNegatives, pct(c.fpRate), pct(c.fnRate)]),
    ),
  );
  out.push('Defect rates by solver model:');
  out.push(
    table(
      ['MODEL', 'ATTEMPTS', 'DECIDED', 'FP', 'FN', 'FP RATE', 'FN RATE', 'ATTEMPTS W/ FP', 'ATTEMPTS W/ FN'],
      s.bySolver.map((m) => [m.model, m.attempts, m.decided, m.falsePositives, m.falseNegatives, pct(m.fpRate), pct(m.fnRate), m.attemptsWithFalsePositive, m.attemptsWithFalseNegative]),
    ),
  );
  if (s.curators.length > 0) {
    out.push('Curators:');
    out.push(
      table(
        ['CURATOR', 'EVENTS', 'LABELS', 'TASKS', 'DAYS', 'EVENTS/DAY'],
        s.curators.map((c) => {
          const days = s.throughput.filter((t) => t.curator === c.curator).length;
          return [c.curator, c.events, c.labels, c.tasks, days, days > 0 ? (c.events / days).toFixed(1) : '-'];
        }),
      ),
    );
  }
  out.push(`Disagreements: ${s.disagreements.open} open, ${s.disagreements.settled} settled. Suggestions: ${s.suggestions.open} open, ${s.suggestions.confirmed} confirmed, ${s.suggestions.dismissed} dismissed.`);
  out.push(`Log: ${s.log.events} events, ${s.log.undone} undone, ${s.log.issues} replay issues.`);
  return out.join('\n') + '\n';
}

export const statsCommand = defineCommand({
  name: 'stats',
  summary: 'curation statistics: FP/FN breakdown, agreement, defect rates, funnel, throughput',
  usage: 'specweave stats DATASET [--json] [--policy adjudicate|highest-severity]',
  flags: { ...policyFlag, ...jsonFlag },
  positional: { min: 1, max: 1 },
  async run(a) {
    const store = openStore(a);
    const s = store.stats();
    if (a.booleans.json) printJson(s);
    else out(formatStats(s));
    return 0;
  },
});
