// `specweave show DATASET TASK`: the whole task, its attempts and normalized trajectory summaries.
import { DatasetFileError, openDataset, readDatasetTextIfExists, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { summarizeTrajectory } from '../adapters/fs/trajectoryReader';
import type { Problem, TrajectorySummary } from '../core/model';
import { filePath, parsePatch } from '../core/patch';
import { defineCommand } from './command';
import { UsageError } from './args';
import { err, formatProblem, one, out, printJson, table } from './output';
import { reviewStatuses } from './reviewStatus';

export const showCommand = defineCommand({
  name: 'show',
  summary: 'the whole task: request, specs, tests, attempts and trajectory summaries',
  usage: 'specweave show DATASET TASK [--json]',
  flags: { json: { type: 'boolean', help: 'print the task, its files and attempt summaries as JSON (see docs/cli.md)' } },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, id] = a.positional as [string, string];
    const dataset = openDataset(root, { only: [id] });
    const task = dataset.tasks.find((t) => t.id === id);
    if (!task) {
      for (const p of dataset.problems) err(formatProblem(p) + '\n');
      throw new UsageError(`no task "${id}" in ${dataset.root}`);
    }
    const problems: Problem[] = [...dataset.problems];
    // A file that cannot be read (a symlink out of the dataset) is a problem naming it; the rest is shown.
    const read = (rel: string | undefined) => {
      if (!rel) return undefined;
      try {
        return readDatasetTextIfExists(dataset.root, rel);
      } catch (e) {
        if (!(e instanceof DatasetFileError)) throw e;
        problems.push({ severity: 'error', file: e.file, message: e.detail });
        return undefined;
      }
    };
    const patchFiles = (rel: string | undefined) => {
      const text = read(rel);
      if (text === undefined) return undefined;
      return parsePatch(text, rel).files.map((f) => ({ path: filePath(f), status: f.status, additions: f.additions, deletions: f.deletions }));
    };
    const attempts = [];
    for (const at of task.attempts) {
      let trajectory: { summary?: TrajectorySummary; error?: string } | undefined;
      if (at.trajectoryFile) {
        let abs: string | undefined;
        try {
          abs = resolveDatasetPath(dataset.root, at.trajectoryFile);
        } catch (e) {
          if (!(e instanceof DatasetFileError)) throw e;
          trajectory = { error: e.message };
        }
        if (abs !== undefined) {
          const r = await summarizeTrajectory(abs, { fileLabel: at.trajectoryFile, datasetRoot: dataset.root });
          trajectory = r.ok ? { summary: r.summary } : { error: formatProblem(r.problem) };
        }
      }
      attempts.push({ ...at, patch: patchFiles(at.patchFile), trajectory });
    }
    const status = reviewStatuses(dataset, problems)(task.id);
    const view = {
      task: { ...task, attempts: undefined, status },
      request: read(task.files.request),
      testPatch: patchFiles(task.files.testPatch),
      goldPatch: patchFiles(task.files.goldPatch),
      attempts,
      problems,
    };
    const exit = problems.some((p) => p.severity === 'error') ? 1 : 0;
    if (a.booleans.json) {
      printJson(view);
      for (const p of problems) err(formatProblem(p) + '\n');
      return exit;
    }
    const w = (s: string) => out(s);
    // Names and fields one line each; the request is a block (its lines stay, out() escapes the rest).
    w(`${one(task.id)}  ${one(task.title)}\nstatus ${status} · revision ${task.revision} · ${one(task.repo.name)}${task.repo.baseCommit ? ` @ ${one(task.repo.baseCommit.slice(0, 12))}` : ''} · image ${one(task.environment.image || '(none)')}\n`);
    w(`verifier: ${one(task.verifier.command)} (${one(task.verifier.parser)})\n`);
    for (const n of task.notes) w(`note: ${one(n)}\n`);
    w(`\nREQUEST\n${(view.request ?? '(missing)').trimEnd()}\n\nSPECS (${task.specs.length})\n`);
    const coveredBy = (sid: string) => task.tests.filter((t) => t.specs.includes(sid)).map((t) => t.id);
    w(table(['SPEC', 'CATEGORY', 'TESTS', 'DEPENDS', 'TEXT'], task.specs.map((s) => [s.id, s.category, coveredBy(s.id).join(',') || '(none)', s.dependsOn.join(','), s.text])));
    w(`\nTESTS (${task.tests.length})\n`);
    w(table(['TEST', 'KIND', 'SPECS', 'NAME'], task.tests.map((t) => [t.id, t.kind, t.specs.join(',') || '(none)', t.name])));
    w(`\nATTEMPTS (${attempts.length})\n`);
    w(
      table(
        ['ATTEMPT', 'MODEL', 'AGENT', 'FILES', '+/-', 'STEPS', 'COST', 'EXIT', 'TRAJECTORY'],
        attempts.map((x) => {
          const s = x.trajectory?.summary;
          const files = x.patch ?? [];
          return [
            x.id,
            x.model,
            x.agent,
            files.length,
            `+${files.reduce((n, f) => n + f.additions, 0)}/-${files.reduce((n, f) => n + f.deletions, 0)}`,
            s ? `${s.steps} (${Object.entries(s.byKind).map(([k, v]) => `${k} ${v}`).join(', ')})` : '',
            s?.costUsd !== undefined ? `$${s.costUsd.toFixed(4)}` : x.costUsd !== undefined ? `$${x.costUsd.toFixed(4)}` : '',
            s?.exitStatus ?? x.claimed?.status ?? '',
            s ? s.format : (x.trajectory?.error ?? ''),
          ];
        }),
      ),
    );
    for (const x of attempts) {
      for (const r of x.recordedResults) {
        w(`recorded (${one(r.source)}, imported) for ${one(x.id)}: ${one(r.status ?? (r.resolved ? 'resolved' : 'unresolved'))} — ${one(r.file)}\n`);
      }
    }
    for (const p of problems) err(formatProblem(p) + '\n');
    return exit;
  },
});
