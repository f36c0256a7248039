// A process that starts a solver trial's container, prints its id, and then waits to be killed (the orphan test).
import * as os from 'node:os';
import { Engine } from '../../../src/adapters/docker/engine';
import { SolverContainer } from '../../../src/adapters/docker/solverContainer';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';

async function main(): Promise<void> {
  const c = await SolverContainer.start(new Engine(), {
    trialId: `orphan-${process.pid}`,
    taskId: 'orphan',
    image: BASE_IMAGE,
    imageUser: '',
    repoKind: 'image',
    workdir: '/tmp/repo',
    limits: { memoryMb: 256, cpus: 1, pids: 64, diskMb: 64 },
    owner: { pid: process.pid, host: os.hostname() },
  });
  process.stdout.write(`${c.id}\n`);
  setInterval(() => undefined, 60_000);
}
void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
