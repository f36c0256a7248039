// The swarm backend without a swarm: the entrypoint's trailer and how it is read, the split of the command's output
// from the entrypoint's lines as bytes arrive, the service a run becomes (limits, no capabilities for the command,
// labels the sweep reads), and the job a run description becomes (the local run's driver, user, limits and reports).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { describeRun } from '../../../src/adapters/docker/runSpec';
import { swarmJobOf } from '../../../src/adapters/docker/swarmExecutor';
import type { SwarmJob } from '../../../src/adapters/docker/swarmJobs';
import { entrypoint, NeedleSplit, readTrailer } from '../../../src/adapters/docker/jobEntrypoint';
import { MAX_CONFIG_BYTES, serviceSpec, swarmLayout } from '../../../src/adapters/docker/swarmJobs';
import { isOrphan } from '../../../src/adapters/docker/sweep';

test('the trailer: the exit code, the OOM kills, the command\'s time, the files asked back; incomplete until its end line', () => {
  const file = Buffer.from('<testsuite/>\n\u00e9');
  const tail = `3\noom 1\ntook 100.25 102.75\nfile 0\n${file.toString('base64')}\nend\nfile 1 -\n__SPECWEAVE_END__ abc\n`;
  const t = readTrailer(tail, 'abc');
  assert.ok(t);
  assert.equal(t.exitCode, 3);
  assert.equal(t.oomKills, 1);
  assert.equal(t.commandMs, 2500);
  assert.deepEqual(t.files[0], file);
  assert.equal(t.files[1], undefined);
  assert.ok(1 in t.files, 'a file that was not there is said so');
  assert.equal(readTrailer(tail.slice(0, -5), 'abc'), undefined, 'not complete before its end line');
  assert.equal(readTrailer(tail.replace('END__ abc', 'END__ xyz'), 'abc'), undefined, 'an end line with another nonce is not the end');
  assert.equal(readTrailer('0\noom -\n__SPECWEAVE_END__ abc\n', 'abc')?.oomKills, undefined, 'no OOM count where the kernel says none');
  assert.equal(readTrailer('127\nerror the image has no setpriv\n__SPECWEAVE_END__ abc\n', 'abc')?.error, 'the image has no setpriv');
  // A line of something else among a file's base64 (another stream's line merged into the log) is said, not decoded.
  const b64 = Buffer.from('<testsuite name="x"></testsuite>').toString('base64');
  const torn = readTrailer(`1\nfile 0\n${b64.slice(0, 8)}\n\n__SPECWEAVE_END__ abc\n${b64.slice(8)}\nend\n__SPECWEAVE_END__ abc\n`, 'abc');
  assert.equal(torn?.files[0], undefined);
  assert.match(torn?.error ?? '', /file 0 came back corrupted in the log/);
});

test('the command\'s output is passed on as it comes, without the entrypoint\'s needle, whatever the chunking', () => {
  const needle = Buffer.from('\n__SPECWEAVE_EXIT__ n0nce ');
  const whole = Buffer.concat([Buffer.from('line 1\n__SPECWEAVE_EXIT__ forged 0\npartial'), needle, Buffer.from('0\noom -\n')]);
  for (const size of [1, 2, 5, 7, 26, 1000]) {
    const out: Buffer[] = [];
    const split = new NeedleSplit(needle, (c) => out.push(c));
    for (let i = 0; i < whole.length; i += size) split.write(whole.subarray(i, i + size));
    assert.equal(Buffer.concat(out).toString(), 'line 1\n__SPECWEAVE_EXIT__ forged 0\npartial', `chunks of ${size}`);
    assert.equal(split.tail()?.toString(), '0\noom -\n');
  }
  const out: Buffer[] = [];
  const cut = new NeedleSplit(needle, (c) => out.push(c));
  cut.write(Buffer.from('no end\n__SPECW'));
  assert.equal(Buffer.concat(out).toString().length < 'no end\n__SPECW'.length, true, 'what may begin the needle is held back');
  cut.flush();
  assert.equal(Buffer.concat(out).toString(), 'no end\n__SPECW', 'and given back when the stream ends without it');
});

const job = (over: Partial<SwarmJob> = {}): SwarmJob => ({
  name: 'j',
  image: 'img:1',
  command: 'true',
  workdir: '/testbed',
  limits: { memoryBytes: 512 * 1024 * 1024, nanoCpus: 1e9, pids: 256 },
  timeoutMs: 1000,
  ...over,
});

test('the service: a one-shot job, limits, the entrypoint\'s few capabilities, our labels over the run\'s', () => {
  const spec = serviceSpec(job({ labels: { 'specweave.owned': '1', 'specweave.pid': '42' }, constraints: ['node.role==worker'], ulimits: [{ Name: 'fsize', Soft: 5, Hard: 5 }] }), 'j-1', [], ['node.id!=x']) as {
    Labels: Record<string, string>;
    Mode: unknown;
    TaskTemplate: { ContainerSpec: { User: string; CapabilityDrop: string[]; CapabilityAdd: string[]; Ulimits: unknown; Labels: Record<string, string> }; Resources: unknown; RestartPolicy: unknown; Placement: { Constraints: string[] }; Networks?: unknown };
  };
  assert.deepEqual(spec.Mode, { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } });
  assert.deepEqual(spec.Labels, { 'specweave.owned': 'true', 'specweave.pid': '42' }, 'the sweep finds it by owned=true and its process');
  const c = spec.TaskTemplate.ContainerSpec;
  assert.equal(c.User, '0:0');
  assert.deepEqual(c.CapabilityDrop, ['ALL']);
  assert.ok(!c.CapabilityAdd.includes('CAP_SYS_ADMIN') && !c.CapabilityAdd.includes('CAP_NET_RAW'));
  assert.deepEqual(c.Ulimits, [{ Name: 'fsize', Soft: 5, Hard: 5 }]);
  assert.deepEqual(spec.TaskTemplate.Resources, { Limits: { MemoryBytes: 512 * 1024 * 1024, NanoCPUs: 1e9, Pids: 256 } });
  assert.deepEqual(spec.TaskTemplate.RestartPolicy, { Condition: 'none', MaxAttempts: 0 });
  assert.deepEqual(spec.TaskTemplate.Placement.Constraints, ['node.role==worker', 'node.id!=x']);
  assert.equal(spec.TaskTemplate.Networks, undefined, 'attached to no network: loopback only');
  assert.equal(isOrphan(spec.Labels, { hostName: 'h', isAlive: () => true }), true, 'another machine\'s, with no creation time: old');
});

test('the entrypoint: parses as sh; unpacks every part of the archive; drops to the run user with no capabilities', () => {
  const archive = Buffer.alloc(MAX_CONFIG_BYTES * 2 + 1);
  for (const user of ['1000:1000', '', 'app', "o'brien:staff"]) {
    const j = job({ user, archive, readBack: [{ path: "/x/it's.xml", maxBytes: 9 }] });
    const script = entrypoint(j, swarmLayout(j))[2] as string;
    execFileSync('sh', ['-n', '-c', script]);
    assert.match(script, /'\/run\/specweave\/archive\.0000' '\/run\/specweave\/archive\.0001' '\/run\/specweave\/archive\.0002' \| tar -x/);
    assert.match(script, /setpriv --reuid=\S+ --regid=.* --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all sh '\/run\/specweave\/command\.sh' <\/dev\/null\n/);
  }
  assert.match(entrypoint(job({ user: '' }), swarmLayout({}))[2] as string, /setpriv --reuid=0 --regid=0/, 'root still loses its capabilities');
});

test('a run description becomes the job of the same driver, user, workdir, limits, deadline and reports', () => {
  const d = describeRun({
    runId: 'r1',
    taskId: 't',
    attemptId: 'a',
    image: 'img:1',
    imageUser: '',
    repoKind: 'git',
    workdir: '/testbed',
    limits: { memoryMb: 512, cpus: 1, pids: 256, diskMb: 64 },
    timeoutSec: 30,
    verifier: { command: 'pytest -q', parser: 'pytest' },
    owner: { pid: 1, host: 'h' },
    createdAt: 0,
    detached: true,
  });
  assert.doesNotMatch(d.driver, /cat <&3/, 'no stdin watchdog: no client is attached to a swarm task');
  const j = swarmJobOf(d, Buffer.from('tar'), ['node.role==worker']);
  assert.equal(j.command, "exec '/bin/sh' '/.specweave/run.sh'\n");
  assert.equal(j.user, '1000:1000');
  assert.equal(j.workdir, '/testbed');
  assert.deepEqual(j.limits, { memoryBytes: 512 * 1024 * 1024, nanoCpus: 1e9, pids: 256 });
  assert.equal(j.timeoutMs, d.clientDeadlineMs);
  assert.deepEqual(j.ulimits, d.hostConfig.Ulimits);
  assert.deepEqual(j.readBack, [{ path: '/.specweave/out/junit.xml', maxBytes: 32 * 1024 * 1024 }]);
  assert.deepEqual(j.constraints, ['node.role==worker']);
  assert.equal(j.labels?.['specweave.run'], 'r1');
});
