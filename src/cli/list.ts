// `specweave list DATASET`: one row per task (id, specs, tests, attempts, status).
import { openDataset } from '../adapters/fs/datasetLoader';
import { defineCommand } from './command';
import { err, formatProblem, out, printJson, table } from './output';
import { reviewStatuses } from './reviewStatus';

export const listCommand = defineCommand({
  name: 'list',
  summary: 'one row per task: id, specs, tests, attempts, status',
  usage: 'specweave list DATASET [--json]',
  flags: { json: { type: 'boolean', help: 'print [{id, title, specs, tests, attempts, status}] as JSON' } },
  positional: { min: 1, max: 1 },
  async run(a) {
    const dataset = openDataset(a.positional[0] as string);
    const problems = [...dataset.problems];
    const status = reviewStatuses(dataset, problems);
    const rows = dataset.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      specs: t.specs.length,
      tests: t.tests.length,
      attempts: t.attempts.length,
      status: status(t.id),
    }));
    const errors = problems.filter((p) => p.severity === 'error');
    if (a.booleans.json) printJson(rows);
    else out(table(['TASK', 'SPECS', 'TESTS', 'ATTEMPTS', 'STATUS', 'TITLE'], rows.map((r) => [r.id, r.specs, r.tests, r.attempts, r.status, r.title])));
    for (const p of errors) err(formatProblem(p) + '\n');
    if (errors.length > 0) err(`${errors.length} problems: run \`specweave validate\` for all of them\n`);
    return errors.length > 0 ? 1 : 0;
  },
});
