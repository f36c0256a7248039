// Generates large synthetic datasets for benchmarks (never committed): N tasks with specs, tests and attempts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { attemptToJson, formatJson, taskToJson } from '../src/core/serialize';
import type { TaskDraft } from '../src/core/serialize';

export interface GenerateOptions {
  tasks: number;
  specs: number;
  tests: number;
  attempts: number;
}

const categories = ['data-transformation', 'error-handling', 'interface-io-contracts', 'control-flow-ordering', 'state-consistency'];

/** Writes a dataset to `root` and returns the number of files written. */
export function generateDataset(root: string, o: GenerateOptions): number {
  fs.mkdirSync(path.join(root, 'tasks'), { recursive: true });
  fs.writeFileSync(path.join(root, 'specweave.json'), formatJson({ format: 1, name: 'bench', defaults: { image: 'bench:latest' } }));
  let files = 1;
  const patch = 'diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n+++ b/src/m.py\n@@ -1,1 +1,1 @@\n-x = 1\n+x = 2\n';
  for (let i = 0; i < o.tasks; i++) {
    const id = `task-${String(i).padStart(5, '0')}`;
    const dir = path.join(root, 'tasks', id);
    fs.mkdirSync(path.join(dir, 'attempts'), { recursive: true });
    const specs = Array.from({ length: o.specs }, (_, s) => ({
      id: `S${s + 1}`,
      category: categories[s % categories.length] as string,
      text: `Spec ${s + 1} of ${id}: the function must handle case ${s} and keep the invariant stated in the request.`,
      ...(s > 0 ? { dependsOn: [`S${s}`] } : {}),
    }));
    const tests = Array.from({ length: o.tests }, (_, t) => ({
      id: `T${t + 1}`,
      name: `tests/test_mod.py::test_case_${t}[param-${t}]`,
      kind: (t < o.tests / 4 ? 'fail_to_pass' : 'pass_to_pass') as 'fail_to_pass' | 'pass_to_pass',
      specs: [`S${(t % o.specs) + 1}`, `S${((t + 3) % o.specs) + 1}`],
    }));
    const task: TaskDraft = {
      id,
      title: `Synthetic task ${i}`,
      repo: { name: 'bench/repo', path: 'repos/repo', baseCommit: 'a'.repeat(40) },
      verifier: { command: 'python3 -m pytest -rA tests/test_mod.py', parser: 'pytest' },
      specs,
      tests,
    };
    fs.writeFileSync(path.join(dir, 'task.json'), taskToJson(task));
    fs.writeFileSync(path.join(dir, 'request.md'), `# ${task.title}\n\nPlease implement the feature.\n`);
    fs.writeFileSync(path.join(dir, 'tests.patch'), patch);
    fs.writeFileSync(path.join(dir, 'gold.patch'), patch);
    files += 4;
    for (let a = 0; a < o.attempts; a++) {
      const ad = path.join(dir, 'attempts', `a${a + 1}`);
      fs.mkdirSync(ad);
      fs.writeFileSync(path.join(ad, 'attempt.json'), attemptToJson({ model: `model-${a}`, agent: 'swe-agent', costUsd: 0.01 * a, trajectory: 'trajectory.traj' }));
      fs.writeFileSync(path.join(ad, 'patch.diff'), patch);
      fs.writeFileSync(path.join(ad, 'trajectory.traj'), '{"trajectory": [], "history": [], "info": {}}');
      files += 3;
    }
  }
  return files;
}
