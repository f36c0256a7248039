// `specweave plant DATASET --out DIR [TASK ...] [--json]`: copies tasks into a new dataset with planted false
// positives (an assertion dropped) and false negatives (an over-strict exact message), the ground truth in
// DIR/planted.json. `specweave plant --score DIR [--json]`: the recall of the gold mutants and the review agent on
// them. See docs/calibration.md.
import type { PlantedScore, PlantedTruth, RecallFigure } from '../core/probes/plant';
import { DatasetFileError } from '../adapters/fs/datasetPaths';
import { PlantError, plantDataset, scorePlantedDataset } from '../app/plantedSuite';
import { UsageError } from './args';
import { defineCommand } from './command';
import { err, one, out, printJson, table } from './output';

const kindName = (k: string) => (k === 'false_positive' ? 'false positive' : 'false negative');

export function formatPlanted(t: PlantedTruth, dir: string): string {
  const lines: string[] = [];
  lines.push(`Planted ${t.planted.length} defect(s) in ${dir} (ground truth: ${dir}/planted.json):`);
  if (t.planted.length > 0) lines.push(table(['COPY', 'KIND', 'TEST', 'SPECS', 'ASSERTION'], t.planted.map((d) => [d.copy, kindName(d.kind), d.test, d.specs.join(','), one(d.assertion)])));
  for (const s of t.skipped) lines.push(`not planted: ${s.task} (${kindName(s.kind)}): ${s.reason}`);
  lines.push('Next: specweave probe DIR --mutants N (and the review agent on DIR), then specweave plant --score DIR.');
  return lines.join('\n') + '\n';
}

const recall = (f: RecallFigure) => (f.recall === undefined ? '-' : `${(f.recall * 100).toFixed(0)}% (${f.caught}/${f.caught + f.missed})`);

export function formatPlantedScore(s: PlantedScore): string {
  const lines: string[] = [];
  lines.push('Recall on planted defects:');
  lines.push(
    table(
      ['DETECTOR', 'KIND', 'CAUGHT', 'MISSED', 'NOT RUN', 'RECALL'],
      (['probes', 'agent'] as const).flatMap((who) => (['false_positive', 'false_negative'] as const).map((k) => [who === 'agent' ? 'review agent' : k === 'false_positive' ? 'gold mutants' : 'alternative solutions', kindName(k), s[who][k].caught, s[who][k].missed, s[who][k].notRun, recall(s[who][k])])),
    ),
  );
  lines.push(
    table(
      ['COPY', 'KIND', 'PROBES', 'AGENT', 'PROBE EVIDENCE', 'AGENT FINDINGS (COPY/BASELINE)'],
      s.detections.map((d) => [
        d.copy,
        kindName(d.kind),
        d.probes.replace('_', ' '),
        d.agent.replace('_', ' '),
        (d.kind === 'false_positive' ? d.survivors : d.rejections).join(', ') || '-',
        `${d.agentFindings.copy}/${d.agentFindings.baseline}`,
      ]),
    ),
  );
  lines.push('Probe evidence: on a planted false positive, the gold mutants that survive on the copy and the planted test killed on the original (specweave probe DIR --mutants N); on a planted false negative, the alternative solutions the planted test rejects on the copy and not on the original (specweave probe DIR --alternatives N).');
  return lines.join('\n') + '\n';
}

export const plantCommand = defineCommand({
  name: 'plant',
  summary: 'planted-defect suite: copy tasks with planted false positives / negatives, or score what caught them',
  usage: 'specweave plant DATASET --out DIR [TASK ...] [--fp-test TASK=TEST ...] [--json]  |  specweave plant --score DIR [--json]',
  flags: {
    out: { type: 'string', help: 'the new dataset to write (missing or empty)' },
    'fp-test': { type: 'list', help: 'TASK=TEST: drop an assertion of this test for the planted false positive (default: the first spec-mapped test with two or more)' },
    score: { type: 'string', help: 'score the planted dataset DIR: recall of the gold mutants and the review agent' },
    json: { type: 'boolean', help: 'print JSON' },
  },
  positional: { min: 0, max: 10_000 },
  async run(a) {
    const scoreDir = a.strings.score;
    try {
      if (scoreDir !== undefined) {
        if (a.positional.length > 0 || a.strings.out !== undefined) throw new UsageError('--score DIR takes no DATASET, TASK or --out');
        const { score } = scorePlantedDataset(scoreDir);
        if (a.booleans.json) printJson(score);
        else out(formatPlantedScore(score));
        return 0;
      }
      const [dataset, ...tasks] = a.positional;
      if (dataset === undefined) throw new UsageError('missing DATASET');
      const outDir = a.strings.out;
      if (outDir === undefined) throw new UsageError('--out DIR is required');
      const fpTests: Record<string, string> = {};
      for (const v of a.lists['fp-test'] ?? []) {
        const eq = v.indexOf('=');
        if (eq <= 0 || eq === v.length - 1) throw new UsageError(`--fp-test needs TASK=TEST, got "${v}"`);
        fpTests[v.slice(0, eq)] = v.slice(eq + 1);
      }
      const truth = plantDataset(dataset, outDir, { tasks, fpTests });
      if (a.booleans.json) printJson(truth);
      else out(formatPlanted(truth, outDir));
      return 0;
    } catch (e) {
      if (!(e instanceof PlantError) && !(e instanceof DatasetFileError)) throw e;
      err(`specweave plant: ${one(e.message)}\n`);
      return 1;
    }
  },
});
