// `specweave import harbor TASK_DIR ... [--jobs JOB_DIR ...] --out DATASET [--replace] [--json]`: Harbor /
// Terminal-Bench 2 task folders into tasks (environment, tests as the test patch, solve.sh as the gold probe, the
// reward as the verifier), and Harbor job outputs into attempts with the trial's reward as their recorded verdict.
import { importHarbor } from '../app/importHarbor';
import type { HarborImportSummary } from '../app/importHarbor';
import type { ImportDeps } from '../app/importSwebench';
import type { ParsedArgs } from './args';
import { UsageError } from './args';
import { formatProblem, one, out, printJson, table } from './output';

/** Options of `import swebench` that mean nothing for Harbor folders. */
const SWEBENCH_ONLY = ['instances', 'predictions', 'trajectories', 'reports', 'task-dirs'] as const;
const SWEBENCH_ONLY_STRINGS = ['repos', 'image', 'test-cmd'] as const;

export async function runHarborImport(a: ParsedArgs, deps: ImportDeps): Promise<number> {
  for (const f of SWEBENCH_ONLY) if ((a.lists[f] ?? []).length > 0) throw new UsageError(`--${f} is an option of import swebench, not of import harbor`);
  for (const f of SWEBENCH_ONLY_STRINGS) if (a.strings[f] !== undefined) throw new UsageError(`--${f} is an option of import swebench, not of import harbor`);
  const taskDirs = a.positional.slice(1);
  if (taskDirs.length === 0) throw new UsageError('import harbor needs at least one TASK_DIR (a Harbor task folder, or a folder of them)');
  const outDir = a.strings.out;
  if (!outDir) throw new UsageError('--out DATASET is required');
  const summary = await importHarbor({ taskDirs, jobs: a.lists.jobs ?? [], out: outDir, replace: a.booleans.replace === true }, deps);
  if (a.booleans.json) printJson(summary);
  else out(renderHarborSummary(summary));
  const skippedInput = summary.unmatched.length > 0;
  return summary.counts.errors > 0 || summary.tasks.length === 0 || (summary.counts.tasks === 0 && !skippedInput) ? 1 : 0;
}

/** The human-readable report of a Harbor import. Every field from the inputs is printed through `one`. */
export function renderHarborSummary(s: HarborImportSummary): string {
  const lines: string[] = [];
  const kept = s.tasks.filter((t) => t.status === 'kept').length;
  if (s.tasks.length === 0) lines.push(`Nothing was imported into ${s.out}: no Harbor task could be read (see the problems below).`);
  else {
    lines.push(
      `Imported ${s.counts.tasks} task(s), ${s.counts.attempts} attempt(s) into ${s.out}` + (kept > 0 ? ` (${kept} existing task folder(s) kept)` : ''),
    );
  }
  for (const d of s.taskDirs) lines.push(`  tasks ${d.dir}: ${d.tasks} task(s)`);
  for (const d of s.jobDirs) lines.push(`  jobs  ${d.dir}: ${d.trials} trial(s)`);
  if (s.tasks.length > 0) {
    lines.push('');
    lines.push(
      ...table(
        ['TASK', 'IMAGE', 'WORKDIR', 'VERIFIER', 'GOLD', 'ATTEMPTS', 'STATUS'],
        s.tasks.map((t) => [t.id, t.image ? `${t.image}${t.dockerfile ? ' (or built)' : ''}` : '(none)', t.workdir, `${t.verifier.command} [${t.verifier.parser}]`, t.gold ? 'solve.sh' : '-', t.attempts.length, t.status]),
      )
        .trimEnd()
        .split('\n'),
    );
    for (const t of s.tasks) {
      lines.push('', `${t.id}:`);
      for (const n of t.notes) lines.push(`  note: ${n}`);
      for (const at of t.attempts) {
        const why = at.verdict.reward !== undefined ? ` (reward ${at.verdict.reward})` : `: ${at.verdict.detail ?? 'no reward'}`;
        lines.push(`  ${at.id}  ${at.agent}, model ${at.model}; trial ${at.trial} of run ${at.run}: ${at.verdict.status}${why}`);
        if (at.trajectory) lines.push(`      trajectory from ${at.trajectory.from}${at.trajectory.format ? ` (${at.trajectory.format})` : ''}`);
      }
    }
  }
  if (s.unmatched.length > 0) {
    lines.push('', `Not matched (${s.unmatched.length}):`);
    for (const u of s.unmatched) lines.push(`  trial of ${u.taskName} (${u.file}): ${u.reason}`);
  }
  if (s.skipped.length > 0) {
    lines.push('', `Skipped (${s.skipped.length}):`);
    for (const k of s.skipped) lines.push(`  ${k.kind} ${k.file}: ${k.reason}`);
  }
  if (s.ignored.length > 0) {
    lines.push('', `Ignored ${s.ignored.length} file(s):`);
    for (const i of s.ignored.slice(0, 10)) lines.push(`  ${i.file}: ${i.reason}`);
    if (s.ignored.length > 10) lines.push(`  ... and ${s.ignored.length - 10} more (see --json)`);
  }
  if (s.problems.length > 0) {
    lines.push('', `Problems (${s.counts.errors} error(s), ${s.counts.warnings} warning(s)):`);
    for (const p of s.problems) lines.push(`  ${formatProblem(p)}`);
  }
  return lines.map(one).join('\n') + '\n';
}
