// `specweave import swebench`: SWE-bench-style rows (or the SWE-bench team's per-task folders), predictions,
// trajectories and evaluation output into a dataset; `specweave import harbor`: Harbor task folders and job outputs.
import { importSwebench } from '../app/importSwebench';
import type { ImportDeps } from '../app/importSwebench';
import { listTrajectoryInstances } from '../adapters/fs/trajectoryReader';
import type { Unmatched } from '../core/import/pairing';
import type { ImportSummary } from '../core/import/summary';
import { UsageError } from './args';
import { defineCommand } from './command';
import { runHarborImport } from './importHarbor';
import { formatProblem, one, out, printJson, table } from './output';

const deps: ImportDeps = { listTrajectoryInstances: (p) => listTrajectoryInstances(p) };

export const importCommand = defineCommand({
  name: 'import',
  summary: 'import SWE-bench-style rows, predictions, trajectories and evaluation reports, or Harbor task folders and jobs, into a dataset',
  usage:
    'specweave import swebench (--instances FILE | --task-dirs DIR) [--predictions FILE ...] [--trajectories DIR ...] [--reports PATH ...] ' +
    '[--repos DIR] [--image NAME] [--test-cmd CMD] [--strip-fences] --out DATASET [--replace] [--json]\n' +
    '       specweave import harbor TASK_DIR ... [--jobs JOB_DIR ...] --out DATASET [--replace] [--json]',
  flags: {
    instances: { type: 'list', help: 'instance rows: JSONL or a JSON array (SWE-bench, SWE-Gym, SWE-smith, SWE-rebench)' },
    'task-dirs': { type: 'list', help: "the SWE-bench team's per-task folders (tasks/<id>/task.yaml, tests.json, gold.patch...): a tasks/ folder or one task" },
    jobs: { type: 'list', help: 'import harbor: a Harbor job folder (trial folders with result.json), a folder of jobs, or one trial' },
    predictions: { type: 'list', help: 'predictions: JSONL, JSON array, object keyed by instance id, or one .pred object' },
    trajectories: { type: 'list', help: 'a solver run folder (predictions + one trajectory per instance), a folder of them, or one file' },
    reports: { type: 'list', help: 'SWE-bench evaluation output: report.json files, harness log folders, run-level reports' },
    repos: { type: 'string', help: 'folder of git clones: DIR/<owner>__<name>, DIR/<owner>/<name> or DIR/<name>' },
    image: { type: 'string', help: 'environment image; {instance_id} {repo} {owner} {name} {swebench_id} are expanded' },
    'test-cmd': { type: 'string', help: 'verifier command (default: pytest -rA over the files the test patch touches); {tests} = those files' },
    out: { type: 'string', help: 'the dataset folder to write (new, empty, or an existing dataset)' },
    replace: { type: 'boolean', help: 'overwrite task folders that already exist in the dataset' },
    'strip-fences': { type: 'boolean', help: 'store the diff inside a patch wrapped in a Markdown fence (```diff ... ```), not the chat answer' },
    json: { type: 'boolean', help: 'print the import summary as JSON (see docs/import.md)' },
  },
  positional: { min: 1, max: 10_000 },
  async run(a) {
    if (a.positional[0] === 'harbor') return runHarborImport(a, deps);
    if (a.positional[0] !== 'swebench') throw new UsageError(`unknown importer "${a.positional[0]}" (known: swebench, harbor)`);
    if (a.positional.length > 1) throw new UsageError(`unexpected argument "${a.positional[1]}"`);
    if ((a.lists.jobs ?? []).length > 0) throw new UsageError('--jobs is an option of import harbor, not of import swebench');
    const instances = a.lists.instances ?? [];
    const taskDirs = a.lists['task-dirs'] ?? [];
    if (instances.length === 0 && taskDirs.length === 0) throw new UsageError('--instances FILE (or --task-dirs DIR) is required');
    const outDir = a.strings.out;
    if (!outDir) throw new UsageError('--out DATASET is required');
    const summary = await importSwebench(
      {
        instances,
        ...(taskDirs.length > 0 ? { taskDirs } : {}),
        predictions: a.lists.predictions ?? [],
        trajectories: a.lists.trajectories ?? [],
        reports: a.lists.reports ?? [],
        ...(a.strings.repos !== undefined ? { repos: a.strings.repos } : {}),
        ...(a.strings.image !== undefined ? { image: a.strings.image } : {}),
        ...(a.strings['test-cmd'] !== undefined ? { testCmd: a.strings['test-cmd'] } : {}),
        out: outDir,
        replace: a.booleans.replace === true,
        stripFences: a.booleans['strip-fences'] === true,
      },
      deps,
    );
    if (a.booleans.json) printJson(summary);
    else out(renderSummary(summary));
    // Nothing written (no row, an unusable --out, every task folder kept) is a failure too.
    return summary.counts.errors > 0 || summary.counts.tasks === 0 ? 1 : 0;
  },
});

/** The human-readable import report. */
export function renderSummary(s: ImportSummary): string {
  const lines: string[] = [];
  const kept = s.tasks.filter((t) => t.status === 'kept').length;
  if (s.counts.tasks === 0) lines.push(`Nothing was imported into ${s.out}: ${nothingBecause(s, kept)}`);
  else {
    lines.push(
      `Imported ${s.counts.tasks} task(s), ${s.counts.attempts} attempt(s), ${s.counts.recordedResults} recorded result(s) into ${s.out}` +
        (kept > 0 ? ` (${kept} existing task folder(s) kept)` : ''),
    );
  }
  for (const f of s.instanceFiles) lines.push(`  instances   ${f.file}: ${f.rows} row(s)${f.shape ? ` (${f.shape})` : ''}`);
  for (const f of s.predictionFiles) lines.push(`  predictions ${f.file}: ${f.predictions} prediction(s)${f.shape ? ` (${f.shape})` : ''}`);
  if (s.tasks.length > 0) {
    lines.push('');
    lines.push(
      ...table(
        ['TASK', 'F2P', 'P2P', 'ATTEMPTS', 'REPO', 'STATUS'],
        s.tasks.map((t) => [t.id, t.tests.failToPass, t.tests.passToPass, t.attempts.length, t.repo.kind === 'git' ? `${t.repo.name} @ ${t.repo.path}` : `${t.repo.name} (in image)`, t.status]),
      )
        .trimEnd()
        .split('\n'),
    );
    const verdictText = (r: ImportSummary['tasks'][number]['attempts'][number]['recordedResults'][number]) =>
      `${r.status ?? (r.resolved ? 'resolved' : 'unresolved')}${r.patchApplied === false ? ' (patch did not apply)' : ''}${r.detail ? ` (${r.detail})` : ''} [${r.source}]`;
    for (const t of s.tasks) {
      if (t.attempts.length === 0 && !t.gold) continue;
      lines.push('', `${t.id}:`);
      if (t.gold) lines.push(`  gold patch  recorded: ${t.gold.recordedResults.map(verdictText).join('; ')}`);
      for (const at of t.attempts) {
        const verdicts = at.recordedResults.map(verdictText);
        lines.push(`  ${at.id}  model ${at.model}${at.agent ? `, ${at.agent}` : ''}; patch ${at.patchBytes} B from ${at.patchFrom}`);
        if (at.trajectory) lines.push(`      trajectory from ${at.trajectory.from}${at.trajectory.format ? ` (${at.trajectory.format})` : ''}`);
        if (verdicts.length > 0) lines.push(`      recorded: ${verdicts.join('; ')}`);
        for (const f of at.flags) lines.push(`      ! ${f}`);
      }
    }
  }
  const fenced = s.tasks.flatMap((t) => t.attempts.filter((a) => a.fence));
  if (fenced.length > 0) {
    lines.push(
      '',
      fenced.every((a) => a.fence?.stripped)
        ? `${fenced.length} patch(es) were wrapped in a Markdown fence; the diffs inside them were stored (--strip-fences)`
        : `${fenced.length} patch(es) are wrapped in a Markdown fence: import again with --strip-fences to store the diffs inside them`,
    );
  }
  if (s.unmatched.length > 0) {
    lines.push('', `Not matched (${s.unmatched.length}):`);
    for (const l of unmatchedLines(s.unmatched)) lines.push(`  ${l}`);
  }
  if (s.skipped.length > 0) {
    lines.push('', `Skipped (${s.skipped.length}):`);
    for (const k of s.skipped) lines.push(`  ${k.kind} ${k.instanceId}${k.model ? ` by ${k.model}` : ''} (${k.file}${k.line !== undefined ? `:${k.line}` : ''}): ${k.reason}`);
  }
  if (s.counts.merged > 0) {
    lines.push('', `Merged ${s.counts.merged} duplicate(s):`);
    for (const l of mergedLines(s.merged)) lines.push(`  ${l}`);
  }
  if (s.ignored.length > 0) {
    lines.push('', `Ignored ${s.ignored.length} file(s) that are neither trajectories, predictions nor reports:`);
    for (const l of ignoredLines(s.ignored)) lines.push(`  ${l}`);
  }
  if (s.problems.length > 0) {
    lines.push('', `Problems (${s.counts.errors} error(s), ${s.counts.warnings} warning(s)):`);
    for (const p of s.problems) lines.push(`  ${formatProblem(p)}`);
  }
  // Every line holds file names, ids and reasons from the inputs: each stays one inert line.
  return lines.map(one).join('\n') + '\n';
}

/** Why a run wrote no task: the error that stopped it, or the task folders that were kept. */
function nothingBecause(s: ImportSummary, kept: number): string {
  if (kept > 0) return `its ${kept} task folder(s) already exist and were kept (pass --replace to overwrite them)`;
  const fatal = [...s.problems].reverse().find((p) => p.severity === 'error' && /nothing was written|--out is/.test(p.message));
  if (fatal) return fatal.message;
  if (s.tasks.length === 0) return 'no task could be built from the rows (see Problems); nothing was written';
  return 'nothing was written';
}

/** The ignored files, one line each, or one line per reason when there are many. */
function ignoredLines(list: ImportSummary['ignored']): string[] {
  if (list.length <= 10) return list.map((i) => `${i.file}: ${i.reason}`);
  const byReason = new Map<string, string[]>();
  for (const i of list) byReason.set(i.reason, [...(byReason.get(i.reason) ?? []), i.file]);
  const out: string[] = [];
  for (const [reason, files] of byReason) {
    if (files.length === 1) out.push(`${files[0] as string}: ${reason}`);
    else out.push(`${files.length} files (${files.slice(0, 2).join(', ')}${files.length > 2 ? ', ...' : ''}): ${reason}`);
  }
  return [...out, '(every file is in the --json summary)'];
}

/** A file read once although reached twice; predictions that were already imported, one line per pair of files. */
function mergedLines(m: ImportSummary['merged']): string[] {
  const out = m.files.map((f) => `${f.file}: ${f.why}`);
  const fileOf = (ref: string) => ref.replace(/:\d+$/, '');
  const groups = new Map<string, number>();
  for (const p of m.predictions) {
    const key = `${fileOf(p.dropped)}\u0000${fileOf(p.kept)}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  for (const [key, n] of groups) {
    const [dropped, kept] = key.split('\u0000') as [string, string];
    out.push(`${n} prediction(s) in ${dropped} are the same (instance, model, patch) as in ${kept}: one attempt each`);
  }
  return out;
}

/** One line per unmatched input; many of the same kind, file, solver and reason share a line. */
function unmatchedLines(list: Unmatched[]): string[] {
  const groups = new Map<string, Unmatched[]>();
  for (const u of list) {
    // Per-instance reports of instances without a row sit in one file each: group them by solver, not by file.
    const byFile = u.kind !== 'instance' && !(u.kind === 'report' && u.reason === 'no instance row with this id');
    const key = [u.kind, byFile ? u.file : '', u.model ?? '', u.reason].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  const lines: string[] = [];
  for (const g of groups.values()) {
    const u = g[0] as Unmatched;
    const by = u.model ? ` by ${u.model}` : '';
    if (g.length === 1) {
      const where = u.kind === 'instance' ? `${u.file}${u.line !== undefined ? `:${u.line}` : ''}` : `${u.file}${u.line !== undefined ? `:${u.line}` : ''}`;
      const ids = u.instanceIds ? `: ${preview(u.instanceIds)}` : '';
      lines.push(`${u.kind}${u.instanceId ? ` ${u.instanceId}` : ''}${by} (${where}): ${u.reason}${ids}`);
    } else {
      const ids = g.map((x) => x.instanceId).filter((x): x is string => x !== undefined);
      const where = g.every((x) => x.file === u.file) && u.kind !== 'instance' ? ` in ${u.file}` : '';
      const kinds = u.kind === 'trajectory' ? 'trajectories' : `${u.kind}s`;
      lines.push(`${g.length} ${kinds}${by}${where}: ${u.reason}: ${preview(ids)}`);
    }
  }
  return lines;
}

function preview(ids: string[], n = 4): string {
  return ids.length <= n ? ids.join(', ') : `${ids.slice(0, n).join(', ')} and ${ids.length - n} more`;
}
