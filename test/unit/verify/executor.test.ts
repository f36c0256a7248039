// The executor finds out once per engine whether its storage driver takes a per-container quota: asked for where it
// works, dropped (and not asked again) where the engine refuses it, and any other refusal is not mistaken for that.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type Docker from 'dockerode';
import { Engine } from '../../../src/adapters/docker/engine';
import { createContainer } from '../../../src/adapters/docker/executor';
import { describeRun } from '../../../src/adapters/docker/runSpec';

const d = describeRun({
  runId: 'r1',
  taskId: 't',
  attemptId: 'a',
  image: 'img',
  imageUser: '',
  repoKind: 'git',
  workdir: '/repo',
  limits: { memoryMb: 512, cpus: 1, pids: 64, diskMb: 64 },
  timeoutSec: 10,
  verifier: { command: 'true', parser: 'pytest' },
  owner: { pid: 1, host: 'h' },
  createdAt: 0,
});

function fakeDocker(refuse: (o: Docker.ContainerCreateOptions) => Error | undefined): { docker: Docker; calls: Docker.ContainerCreateOptions[] } {
  const calls: Docker.ContainerCreateOptions[] = [];
  const docker = {
    createContainer: (o: Docker.ContainerCreateOptions) => {
      calls.push(o);
      const e = refuse(o);
      return e ? Promise.reject(e) : Promise.resolve({ id: `c${calls.length}` });
    },
  } as unknown as Docker;
  return { docker, calls };
}

const overlayOnExt4 = Object.assign(new Error('(HTTP code 500) server error'), {
  statusCode: 500,
  json: { message: "--storage-opt is supported only for overlay over xfs with 'pquota' mount option" },
});

test('no storage quota on this driver: the create is retried without, and later runs do not ask', async () => {
  const engine = new Engine();
  const { docker, calls } = fakeDocker((o) => (o.HostConfig?.StorageOpt ? overlayOnExt4 : undefined));
  await createContainer(engine, docker, d, 1000);
  assert.deepEqual(calls.map((c) => c.HostConfig?.StorageOpt), [{ size: String(1000 + 64 * 1024 * 1024) }, undefined]);
  assert.equal(engine.storageQuota, false);
  await createContainer(engine, docker, d, 1000);
  assert.equal(calls.length, 3, 'asked once per engine');
  assert.equal(calls[2]?.HostConfig?.StorageOpt, undefined);
});

test('a driver with quotas keeps the quota; another refusal (a name conflict) is not taken for "no quota"', async () => {
  const engine = new Engine();
  const ok = fakeDocker(() => undefined);
  await createContainer(engine, ok.docker, d, 0);
  assert.equal(engine.storageQuota, true);
  assert.deepEqual(ok.calls[0]?.HostConfig?.StorageOpt, { size: String(64 * 1024 * 1024) });

  const other = new Engine();
  const conflict = Object.assign(new Error('(HTTP code 409) conflict'), { statusCode: 409, json: { message: 'Conflict. The container name is already in use' } });
  const bad = fakeDocker(() => conflict);
  await assert.rejects(createContainer(other, bad.docker, d, 0), /409/);
  assert.equal(other.storageQuota, undefined);
  assert.equal(bad.calls.length, 1);
});
