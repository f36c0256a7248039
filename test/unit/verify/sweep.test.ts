// The sweep at every start of the CLI and the extension: only a local engine whose socket exists is contacted, and
// a missing or unusable engine is never the starting command's error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { sweepAtStartup } from '../../../src/adapters/docker/sweep';

test('sweepAtStartup: nothing for a missing socket or a remote engine; a socket that does not speak HTTP is no error', async () => {
  assert.deepEqual(await sweepAtStartup({ env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } }), []);
  let contacted = 0;
  const tcp = net.createServer((s) => {
    contacted++;
    s.destroy();
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  const port = (tcp.address() as net.AddressInfo).port;
  assert.deepEqual(await sweepAtStartup({ host: `tcp://127.0.0.1:${port}` }), []);
  assert.equal(contacted, 0, 'a remote engine is left alone at start-up');
  tcp.close();

  // A socket that accepts and never answers: the short first contact gives up, quietly.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-sweep-'));
  const sock = path.join(dir, 'docker.sock');
  const silent = net.createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(sock, r));
  try {
    assert.deepEqual(await sweepAtStartup({ host: `unix://${sock}`, pingTimeoutMs: 100 }), []);
  } finally {
    silent.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
