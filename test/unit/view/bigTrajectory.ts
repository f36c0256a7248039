// Writers of large trajectory files for tests and benchmarks (never committed): SWE-agent 0.x `.traj` files made of
// thought/action/observation triples, with a findable word every so often.
import * as fs from 'node:fs';

export interface BigTrajectoryOptions {
  /** Steps wanted (three per item: thought, action, observation). */
  steps: number;
  /** Approximate size of the file in bytes. */
  bytes: number;
  /** Every `needleEvery`-th observation contains the word `needle-<n>`. */
  needleEvery?: number;
}

const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(' ');

function filler(chars: number, seed: number): string {
  const out: string[] = [];
  let n = 0;
  let i = seed;
  while (n < chars) {
    const w = WORDS[i++ % WORDS.length] as string;
    out.push(w);
    n += w.length + 1;
    if (out.length % 12 === 0) out.push('\n');
  }
  return out.join(' ').slice(0, chars);
}

/** Writes the file and returns its size in bytes. */
export function writeSweTrajectory(file: string, o: BigTrajectoryOptions): number {
  const items = Math.ceil(o.steps / 3);
  const perItem = Math.max(60, Math.floor(o.bytes / items) - 120);
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, '{"environment": "bench", "trajectory": [\n');
    for (let i = 0; i < items; i++) {
      const needle = o.needleEvery && i % o.needleEvery === 0 ? ` needle-${i} ` : '';
      const item = {
        thought: `Step ${i}: ${filler(Math.floor(perItem * 0.2), i)}`,
        action: `grep -rn "pattern_${i}" src/`,
        observation: `${needle}${filler(Math.floor(perItem * 0.8) - needle.length, i + 7)}`,
      };
      fs.writeSync(fd, `${i ? ',\n' : ''}${JSON.stringify(item)}`);
    }
    fs.writeSync(fd, '\n], "history": [], "info": {"exit_status": "submitted", "model_stats": {"instance_cost": 1.5}}}\n');
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}
