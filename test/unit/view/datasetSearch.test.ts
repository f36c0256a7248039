// The dataset-wide trajectory search with its real worker thread over real files: hits grouped by task and attempt,
// tool calls searched, a path out of the dataset refused, an unreadable file reported, a new search cancelling the
// one before, and a pathological regular expression stopped by ending the worker while this thread stays free.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DatasetSearcher, groupHits, trajectoryFiles, type DatasetHit } from '../../../src/app/datasetSearch';
import type { CandidateTask } from '../../../src/core/model';

let root: string;
let outside: string;
const searcher = new DatasetSearcher();

function traj(lines: string[]): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Fix the parser.' },
  ];
  for (const l of lines) messages.push({ role: 'assistant', content: `THOUGHT: ${l}\n\`\`\`bash\necho ${l}\n\`\`\`` }, { role: 'user', content: `<output>${l}</output>` });
  return JSON.stringify({ info: { exit_status: 'Submitted' }, messages });
}

function task(id: string, attempts: Array<{ id: string; file?: string }>): CandidateTask {
  return { id, attempts: attempts.map((a) => ({ id: a.id, ...(a.file ? { trajectoryFile: a.file } : {}) })) } as unknown as CandidateTask;
}

let tasks: CandidateTask[];

before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-dsearch-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-dsearch-out-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('tasks/t1/a1.traj.json', traj(['read parser.py', 'the NEEDLE is here', 'done']));
  write('tasks/t1/a2.traj.json', traj(['nothing to see']));
  write('tasks/t2/a1.traj.json', traj(['NEEDLE once', 'and NEEDLE twice']));
  write('tasks/t3/a1.traj.json', '{ "messages": [ {"role": "user", "content": ');
  fs.writeFileSync(path.join(outside, 'secret.traj.json'), traj(['NEEDLE outside the dataset']));
  fs.symlinkSync(path.join(outside, 'secret.traj.json'), path.join(root, 'tasks/t3/escape.traj.json'));
  tasks = [
    task('t1', [{ id: 'a1', file: 'tasks/t1/a1.traj.json' }, { id: 'a2', file: 'tasks/t1/a2.traj.json' }, { id: 'gold' }]),
    task('t2', [{ id: 'a1', file: 'tasks/t2/a1.traj.json' }]),
    task('t3', [{ id: 'broken', file: 'tasks/t3/a1.traj.json' }, { id: 'escape', file: 'tasks/t3/escape.traj.json' }]),
  ];
});

after(() => {
  searcher.dispose();
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

async function collect(pattern: string, regex = false): Promise<{ hits: DatasetHit[]; out: Awaited<ReturnType<typeof searcher.search>['done']> }> {
  const { files, refused } = trajectoryFiles(root, tasks);
  const hits: DatasetHit[] = [];
  const s = searcher.search({ pattern, regex, caseSensitive: true }, files, { onHits: (h) => hits.push(...h) }, refused);
  return { hits, out: await s.done };
}

test('hits come grouped by task and attempt, with the step, and the unreadable and the escaping files are named', async () => {
  const { hits, out } = await collect('NEEDLE');
  const grouped = groupHits(hits).map((t) => ({ task: t.taskId, attempts: t.attempts.map((a) => [a.attempt, a.hits.length]) }));
  // t1/a1: the thought and the action and the observation of one turn; t2/a1: two turns.
  assert.deepEqual(grouped, [
    { task: 't1', attempts: [['a1', 3]] },
    { task: 't2', attempts: [['a1', 6]] },
  ]);
  assert.equal(out.total, 9);
  assert.equal(out.files, 4, 'the escaping trajectory is not searched');
  assert.equal(out.scanned, 4);
  assert.deepEqual(
    out.refused.map((r) => [r.taskId, r.attempt]),
    [['t3', 'escape']],
  );
  assert.match(out.refused[0]!.error, /outside|leads out|symlink/i);
  assert.deepEqual(
    out.unreadable.map((r) => [r.taskId, r.attempt, r.label]),
    [['t3', 'broken', 'tasks/t3/a1.traj.json']],
  );
  const h = hits.find((x) => x.kind === 'thought')!;
  assert.equal(h.excerpt.slice(h.excerptStart, h.excerptStart + h.length), 'NEEDLE');
  assert.equal(hits.some((x) => x.excerpt.includes('outside the dataset')), false);
});

test('an invalid pattern is refused before anything starts, with the reason', () => {
  const { files } = trajectoryFiles(root, tasks);
  assert.throws(() => searcher.search({ pattern: '(', regex: true, caseSensitive: false }, files), /Invalid regular expression/);
});

test('a new search cancels the one running; a pathological expression is stopped by ending the worker, and this thread stays free', async () => {
  // One big file whose every step is a string that (a+)+$ backtracks on for seconds.
  fs.writeFileSync(path.join(root, 'tasks/t2/slow.traj.json'), traj(Array.from({ length: 50 }, () => `${'a'.repeat(30)}!`)));
  const slowTasks = [task('slow', [{ id: 'a1', file: 'tasks/t2/slow.traj.json' }]), ...tasks];
  const { files } = trajectoryFiles(root, slowTasks);
  const stuck = searcher.search({ pattern: '(a+)+$', regex: true, caseSensitive: false }, files);
  // The thread keeps turning while the worker is stuck: timers fire.
  let ticks = 0;
  const t = setInterval(() => ticks++, 5);
  await new Promise<void>((resolve) => {
    const wait = setInterval(() => {
      if (ticks >= 10) {
        clearInterval(wait);
        resolve();
      }
    }, 5);
  });
  const next = searcher.search({ pattern: 'NEEDLE', regex: false, caseSensitive: true }, files);
  const first = await stuck.done;
  clearInterval(t);
  assert.equal(first.cancelled, true);
  assert.equal(first.terminated, true, 'the stuck worker was ended');
  const second = await next.done;
  assert.equal(second.cancelled, false);
  assert.equal(second.total, 9, 'the next search runs in a new worker to the end');
});

test('the worker keeps what it prepared while a file is unchanged and reads again the one that changed, so a label or a run elsewhere costs no re-read', async () => {
  searcher.forget();
  const cold = await collect('NEEDLE');
  assert.equal(cold.out.read, 4, 'every file read after forget (the unreadable one too)');
  const warm = await collect('NEEDLE');
  assert.equal(warm.out.read, 1, 'only the unreadable file is read again; the three others come prepared');
  assert.equal(warm.out.total, 9);
  // One trajectory rewritten (as a fresh trial's would be): it alone is read again, and its new text is found.
  fs.writeFileSync(path.join(root, 'tasks/t2/a1.traj.json'), traj(['NEEDLE once', 'and NEEDLE twice', 'a NEEDLE more']));
  const changed = await collect('NEEDLE');
  assert.equal(changed.out.read, 2, 'the changed file and the unreadable one');
  assert.equal(changed.out.total, 12);
});
