// The integration tests need a real engine and the offline base image. Without them they fail, loudly, with what
// to do: they never skip.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { Engine } from '../../../src/adapters/docker/engine';
import { isOrphan, listOwned } from '../../../src/adapters/docker/sweep';
import { BASE_IMAGE } from '../../fixtures/verify/dataset';

export const SETUP_HINT = 'Run scripts/setup-docker.sh (it installs docker.io, starts dockerd and builds the base image).';

/** A connected engine with the base image present, or a failed test saying how to get one. */
export async function requireEngine(): Promise<Engine> {
  // The product's first ping gives up after 800 ms (a user waits on it); a busy test machine's engine, starting
  // clusters beside this file, may take longer to answer without being absent (ci46 under stress-ng).
  const engine = new Engine({ pingTimeoutMs: 10_000 });
  try {
    const docker = await engine.docker();
    await docker.getImage(BASE_IMAGE).inspect();
  } catch (e) {
    assert.fail(`No usable container engine for the integration tests: ${e instanceof Error ? e.message : String(e)}\n${SETUP_HINT}`);
  }
  return engine;
}

/**
 * After a suite: no container of ours may remain, "ours" being this process's and those of processes that ended
 * (the CLIs a test spawned). Containers of other live processes (another suite using the same engine at the same
 * time) are neither reported nor removed: removing them would break that suite's runs.
 */
export async function assertNoOwnedContainers(engine: Engine): Promise<void> {
  const host = os.hostname();
  const left = (await listOwned(engine)).filter(
    (c) => (c.labels['specweave.host'] === host && c.labels['specweave.pid'] === String(process.pid)) || isOrphan(c.labels, {}),
  );
  if (left.length > 0) {
    const docker = await engine.docker();
    await Promise.all(left.map((c) => docker.getContainer(c.id).remove({ force: true, v: true }).catch(() => undefined)));
  }
  assert.deepEqual(
    left.map((c) => `${c.id.slice(0, 12)} ${c.labels['specweave.task']}/${c.labels['specweave.attempt']} ${c.state}`),
    [],
    'containers with our label were left behind',
  );
}
