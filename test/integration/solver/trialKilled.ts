// A process that runs a fresh trial of task `calc` in the dataset given, with a model that gives two commands and then
// never answers: it prints "STEP n" after each step's trajectory write, so the test can kill it mid-trial (kill -9).
import { Engine } from '../../../src/adapters/docker/engine';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { runTrial } from '../../../src/app/solverTrial';
import type { CandidateTask } from '../../../src/core/model';

async function main(): Promise<void> {
  const root = process.argv[2] as string;
  const task = loadDataset(root).tasks.find((t) => t.id === 'calc') as CandidateTask;
  let n = 0;
  await runTrial({
    root,
    task,
    engine: new Engine(),
    modelName: 'scripted/killed',
    attemptId: process.argv[3] as string,
    model: async () => {
      n++;
      if (n > 2) return new Promise(() => undefined); // the model that never answers: the kill comes meanwhile
      return { text: `THOUGHT: step ${n}.`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command: `echo killed-trial-step-${n}` }) }] };
    },
    onStep: (run) => process.stdout.write(`STEP ${run.stats.steps}\n`),
  });
}
void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
