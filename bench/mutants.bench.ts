// Gold mutants of format-precision (the example dataset's known false positive) in the verifier's containers:
// mutants/s at concurrency 1 and 2, against gold-probe runs/s measured in the same run through the same service
// (the gold patch sent as a probe, so neither is reused from runs/). A ratio near 1 says a mutant costs what a gold
// run costs: generation and the report add nothing measurable.
// With --warm: mutants/s in fresh containers against warm ones (src/adapters/docker/warm.ts), side by side in the same
// run (rounds alternate which goes first), and whether every mutant got the same outcome both ways.
//   node --import tsx bench/mutants.bench.ts [--mutants N] [--rounds N] [--warm]
// Needs the engine and the base image (scripts/setup-docker.sh). Prints a Markdown section for docs/benchmarks.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { VerifierService } from '../src/adapters/docker/verifyService';
import { loadDataset } from '../src/adapters/fs/datasetLoader';
import { generateMutants, runMutants } from '../src/app/probes';
import { GOLD_PROBE } from '../src/core/model';
import { buildExampleRepo } from '../test/unit/helpers/exampleRuns';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}
const MUTANTS = arg('mutants', 8);
const ROUNDS = arg('rounds', 2);
const EXAMPLES = path.resolve(__dirname, '../examples');

async function main(): Promise<void> {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-mutants-'));
  fs.cpSync(path.join(EXAMPLES, 'dataset'), path.join(top, 'ds'), { recursive: true });
  fs.cpSync(buildExampleRepo(), path.join(top, 'repos', 'durations'), { recursive: true });
  const root = path.join(top, 'ds');
  const task = loadDataset(root).tasks.find((t) => t.id === 'format-precision');
  if (!task) throw new Error('format-precision missing');
  const set = await generateMutants(root, task, MUTANTS);
  if (process.argv.includes('--warm')) {
    await warmAgainstFresh(root, task, set);
    fs.rmSync(top, { recursive: true, force: true });
    return;
  }
  const rows: string[] = [];
  for (const concurrency of [1, 2]) {
    const service = new VerifierService({ datasetRoot: root, concurrency });
    // Warm-up: the image, the repository archive cache.
    await service.verify({ task, attemptId: GOLD_PROBE, probe: { id: 'warm', patch: set.gold }, force: true });
    let goldMs = 0;
    let mutantMs = 0;
    let golds = 0;
    let mutants = 0;
    let killed = 0;
    let survived = 0;
    for (let r = 0; r < ROUNDS; r++) {
      // Gold runs: as many as mutants, queued together, the same way.
      const g0 = performance.now();
      const ids = set.mutants.map((_, i) => service.enqueue({ task, attemptId: GOLD_PROBE, probe: { id: `gold-${i}`, patch: set.gold }, force: true }));
      const outs = await Promise.all(ids.map((id) => service.queue.result(id)));
      goldMs += performance.now() - g0;
      golds += outs.filter((o) => o.state === 'done' && o.value.status === 'passed').length;
      const m0 = performance.now();
      const res = await runMutants(task, set, set.mutants, { service, datasetRoot: root, persist: false });
      mutantMs += performance.now() - m0;
      // runMutants also runs the gold patch once: counted as one more run.
      mutants += res.report.ran;
      killed += res.report.counts.killed;
      survived += res.report.counts.survived;
    }
    const goldRate = golds / (goldMs / 1000);
    const mutantRate = (mutants + ROUNDS) / (mutantMs / 1000);
    rows.push(
      `| ${concurrency} | ${(mutants / (mutantMs / 1000)).toFixed(2)} | ${goldRate.toFixed(2)} | ${(mutantRate / goldRate).toFixed(2)} | ${killed} / ${survived} |`,
    );
  }
  const load = os.loadavg()[0]?.toFixed(1);
  process.stdout.write(
    [
      `${set.mutants.length} mutants of format-precision (of ${set.generated} generated), ${ROUNDS} round(s), load average ${load}, ${os.cpus().length} cores`,
      '',
      '| concurrency | mutants/s | gold-probe runs/s | container runs/s, mutants vs gold | killed / survived |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
  fs.rmSync(top, { recursive: true, force: true });
}

async function warmAgainstFresh(root: string, task: NonNullable<ReturnType<typeof loadDataset>['tasks'][number]>, set: Awaited<ReturnType<typeof generateMutants>>): Promise<void> {
  const rows: string[] = [];
  for (const concurrency of [1, 2]) {
    const services = { fresh: new VerifierService({ datasetRoot: root, concurrency }), warm: new VerifierService({ datasetRoot: root, concurrency, warm: true }) };
    const ms = { fresh: 0, warm: 0 };
    const ran = { fresh: 0, warm: 0 };
    const outcomes = { fresh: new Map<string, string>(), warm: new Map<string, string>() };
    // Warm-up of each: the image and the repository archive; for warm, its container.
    for (const k of ['fresh', 'warm'] as const) await runMutants(task, set, set.mutants.slice(0, 1), { service: services[k], datasetRoot: root, persist: false });
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of r % 2 === 0 ? (['fresh', 'warm'] as const) : (['warm', 'fresh'] as const)) {
        const t0 = performance.now();
        const res = await runMutants(task, set, set.mutants, { service: services[k], datasetRoot: root, persist: false });
        ms[k] += performance.now() - t0;
        ran[k] += res.report.ran + 1;
        for (const m of res.report.mutants) {
          const was = outcomes[k].get(m.id);
          if (was && was !== m.outcome) throw new Error(`${k}: mutant ${m.id} was ${was}, now ${m.outcome}`);
          outcomes[k].set(m.id, m.outcome);
        }
      }
    }
    for (const k of ['fresh', 'warm'] as const) await services[k].close();
    const differ = [...outcomes.fresh].filter(([id, o]) => outcomes.warm.get(id) !== o).map(([id]) => id);
    const rate = (k: 'fresh' | 'warm') => ran[k] / (ms[k] / 1000);
    const count = (k: 'fresh' | 'warm', o: string) => [...outcomes[k].values()].filter((x) => x === o).length;
    rows.push(`| ${concurrency} | ${rate('fresh').toFixed(2)} | ${rate('warm').toFixed(2)} | ${(rate('warm') / rate('fresh')).toFixed(2)} | ${count('fresh', 'killed')} / ${count('fresh', 'survived')} | ${differ.length === 0 ? 'none' : differ.join(', ')} |`);
  }
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(
    [
      `${set.mutants.length} mutants of format-precision (of ${set.generated} generated) plus the gold run each time, ${ROUNDS} round(s) per mode, load average ${load}, ${os.cpus().length} cores`,
      '',
      '| concurrency | fresh runs/s | warm runs/s | warm / fresh | killed / survived | outcomes that differ |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
}

void main();
