// Finding the engine without contacting it, and a clear message within a second when there is none.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { test } from 'node:test';
import { DeadlineError, withDeadline } from '../../../src/adapters/docker/deadline';
import { Engine, EngineUnavailableError, dockerodeOptions, explainEngineError, resolveEngineTarget } from '../../../src/adapters/docker/engine';

test('the setting wins over DOCKER_HOST, which wins over the default socket', () => {
  const env = { DOCKER_HOST: 'tcp://10.0.0.5:2375' };
  assert.deepEqual(resolveEngineTarget({ host: 'unix:///run/x.sock', env }), {
    transport: 'unix',
    address: 'unix:///run/x.sock',
    source: 'setting',
    socketPath: '/run/x.sock',
    tls: false,
  });
  assert.equal(resolveEngineTarget({ env }).address, 'tcp://10.0.0.5:2375');
  assert.equal(resolveEngineTarget({ env }).source, 'DOCKER_HOST');
  assert.deepEqual(resolveEngineTarget({ env: {} }), {
    transport: 'unix',
    address: 'unix:///var/run/docker.sock',
    source: 'default',
    socketPath: '/var/run/docker.sock',
    tls: false,
  });
});

test('address forms: socket paths, tcp with and without TLS, ssh', () => {
  assert.equal(resolveEngineTarget({ host: '/tmp/d.sock', env: {} }).socketPath, '/tmp/d.sock');
  const tls = resolveEngineTarget({ host: 'tcp://h:2376', env: {} });
  assert.deepEqual([tls.transport, tls.host, tls.port, tls.tls], ['tcp', 'h', 2376, true]);
  assert.equal(resolveEngineTarget({ host: 'tcp://h:2375', env: { DOCKER_TLS_VERIFY: '1' } }).tls, true);
  assert.equal(resolveEngineTarget({ host: 'h:2375', env: {} }).address, 'tcp://h:2375');
  const ssh = resolveEngineTarget({ host: 'ssh://me@build.example:2222', env: {} });
  assert.deepEqual([ssh.transport, ssh.host, ssh.port, ssh.username], ['ssh', 'build.example', 2222, 'me']);
  assert.throws(() => resolveEngineTarget({ host: 'ftp://x', env: {} }), /unknown scheme "ftp:"/);
});

test('dockerode options name every key, so DOCKER_HOST cannot override the setting', () => {
  const o = dockerodeOptions(resolveEngineTarget({ host: 'unix:///a.sock', env: {} }), {});
  assert.ok('host' in o && o.host === undefined);
  assert.equal(o.socketPath, '/a.sock');
  const t = dockerodeOptions(resolveEngineTarget({ host: 'tcp://h:2375', env: {} }), {});
  assert.deepEqual([t.protocol, t.host, t.port, t.socketPath], ['http', 'h', 2375, undefined]);
});

test('messages say what happened and what to do', () => {
  const t = resolveEngineTarget({ host: 'unix:///nope.sock', env: {} });
  const e = (code: string) => explainEngineError(t, Object.assign(new Error(code), { code }));
  assert.equal(e('ENOENT').problem, 'no_engine');
  assert.match(e('ENOENT').message, /\/nope\.sock does not exist.*setup-docker\.sh/);
  assert.equal(e('ECONNREFUSED').problem, 'engine_down');
  assert.match(e('EACCES').message, /Permission denied.*docker group/);
  assert.equal(explainEngineError(t, new DeadlineError('ping', 800)).problem, 'no_answer');
});

test('creating an engine contacts nothing; asking for it without an engine fails clearly at once', async (t) => {
  const engine = new Engine({ host: 'unix:///nonexistent/docker.sock' });
  assert.equal(engine.describe().socketPath, '/nonexistent/docker.sock');
  const t0 = Date.now();
  await assert.rejects(engine.docker(), (e: unknown) => e instanceof EngineUnavailableError && e.problem === 'no_engine');
  // A missing socket is refused at once; a hung call would reach the test's own timeout.
  t.diagnostic(`refused in ${Date.now() - t0} ms`);
});

test('an engine address that accepts connections but never answers fails within a second', async () => {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const t0 = Date.now();
    await assert.rejects(new Engine({ host: `tcp://127.0.0.1:${port}`, env: {} }).docker(), (e: unknown) => {
      assert.ok(e instanceof EngineUnavailableError);
      assert.equal(e.problem, 'no_answer');
      assert.match(e.message, /within 800 ms/);
      return true;
    });
    assert.ok(Date.now() - t0 < 10_000, `the 800 ms deadline fired (took ${Date.now() - t0} ms), the call did not hang`);
    // Nothing listening: refused at once.
    server.close();
    for (const s of sockets) s.destroy();
    await assert.rejects(new Engine({ host: `tcp://127.0.0.1:${port}`, env: {} }).docker(), (e: unknown) => e instanceof EngineUnavailableError && e.problem === 'engine_down');
  } finally {
    server.close();
    for (const s of sockets) s.destroy();
  }
});

test('withDeadline rejects on time even when the work ignores its signal, and passes cancellation through', async () => {
  const t0 = Date.now();
  await assert.rejects(withDeadline('slow call', 50, () => new Promise(() => undefined)), /slow call did not answer within 50 ms/);
  assert.ok(Date.now() - t0 < 10_000, 'the 50 ms deadline fired; the work was not waited for');
  const c = new AbortController();
  const p = withDeadline('x', 10_000, (s) => new Promise((_, rej) => s.addEventListener('abort', () => rej(new Error('aborted inside')))), c.signal);
  c.abort(new Error('user cancelled'));
  await assert.rejects(p, /user cancelled/);
  assert.equal(await withDeadline('fast', 1000, async () => 42), 42);
});
