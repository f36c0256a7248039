// `specweave validate DATASET`: every problem with file, line and field; exit 1 if any error.
import { validateDataset } from '../app/validateDataset';
import { defineCommand } from './command';
import { formatProblem, out, printJson } from './output';

export const validateCommand = defineCommand({
  name: 'validate',
  summary: 'check a dataset: every problem with file, line and field; exit 1 if any error',
  usage: 'specweave validate DATASET [--json]',
  flags: { json: { type: 'boolean', help: 'print {dataset, name, tasks, errors, warnings, problems[]} as JSON' } },
  positional: { min: 1, max: 1 },
  async run(a) {
    const { dataset, problems } = await validateDataset(a.positional[0] as string);
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    if (a.booleans.json) {
      printJson({ dataset: dataset.root, name: dataset.manifest.name, tasks: dataset.tasks.length, errors, warnings, problems });
    } else {
      for (const p of problems) out(formatProblem(p) + '\n');
      out(`${dataset.tasks.length} tasks, ${errors} errors, ${warnings} warnings\n`);
    }
    return errors > 0 ? 1 : 0;
  },
});
