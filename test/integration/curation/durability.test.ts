import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { buildSync } from 'esbuild';
import { ReviewLog } from '../../../src/adapters/fs/reviewLog';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-durability-'));
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
const appender = path.join(work, 'appender.js');

/** Children start from a bundle: node + tsx would spend most of the test starting up. */
before(() => {
  buildSync({ entryPoints: [path.join(__dirname, 'appender.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: appender, logLevel: 'error' });
});

interface Child {
  acked: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
  firstAck: Promise<void>;
}

function start(file: string, count: number, writer: string, startAt?: number, inFlight = 1): Child {
  const args = [appender, file, String(count), writer, ...(startAt !== undefined ? [String(startAt)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, APPENDER_IN_FLIGHT: String(inFlight) } });
  const acked: string[] = [];
  let buf = '';
  let err = '';
  let firstAck!: () => void;
  const first = new Promise<void>((r) => (firstAck = r));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      // Only a whole "ACK <id>" line counts: a kill can cut the print itself, and then the event is not acknowledged.
      const m = /^ACK (\S{26})$/.exec(line);
      if (m) {
        acked.push(m[1] as string);
        firstAck();
      }
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      if (code !== 0 && code !== null) process.stderr.write(`appender ${writer} failed: ${err}\n`);
      resolve({ code, signal });
    }),
  );
  return { acked, exited, kill: () => child.kill('SIGKILL'), firstAck: first };
}

describe('review log durability', () => {
  it('keeps every acknowledged event when the writer is killed with SIGKILL at random moments, 200 times', async () => {
    const file = path.join(work, 'kill', 'curation', 'events.jsonl');
    const acked: string[] = [];
    let killedBeforeAnyAck = 0;
    let kills = 0;
    // Two lanes of 100 kills each run side by side on the same log: half the wall time, and every kill also lands
    // next to a live writer that must get past the dead one's lock.
    const lane = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const c = start(file, 0, 'killed');
        // Random moments: mostly while appending (waiting for the lock, in the middle of a write or of an fsync),
        // sometimes during start-up.
        if (randomInt(0, 100) >= 15) await Promise.race([c.firstAck, c.exited]);
        await new Promise((r) => setTimeout(r, randomInt(0, 40)));
        c.kill();
        const { signal } = await c.exited;
        assert.equal(signal, 'SIGKILL');
        if (c.acked.length === 0) killedBeforeAnyAck++;
        acked.push(...c.acked);
        kills++;
        if (kills % 50 === 0) {
          const ids = new Set(new ReviewLog(file).load().events.map((e) => e.id));
          for (const id of acked) assert.ok(ids.has(id), `acknowledged event ${id} is missing after ${kills} kills`);
        }
      }
    };
    await Promise.all([lane(100), lane(100)]);
    assert.equal(kills, 200);
    const read = new ReviewLog(file).load();
    const ids = new Set(read.events.map((e) => e.id));
    const missing = acked.filter((id) => !ids.has(id));
    assert.deepEqual(missing, [], 'every acknowledged event is in the log');
    assert.ok(acked.length > 200, `only ${acked.length} events were acknowledged: the test did not exercise much`);
    assert.ok(killedBeforeAnyAck < 200);
    // Torn lines (a kill in the middle of a write) are set aside, never mistaken for events; the log still appends.
    for (const r of read.rejected) assert.ok(r.reason === 'torn' || r.reason === 'malformed', r.message);
    const [after] = await new ReviewLog(file).append([{ kind: 'submit', task: 't1', revision: 1, curator: 'check', payload: {} }]);
    const final = new ReviewLog(file).load();
    assert.equal(final.events.at(-1)?.id, after?.id);
    assert.equal(final.events.length, read.events.length + 1);
    process.stdout.write(`# ${acked.length} acknowledged events over 200 kills; ${read.events.length} events in the log; ${read.rejected.length} torn line(s) set aside\n`);
  });

  it('keeps every acknowledged event when a writer with four appends in flight (each behind the others\' fsync) is killed, 60 times', async () => {
    const file = path.join(work, 'in-flight', 'curation', 'events.jsonl');
    const acked: string[] = [];
    let kills = 0;
    const lane = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const c = start(file, 0, 'killed', undefined, 4);
        if (randomInt(0, 100) >= 15) await Promise.race([c.firstAck, c.exited]);
        await new Promise((r) => setTimeout(r, randomInt(0, 40)));
        c.kill();
        assert.equal((await c.exited).signal, 'SIGKILL');
        acked.push(...c.acked);
        kills++;
      }
    };
    await Promise.all([lane(30), lane(30)]);
    assert.equal(kills, 60);
    const read = new ReviewLog(file).load();
    const ids = new Set(read.events.map((e) => e.id));
    assert.deepEqual(acked.filter((id) => !ids.has(id)), [], 'every acknowledged event is in the log');
    assert.ok(acked.length > 60, `only ${acked.length} events were acknowledged: the test did not exercise much`);
    assert.equal(new Set(acked).size, acked.length, 'no event acknowledged twice');
    for (const r of read.rejected) assert.ok(r.reason === 'torn' || r.reason === 'malformed', r.message);
    process.stdout.write(`# ${acked.length} acknowledged events over 60 kills with 4 appends in flight; ${read.events.length} events in the log\n`);
  });

  it('two processes appending 1,000 events each at once leave exactly 2,000 valid events', async () => {
    const file = path.join(work, 'two', 'curation', 'events.jsonl');
    // Both start appending at the same moment, whatever their start-up times.
    const at = Date.now() + 3000;
    const a = start(file, 1000, 'alice', at);
    const b = start(file, 1000, 'bob', at);
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    assert.equal(ea.code, 0);
    assert.equal(eb.code, 0);
    assert.equal(a.acked.length, 1000);
    assert.equal(b.acked.length, 1000);
    const read = new ReviewLog(file).load();
    assert.equal(read.rejected.length, 0, 'no interleaved or torn line');
    assert.equal(read.events.length, 2000);
    assert.equal(new Set(read.events.map((e) => e.id)).size, 2000);
    const ids = new Set(read.events.map((e) => e.id));
    for (const id of [...a.acked, ...b.acked]) assert.ok(ids.has(id));
    assert.equal(fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).length, 2000, 'one line per event');
    // Both writers really ran at the same time: their lines alternate in the file (file order, not the log's order).
    const order = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => (JSON.parse(l) as { curator: string }).curator);
    let switches = 0;
    for (let i = 1; i < order.length; i++) if (order[i] !== order[i - 1]) switches++;
    // The lock is not fair (a writer that just released it often takes it again before the other's next poll), so
    // runs are long; two switches already mean one writer got in between the other's appends.
    assert.ok(switches >= 2, `the writers did not overlap (${switches} switches)`);
  });
});
