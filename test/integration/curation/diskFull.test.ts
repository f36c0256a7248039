import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ReviewLog, ReviewLogError } from '../../../src/adapters/fs/reviewLog';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import type { EventDraft } from '../../../src/core/review/events';

const draft = (i: number): EventDraft => ({
  kind: 'label',
  task: 't1',
  revision: 1,
  curator: 'alice',
  payload: { attempt: 'a1', spec: `S${i}`, verdict: 'violated', note: `evidence ${i}: ${'x'.repeat(1500)}`, evidence: [] },
});

/** A 64 KiB tmpfs when this machine lets us mount one (root with CAP_SYS_ADMIN), else undefined. */
function smallDisk(): { dir: string; release(): void } | undefined {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    release() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** node:fs failing like a full disk once `limit` bytes were written. */
function simulatedDisk(limit: number): LogFs {
  let used = 0;
  return {
    ...fs,
    writeSync: ((fd: number, buf: Buffer, off: number, len: number) => {
      if (used + len > limit) {
        const room = Math.max(0, limit - used);
        if (room > 0) {
          used += room;
          return fs.writeSync(fd, buf, off, room);
        }
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      used += len;
      return fs.writeSync(fd, buf, off, len);
    }) as LogFs['writeSync'],
  } as LogFs;
}

describe('a disk that fills up during an append', () => {
  it('does not acknowledge the event, says the disk is full, and leaves every acknowledged event readable', async (t) => {
    const disk = smallDisk();
    const root = disk?.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sw-full-sim-'));
    if (!disk) t.diagnostic('cannot mount a tmpfs here: ENOSPC is simulated through the log\'s fs injection');
    try {
      const opts = disk ? {} : { fs: simulatedDisk(64 * 1024) };
      const log = ReviewLog.forDataset(root, opts);
      const acked: string[] = [];
      let failure: unknown;
      for (let i = 0; i < 1000 && failure === undefined; i++) {
        try {
          const [e] = await log.append([draft(i)]);
          acked.push(e?.id as string);
        } catch (e) {
          failure = e;
        }
      }
      assert.ok(failure instanceof ReviewLogError, `expected a ReviewLogError, got ${String(failure)}`);
      assert.equal(failure.code, 'disk_full');
      assert.match(failure.message, /NOT recorded: the disk is full \(ENOSPC\)/);
      assert.ok(acked.length > 5);
      const read = ReviewLog.forDataset(root).load();
      assert.deepEqual(read.events.map((e) => e.id), acked);
      assert.equal(read.rejected.length, 0);
      assert.ok(!fs.existsSync(log.lockFile), 'no lock left behind');
      // Still full: a reader that finds an incomplete last line says so, writes nothing (no lock, no copy aside: the
      // next writer does that), and still reads every event.
      fs.appendFileSync(log.file, '{"torn":');
      const files = fs.readdirSync(path.dirname(log.file)).sort();
      const again = ReviewLog.forDataset(root).load();
      assert.deepEqual(again.events.map((e) => e.id), acked);
      assert.ok(again.problems.some((p) => /the last line is incomplete/.test(p.message)), JSON.stringify(again.problems));
      assert.deepEqual(fs.readdirSync(path.dirname(log.file)).sort(), files);
    } finally {
      if (disk) disk.release();
      else fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
