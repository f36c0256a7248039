import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ReviewLog, ReviewLogError } from '../../../src/adapters/fs/reviewLog';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import type { EventDraft } from '../../../src/core/review/events';
import { formatEventLine } from '../../../src/core/review/events';
import { tmpDir } from '../helpers/tmp';
import { label } from './helpers';

const draft = (spec: string, note?: string): EventDraft => ({
  kind: 'label',
  task: 't1',
  revision: 1,
  curator: 'alice',
  payload: { attempt: 'a1', spec, verdict: 'satisfied', evidence: [], ...(note ? { note } : {}) },
});

function freshLog(opts: ConstructorParameters<typeof ReviewLog>[1] = {}): { log: ReviewLog; file: string; dir: string } {
  const dir = tmpDir('sw-log-');
  const log = ReviewLog.forDataset(dir, opts);
  return { log, file: log.file, dir };
}

const rejectedLines = (log: ReviewLog) => (fs.existsSync(log.rejectedFile) ? fs.readFileSync(log.rejectedFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { line: number; reason: string; text: string }) : []);

describe('ReviewLog', () => {
  it('appends events (one line each) and reads them back, creating the folder with git settings', async () => {
    const { log, file, dir } = freshLog();
    const [a] = await log.append([draft('S1')]);
    const [b, c] = await log.append([draft('S2'), draft('S3')]);
    assert.ok(a && b && c);
    assert.equal(fs.readFileSync(file, 'utf8').split('\n').length, 4);
    const r = new ReviewLog(file).load();
    assert.deepEqual(r.events.map((e) => e.id), [a.id, b.id, c.id]);
    assert.equal(r.rejected.length, 0);
    assert.match(fs.readFileSync(path.join(dir, 'curation', '.gitattributes'), 'utf8'), /events\.jsonl merge=union/);
    assert.match(fs.readFileSync(path.join(dir, 'curation', '.gitignore'), 'utf8'), /events\.lock/);
    assert.ok(!fs.existsSync(log.lockFile), 'the lock is released');
  });

  it('gives unique, increasing ids and keeps new events after everything already in the log', async () => {
    let clock = Date.UTC(2026, 11, 1);
    const { log, file } = freshLog({ now: () => clock });
    const first = await log.append([draft('S1'), draft('S2')]);
    clock -= 3_600_000; // this machine's clock is an hour behind
    const later = new ReviewLog(file, { now: () => clock });
    later.load();
    const [e] = await later.append([draft('S3')]);
    assert.ok(e && first[1]);
    assert.ok(e.time > (first[1]?.time as string), `${e.time} should come after ${first[1]?.time}`);
    assert.ok(first[0]!.id < first[1]!.id);
  });

  it('catches up on what another writer appended, and starts over when the file is replaced', async () => {
    const { log: w1, file } = freshLog();
    const w2 = new ReviewLog(file);
    await w1.append([draft('S1')]);
    assert.equal(w2.load().events.length, 1);
    await w1.append([draft('S2')]);
    const r = w2.refresh();
    assert.equal(r.reset, false);
    assert.equal(r.events.length, 1);
    assert.equal(w2.refresh().events.length, 0);
    // git checkout writes a new file
    const lines = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(`${file}.new`, lines.split('\n').slice(0, 1).join('\n') + '\n');
    fs.renameSync(`${file}.new`, file);
    const again = w2.refresh();
    assert.equal(again.reset, true);
    assert.equal(again.events.length, 1);
  });

  it('leaves an incomplete last line to the next writer, which sets it aside as torn and starts on a fresh line', async () => {
    const { log, file, dir } = freshLog();
    const [good] = await log.append([draft('S1')]);
    const torn = formatEventLine(label('a1', 'S2', 'violated')).slice(0, 40);
    fs.appendFileSync(file, torn);
    const before = fs.readdirSync(path.join(dir, 'curation')).sort();
    const r = new ReviewLog(file).load();
    assert.deepEqual(r.events.map((e) => e.id), [good?.id]);
    assert.equal(r.rejected.length, 0, 'a reader cannot tell a torn line from one being written');
    assert.match(r.problems[0]?.message ?? '', /the last line is incomplete/);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'curation')).sort(), before, 'a reader takes no lock and writes nothing');

    const writer = new ReviewLog(file);
    writer.load();
    const [next] = await writer.append([draft('S3')]);
    assert.equal(rejectedLines(log)[0]?.text, torn, 'the writer, holding the lock, copied the torn line aside');
    assert.equal(rejectedLines(log)[0]?.reason, 'torn');
    const after = new ReviewLog(file).load();
    assert.deepEqual(after.events.map((e) => e.id), [good?.id, next?.id], 'the next event is intact');
    assert.equal(after.rejected[0]?.line, 2);
    await new ReviewLog(file).append([draft('S4')]);
    assert.equal(rejectedLines(log).length, 1, 'the same bad line is copied aside once');
  });

  it('keeps every good event around a line edited into invalid JSON, and reports its line', async () => {
    const { log, file, dir } = freshLog();
    const evs = await log.append([draft('S1'), draft('S2'), draft('S3')]);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"verdict":"satisfied"', '"verdict": satisfied');
    fs.writeFileSync(file, lines.join('\n'));
    const reader = ReviewLog.forDataset(dir);
    const r = reader.load();
    assert.deepEqual(r.events.map((e) => e.id), [evs[0]?.id, evs[2]?.id]);
    assert.equal(r.rejected[0]?.reason, 'malformed');
    assert.equal(r.problems[0]?.line, 2);
    assert.equal(r.problems[0]?.file, 'curation/events.jsonl');
    assert.match(r.problems[0]?.message ?? '', /the line is ignored \(it stays in the log\)/);
    assert.deepEqual(rejectedLines(log), [], 'reading wrote nothing');
    // The reader's next write copies what it found aside.
    await reader.append([draft('S4')]);
    assert.equal(rejectedLines(log)[0]?.line, 2);
  });

  it('refuses a line that names a member twice, even with a checksum made over it', async () => {
    const { file, dir } = freshLog();
    await ReviewLog.forDataset(dir).append([draft('S1')]);
    const line = fs.readFileSync(file, 'utf8').trim();
    const body = line.slice(0, line.indexOf(',"sum":')).replace('"curator":"alice"', '"curator":"alice","curator":"mallory"') + '}';
    const { createHash } = await import('node:crypto');
    fs.appendFileSync(file, `${body.slice(0, -1)},"sum":"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"}\n`);
    const r = ReviewLog.forDataset(dir).load();
    assert.equal(r.events.length, 1);
    assert.equal(r.rejected[0]?.line, 2);
    assert.match(r.rejected[0]?.message ?? '', /member "curator" appears twice/);
  });

  it('a line nested thousands of levels deep is one bad line, not a crash', async () => {
    const { file, dir } = freshLog();
    await ReviewLog.forDataset(dir).append([draft('S1')]);
    fs.appendFileSync(file, `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}\n`);
    const r = ReviewLog.forDataset(dir).load();
    assert.equal(r.events.length, 1);
    assert.match(r.rejected[0]?.message ?? '', /nested deeper than 256 levels/);
  });

  it('sets aside a line whose checksum does not match, keeping the file as it was', async () => {
    const { log, file } = freshLog();
    await log.append([draft('S1'), draft('S2')]);
    const before = fs.readFileSync(file, 'utf8').replace('"spec":"S2"', '"spec":"S9"');
    fs.writeFileSync(file, before);
    const reader = new ReviewLog(file);
    const r = reader.load();
    assert.equal(r.events.length, 1);
    assert.equal(r.rejected[0]?.reason, 'checksum');
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'nothing is rewritten in place');
    await reader.append([draft('S3')]);
    // An earlier rejected file is appended to, never replaced.
    fs.writeFileSync(log.rejectedFile, '{"earlier":true}\n' + fs.readFileSync(log.rejectedFile, 'utf8'));
    fs.appendFileSync(file, 'garbage\n');
    const again = new ReviewLog(file);
    again.load();
    await again.append([draft('S4')]);
    const kept = fs.readFileSync(log.rejectedFile, 'utf8').trim().split('\n');
    assert.equal(kept[0], '{"earlier":true}');
    assert.equal(kept.length, 3);
  });

  it('accepts CRLF line endings and a byte order mark', async () => {
    const { log, file } = freshLog();
    await log.append([draft('S1'), draft('S2')]);
    fs.writeFileSync(file, '\ufeff' + fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
    const r = new ReviewLog(file).load();
    assert.equal(r.events.length, 2);
    assert.equal(r.rejected.length, 0);
  });

  it('keeps bad bytes that are not UTF-8 exactly, in base64', async () => {
    const { log, file } = freshLog();
    await log.append([draft('S1')]);
    fs.appendFileSync(file, Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    const r = new ReviewLog(file).load();
    assert.equal(r.rejected[0]?.base64, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64'));
  });

  it('records the first event while another process creates the curation folder at the same moment', async () => {
    // The other process wins the race between our "is the folder there?" and our mkdir: its .gitattributes and
    // .gitignore are already there when ours are written. Found in a clean-clone run (EEXIST on .gitattributes).
    const dir = tmpDir('sw-log-race-');
    const curation = path.join(dir, 'curation');
    const racing = {
      ...fs,
      mkdirSync: ((p: fs.PathLike, o?: fs.MakeDirectoryOptions) => {
        const r = fs.mkdirSync(p, o);
        if (path.resolve(String(p)) === curation) {
          fs.writeFileSync(path.join(curation, '.gitattributes'), 'written by the other process\n');
          fs.writeFileSync(path.join(curation, '.gitignore'), 'written by the other process\n');
        }
        return r;
      }) as LogFs['mkdirSync'],
    } as LogFs;
    const log = ReviewLog.forDataset(dir, { fs: racing });
    assert.equal(path.dirname(log.file), curation);
    const [ev] = await log.append([draft('S1')]);
    assert.ok(ev);
    assert.deepEqual(new ReviewLog(log.file).load().events.map((e) => e.id), [ev.id]);
    assert.equal(fs.readFileSync(path.join(curation, '.gitattributes'), 'utf8'), 'written by the other process\n', "the other process's file is kept");
  });

  describe('a disk that fills up', () => {
    function failing(mode: 'enospc' | 'partial' | 'fsync'): LogFs {
      return {
        ...fs,
        writeSync: ((fd: number, buf: Buffer, off: number, len: number) => {
          if (len > 200) {
            if (mode === 'enospc') throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            if (mode === 'partial') return fs.writeSync(fd, buf, off, Math.floor(len / 2));
          }
          return fs.writeSync(fd, buf, off, len);
        }) as LogFs['writeSync'],
        fsyncSync: ((fd: number) => {
          if (mode === 'fsync' && fs.fstatSync(fd).size > 0 && fs.fstatSync(fd).isFile()) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
          return fs.fsyncSync(fd);
        }) as LogFs['fsyncSync'],
      } as LogFs;
    }

    for (const mode of ['enospc', 'partial', 'fsync'] as const) {
      it(`does not acknowledge the event (${mode}) and leaves the log readable`, async () => {
        const { log, file } = freshLog();
        const [ok] = await log.append([draft('S1')]);
        const broken = new ReviewLog(file, { fs: failing(mode) });
        broken.load();
        await assert.rejects(broken.append([draft('S2', 'x'.repeat(300))]), (e: unknown) => {
          assert.ok(e instanceof ReviewLogError);
          assert.equal(e.code, mode === 'fsync' ? 'io' : 'disk_full');
          assert.match(e.message, /NOT recorded/);
          return true;
        });
        const r = new ReviewLog(file).load();
        assert.deepEqual(r.events.map((e) => e.id), [ok?.id]);
        assert.equal(r.rejected.length, 0, 'our own partial bytes were taken back');
        assert.ok(!fs.existsSync(log.lockFile), 'the lock is released');
        const [next] = await new ReviewLog(file).append([draft('S3')]);
        assert.equal(new ReviewLog(file).load().events.at(-1)?.id, next?.id);
      });
    }
  });

  describe('the asynchronous fsync', () => {
    /** The real calls, with every fsync of the log file held until the test lets it go. */
    function gated(fail?: NodeJS.ErrnoException) {
      const held: Array<() => void> = [];
      const waiting: Array<() => void> = [];
      const fsyncs = () => held.length;
      const nextFsync = () => new Promise<void>((r) => (held.length > released ? r() : waiting.push(r)));
      let released = 0;
      const release = () => {
        const go = held[released++];
        assert.ok(go, 'no fsync to release');
        go();
      };
      const gfs = {
        ...fs,
        fsync: ((fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
          held.push(() => (fail ? cb(fail) : fs.fsync(fd, cb)));
          waiting.splice(0).forEach((r) => r());
        }) as LogFs['fsync'],
      } as LogFs;
      return { gfs, fsyncs, nextFsync, release };
    }
    const linesIn = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).length;

    it('acknowledges an append only after its fsync returns, holding the lock; appends asked meanwhile wait their turn', async () => {
      const { log: first, file } = freshLog();
      await first.append([draft('S0')]);
      const g = gated();
      const log = new ReviewLog(file, { fs: g.gfs, fsync: 'async' });
      log.load();
      const acked: string[] = [];
      const a = log.append([draft('S1')]).then((e) => acked.push(`S1 ${e.length}`));
      await g.nextFsync();
      // Written, not yet acknowledged: the lock is held and this writer's own reads do not show the line yet.
      assert.equal(linesIn(file), 2);
      assert.ok(fs.existsSync(log.lockFile), 'the lock is held during the fsync');
      assert.deepEqual(log.refresh().events, []);
      const b = log.append([draft('S2'), draft('S3')]).then((e) => acked.push(`S2+S3 ${e.length}`));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(acked, []);
      assert.equal(linesIn(file), 2, 'the second append waits for the first');
      g.release();
      await a;
      assert.deepEqual(acked, ['S1 1']);
      await g.nextFsync();
      assert.equal(linesIn(file), 4);
      assert.deepEqual(acked, ['S1 1'], 'not acknowledged before its own fsync');
      g.release();
      await b;
      assert.deepEqual(acked, ['S1 1', 'S2+S3 2']);
      assert.equal(g.fsyncs(), 2, 'one fsync per append');
      assert.ok(!fs.existsSync(log.lockFile));
      assert.deepEqual(new ReviewLog(file).load().events.map((e) => (e.payload as { spec: string }).spec), ['S0', 'S1', 'S2', 'S3']);
      assert.deepEqual(log.refresh().events, [], 'its own events are not read back as new');
    });

    it('reads the whole log on load() while its own fsync is under way', async () => {
      const { log: first, file } = freshLog();
      const [s0] = await first.append([draft('S0')]);
      const g = gated();
      const log = new ReviewLog(file, { fs: g.gfs, fsync: 'async' });
      log.load();
      const a = log.append([draft('S1')]);
      await g.nextFsync();
      assert.ok(log.load().events.some((e) => e.id === s0?.id), 'the acknowledged event is read');
      g.release();
      const [s1] = await a;
      assert.deepEqual(log.refresh().events, []);
      await first.append([draft('S2')]);
      assert.deepEqual(log.refresh().events.map((e) => (e.payload as { spec: string }).spec), ['S2']);
      assert.deepEqual(new ReviewLog(file).load().events.map((e) => e.id).slice(0, 2), [s0?.id, s1?.id]);
    });

    it('does not acknowledge an append whose fsync fails, takes its bytes back and releases the lock', async () => {
      const { log: first, file } = freshLog();
      const [ok] = await first.append([draft('S0')]);
      const g = gated(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
      const log = new ReviewLog(file, { fs: g.gfs, fsync: 'async' });
      log.load();
      const failed = assert.rejects(log.append([draft('S1')]), (e: unknown) => e instanceof ReviewLogError && e.code === 'io' && /NOT recorded/.test(e.message));
      await g.nextFsync();
      g.release();
      await failed;
      const r = new ReviewLog(file).load();
      assert.deepEqual(r.events.map((e) => e.id), [ok?.id]);
      assert.equal(r.rejected.length, 0);
      assert.ok(!fs.existsSync(log.lockFile));
      const [next] = await new ReviewLog(file).append([draft('S2')]);
      assert.deepEqual(new ReviewLog(file).load().events.map((e) => e.id), [ok?.id, next?.id]);
    });
  });

  describe('the lock', () => {
    it('breaks a lock left by a process that died', async () => {
      const { log } = freshLog();
      await log.append([draft('S1')]);
      fs.writeFileSync(log.lockFile, JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), token: 'dead', time: Date.now() }));
      const [e] = await log.append([draft('S2')]);
      assert.ok(e);
      assert.ok(!fs.existsSync(log.lockFile));
    });

    it('waits for a live holder and then says who holds it', async () => {
      const { log } = freshLog({ lockTimeoutMs: 150 });
      await log.append([draft('S1')]);
      fs.writeFileSync(log.lockFile, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'alive', time: Date.now() }));
      await assert.rejects(log.append([draft('S2')]), (e: unknown) => e instanceof ReviewLogError && e.code === 'locked' && new RegExp(`process ${process.pid}`).test(e.message));
      fs.unlinkSync(log.lockFile);
      assert.equal((await log.append([draft('S2')])).length, 1);
    });

    it('keeps the event loop turning while it waits for a lock another process holds', async () => {
      const { log } = freshLog();
      await log.append([draft('S1')]);
      // Another process takes the lock the way a writer does (O_EXCL, its pid and host) and holds it until told.
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('node:fs'), os = require('node:os'); const f = process.argv[1];
           const fd = fs.openSync(f, 'wx'); fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'other', time: Date.now() })); fs.closeSync(fd);
           process.stdout.write('locked\\n');
           process.stdin.once('data', () => { fs.unlinkSync(f); process.exit(0); });`,
          log.lockFile,
        ],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      const exited = once(holder, 'exit');
      try {
        await once(holder.stdout, 'data');
        const events: string[] = [];
        const appended = log.append([draft('S2')]).then(
          () => events.push('appended'),
          (e: unknown) => events.push(`failed: ${String(e)}`),
        );
        // A timer of the host's: it can only fire while the append waits if the wait does not block the loop. It
        // then lets the holder go, so the append can finish; a blocking wait would time out with the lock held.
        setTimeout(() => {
          events.push(`timer fired, lock ${fs.existsSync(log.lockFile) ? 'still held' : 'free'}`);
          holder.stdin.write('release\n');
        }, 1);
        await appended;
        assert.deepEqual(events, ['timer fired, lock still held', 'appended']);
        assert.deepEqual(new ReviewLog(log.file).load().events.map((e) => (e.payload as { spec: string }).spec), ['S1', 'S2']);
      } finally {
        holder.kill();
        await exited;
      }
    });

    it('checks an intent against what other writers appended, under the lock', async () => {
      const { log: w1, file } = freshLog();
      const w2 = new ReviewLog(file);
      w2.load();
      await w1.append([draft('S1')]);
      const r = await w2.transact((fresh) => (fresh.events.length === 1 ? { abort: 'someone was first' } : [draft('S2')]));
      assert.deepEqual(r.ok ? undefined : r.abort, 'someone was first');
      assert.equal(new ReviewLog(file).load().events.length, 1);
    });
  });
});
