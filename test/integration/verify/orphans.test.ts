// After `kill -9` of the CLI, its running container stops by itself soon (the engine closes the container's stdin when
// the owner's attach connection drops; the driver's watchdog ends the run on that EOF), and the next start of the
// CLI, whatever the command, removes it.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { listOwned } from '../../../src/adapters/docker/sweep';
import { buildDataset } from '../../fixtures/verify/dataset';
import { untilNotRunning, watchContainers } from './engineEvents';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';
import { cliArgs } from '../../unit/helpers/cli';

const ROOT = path.resolve(__dirname, '../../..');

function startCli(args: string[]): { p: ChildProcess; exited: Promise<number | null>; output: () => string } {
  const p = spawn(process.execPath, [...cliArgs(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)));
  return { p, exited, output: () => out };
}

let engine: Engine;
let root: string;
const taskId = `sleepy-${process.pid}`;

before(async () => {
  engine = await requireEngine();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-orphans-'));
  // A test that sleeps far longer than this test waits, under the default 300 s deadline.
  buildDataset(root, [{ id: taskId, timeoutSec: 300, command: 'python3 -c "import time; time.sleep(600)"', attempts: [] }]);
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test('kill -9 of the CLI: its container stops by itself within 20 s, and the next CLI start removes it', async (t) => {
  // The engine's events of this task's containers, subscribed before the CLI starts: its start and its stop are waited
  // for, not polled.
  const events = await watchContainers(engine, [`specweave.task=${taskId}`]);
  t.after(() => events.close());
  const cli = startCli(['verify', root, taskId, '--empty', '--force']);
  const ofTask = async () => (await listOwned(engine)).filter((c) => c.labels['specweave.task'] === taskId);
  const endedFirst = cli.exited.then(() => Promise.reject(new Error(`the CLI ended first:\n${cli.output()}`)));
  endedFirst.catch(() => undefined);
  const started = await Promise.race([events.next('the run container to start', 60_000, (e) => e.action === 'start'), endedFirst]);
  const running = await (await engine.docker()).getContainer(started.id).inspect();
  assert.equal(running.State.Status, 'running');
  assert.equal(running.Config.Labels['specweave.pid'], String(cli.p.pid));

  const killedAt = Date.now();
  cli.p.kill('SIGKILL');
  await cli.exited;
  const state = await untilNotRunning(engine, running.Id, 'the orphan to stop by itself', 20_000);
  t.diagnostic(`the orphan stopped ${Date.now() - killedAt} ms after the kill`);
  assert.equal(state, 'exited');

  // Any command sweeps at start: here one that never runs a container.
  const list = startCli(['list', root]);
  assert.equal(await list.exited, 0, list.output());
  assert.deepEqual((await ofTask()).map((c) => c.id), [], 'the orphan was removed by the next start of the CLI');
});
