// Output capture: the engine's frames demultiplexed, first and last bytes kept exactly, the driver's report split off.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Demuxer, HeadTailCapture, MarkerSplitCapture } from '../../../src/adapters/docker/capture';

function chunks(buf: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let i = 0;
  let k = 0;
  while (i < buf.length) {
    const n = sizes[k++ % sizes.length] as number;
    out.push(buf.subarray(i, i + n));
    i += n;
  }
  return out;
}

test('head and tail are byte-exact whatever the chunking, and the cut is counted', () => {
  const data = randomBytes(10_000);
  for (const sizes of [[1], [7, 3000, 1], [10_000], [4096]]) {
    const c = new HeadTailCapture(1000);
    for (const ch of chunks(data, sizes)) c.write(ch);
    const r = c.result();
    assert.ok(r.head.equals(data.subarray(0, 1000)));
    assert.ok(r.tail.equals(data.subarray(9000)));
    assert.equal(r.totalBytes, 10_000);
    assert.equal(r.cutBytes, 8000);
  }
  const small = new HeadTailCapture(1000);
  small.write(data.subarray(0, 1500));
  const s = small.result();
  assert.ok(Buffer.concat([s.head, s.tail]).equals(data.subarray(0, 1500)));
  assert.equal(s.cutBytes, 0);
});

test('the marker splits the driver report from the tests output, even across chunks; later markers are output', () => {
  const marker = Buffer.from('@@M@@\n');
  const stream = Buffer.from('apply ok\n@@M@@\nPASSED x\n@@M@@\nmore\n');
  for (const size of [1, 2, 5, 100]) {
    const c = new MarkerSplitCapture(marker, 1000);
    for (const ch of chunks(stream, [size])) c.write(ch);
    assert.equal(c.prelude().toString(), 'apply ok\n');
    const r = c.after.result();
    assert.equal(Buffer.concat([r.head, r.tail]).toString(), 'PASSED x\n@@M@@\nmore\n');
  }
  const none = new MarkerSplitCapture(marker, 1000, 16);
  none.write(Buffer.from('x'.repeat(40)));
  assert.equal(none.markerSeen, true, 'a runaway report counts as output after its first bytes');
  assert.equal(none.prelude().length, 16);
});

function frame(type: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h[0] = type;
  h.writeUInt32BE(payload.length, 4);
  return Buffer.concat([h, payload]);
}

test('demultiplexing frames split anywhere, binary payloads intact', () => {
  const out = randomBytes(5000);
  const err = randomBytes(3000);
  const wire = Buffer.concat([frame(1, out.subarray(0, 2500)), frame(2, err), frame(1, out.subarray(2500))]);
  for (const sizes of [[1], [3, 11], [wire.length]]) {
    const o: Buffer[] = [];
    const e: Buffer[] = [];
    const d = new Demuxer({ write: (c) => o.push(Buffer.from(c)) }, { write: (c) => e.push(Buffer.from(c)) });
    for (const ch of chunks(wire, sizes)) d.write(ch);
    assert.ok(Buffer.concat(o).equals(out));
    assert.ok(Buffer.concat(e).equals(err));
    assert.equal(d.error, undefined);
  }
  const bad = new Demuxer({ write: () => undefined }, { write: () => undefined });
  bad.write(Buffer.from('not a frame header at all'));
  assert.match(bad.error ?? '', /unexpected frame header/);
});
