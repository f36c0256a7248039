// Curation in VS Code, the host side of the task view: what each `update` costs for the review part of a big task
// (10 attempts × 40 specs, three curators' labels on every pair) beside the core's review it is made from; one label
// request through the task view's path (append + fsync + the refreshed view) beside the store's bare act; and how long
// writing the curated set blocks the extension host, per file, beside a bare write + fsync of the same bytes.
//
//   node --import tsx bench/curationUi.bench.ts [--labels 100] [--export 300] [--runs 20]
//
// Everything is generated in a temp dir (fixed seed) and removed afterwards.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeCuratedSet, writeCuratedSetAsync } from '../src/adapters/fs/curatedSetWriter';
import { CurationStore } from '../src/app/curationStore';
import { ReviewLog } from '../src/adapters/fs/reviewLog';
import type { CandidateTask, Dataset } from '../src/core/model';
import type { EventDraft } from '../src/core/review/events';
import { RULE_IDS } from '../src/core/review/rules';
import { buildReviewView } from '../src/core/view/reviewView';
import { jsonBytes } from '../src/core/view/text';
import { ReviewActions } from '../src/vscode/curation/reviewActions';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const LABELS = arg('--labels', 100);
const EXPORT = arg('--export', 300);
const RUNS = arg('--runs', 20);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};
const time = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

function task(id: string, attempts: number, specs: number, root: string): CandidateTask {
  const dir = path.join(root, 'tasks', id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'request.md'), `# ${id}\n\nDo the thing.\n`);
  fs.writeFileSync(path.join(dir, 'tests.patch'), 'diff --git a/t.py b/t.py\n--- a/t.py\n+++ b/t.py\n@@ -1 +1,2 @@\n x\n+def test_a(): pass\n');
  fs.writeFileSync(path.join(dir, 'gold.patch'), 'diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n');
  return {
    id,
    title: id,
    revision: 1,
    repo: { name: 'x/y', kind: 'image' },
    environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
    specs: Array.from({ length: specs }, (_, i) => ({ id: `S${i + 1}`, text: `spec ${i + 1}`, category: ['error-handling', 'compatibility', 'data-transformation'][i % 3] as string, dependsOn: [] })),
    tests: Array.from({ length: specs }, (_, i) => ({ id: `T${i + 1}`, name: `tests/t.py::t${i + 1}`, kind: 'fail_to_pass' as const, specs: [`S${i + 1}`] })),
    verifier: { command: 'true', parser: 'pytest' },
    notes: [],
    dir: `tasks/${id}`,
    files: { task: `tasks/${id}/task.json`, request: `tasks/${id}/request.md`, testPatch: `tasks/${id}/tests.patch`, goldPatch: `tasks/${id}/gold.patch` },
    attempts: Array.from({ length: attempts }, (_, i) => ({ id: `attempt-${i}`, model: ['gpt-5', 'claude-4'][i % 2] as string, agent: 'a', dir: '', recordedResults: [] })),
  };
}

function dataset(root: string, tasks: CandidateTask[]): Dataset {
  return { root, manifest: { format: 1, name: 'bench', description: '' } as Dataset['manifest'], tasks, problems: [] };
}

async function benchView(dir: string): Promise<void> {
  const root = path.join(dir, 'view');
  const big = task('big', 10, 40, root);
  const drafts: EventDraft[] = [];
  for (const curator of ['alice', 'bob', 'carol']) {
    for (const a of big.attempts) {
      for (const s of big.specs) {
        drafts.push({ kind: 'label', task: 'big', revision: 1, curator, payload: { attempt: a.id, spec: s.id, verdict: (a.id.length + s.id.length + curator.length) % 3 === 0 ? 'violated' : 'satisfied', note: 'a short note', evidence: [{ kind: 'test', test: 'T1' }] } });
      }
    }
  }
  await ReviewLog.forDataset(root).append(drafts);
  const store = CurationStore.forDataset(dataset(root, [big]), { runs: false });
  const actions = new ReviewActions({
    store: () => store,
    curator: () => ({ ok: true, name: 'alice', source: 'setting' }),
    blind: () => false,
    changed: () => undefined,
    showTask: () => undefined,
    openEvidence: async () => ({ opened: false }),
  });
  const core: number[] = [];
  const view: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    core.push(time(() => store.review('big', { viewer: 'alice' })));
    view.push(time(() => actions.view('big')));
  }
  bytes = jsonBytes(actions.view('big'));
  const r = store.review('big', { viewer: 'alice' });
  const convert = median(Array.from({ length: RUNS }, () => time(() => buildReviewView(r!, 'adjudicate'))));
  console.log(`\n## review part of one task view update: 10 attempts × 40 specs, 3 curators × 400 labels (${drafts.length} events), median of ${RUNS}`);
  console.log(`store.review (core)              ${ms(median(core))}`);
  console.log(`actions.view (core + view model) ${ms(median(view))}   ratio ${(median(view) / median(core)).toFixed(2)}x`);
  console.log(`buildReviewView alone            ${ms(convert)}`);
  console.log(`review part of the message       ${(bytes / 1024).toFixed(0)} KB (limit 1,000 KB per message)`);
}

async function benchLabel(dir: string): Promise<void> {
  const root = path.join(dir, 'label');
  const t = task('t', 10, 40, root);
  const store = CurationStore.forDataset(dataset(root, [t]), { runs: false });
  const bare = CurationStore.forDataset(dataset(path.join(dir, 'label-bare'), [task('t', 10, 40, path.join(dir, 'label-bare'))]), { runs: false });
  const actions = new ReviewActions({
    store: () => store,
    curator: () => ({ ok: true, name: 'alice', source: 'setting' }),
    blind: () => false,
    changed: () => undefined,
    showTask: () => undefined,
    openEvidence: async () => ({ opened: false }),
  });
  const req = actions.requests('t');
  const viaUi: number[] = [];
  const viaStore: number[] = [];
  for (let i = 0; i < LABELS; i++) {
    const a = `attempt-${i % 10}`;
    const s = `S${1 + (i % 40)}`;
    const verdict = i % 2 ? 'satisfied' : 'violated';
    let t0 = performance.now();
    await bare.act('t', 'alice', { kind: 'label', attempt: a, spec: s, verdict });
    viaStore.push(performance.now() - t0);
    t0 = performance.now();
    const r = await req.label({ attempt: a, spec: s, verdict, note: 'why' });
    // What the panel does next: the refreshed model for the `update`.
    actions.view('t');
    viaUi.push(performance.now() - t0);
    if (!r.ok) throw new Error(r.message);
  }
  console.log(`\n## one label from the task view: ${LABELS} labels, median`);
  console.log(`store.act (append + fsync)                        ${ms(median(viaStore))}`);
  console.log(`label request + refreshed review view (the UI path) ${ms(median(viaUi))}   ratio ${(median(viaUi) / median(viaStore)).toFixed(2)}x`);
}

async function benchExport(dir: string): Promise<void> {
  const root = path.join(dir, 'export');
  const tasks = Array.from({ length: EXPORT }, (_, i) => task(`t${String(i).padStart(4, '0')}`, 2, 4, root));
  const drafts: EventDraft[] = tasks.map((t) => ({ kind: 'approve', task: t.id, revision: 1, curator: 'alice', payload: { waivers: RULE_IDS.map((rule) => ({ rule, reason: 'bench' })), runs: [] } }));
  await ReviewLog.forDataset(root).append(drafts);
  const store = CurationStore.forDataset(dataset(root, tasks), { runs: false });
  let plan = store.exportPlan('specweave');
  const planMs = time(() => {
    plan = store.exportPlan('specweave');
  });
  let files = 0;
  const writeMs = time(() => writeCuratedSet(path.join(dir, 'out'), plan, { onProgress: () => files++ }));
  const bareDir = path.join(dir, 'bare');
  fs.mkdirSync(bareDir);
  const bareMs = time(() => {
    plan.files.forEach((f, i) => {
      const fd = fs.openSync(path.join(bareDir, String(i)), 'wx');
      fs.writeFileSync(fd, f.content);
      fs.fsyncSync(fd);
      fs.closeSync(fd);
    });
  });
  // What the command runs: the async writer; the longest stretch without a turn of the event loop is what a user feels.
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 0);
  const t0 = performance.now();
  await writeCuratedSetAsync(path.join(dir, 'out-async'), plan);
  const asyncMs = performance.now() - t0;
  clearInterval(ticker);
  console.log(`\n## export of ${EXPORT} approved tasks (${plan.files.length} files)`);
  console.log(`exportPlan (read texts, provenance, manifest), one block ${ms(planMs)}`);
  console.log(`writeCuratedSet (sync, the CLI; each file fsynced)       ${ms(writeMs)}   ${ms(writeMs / plan.files.length)} per file`);
  console.log(`bare write + fsync of the same bytes                    ${ms(bareMs)}   ratio ${(writeMs / bareMs).toFixed(2)}x`);
  console.log(`writeCuratedSetAsync (the command), total               ${ms(asyncMs)}   ratio to sync ${(asyncMs / writeMs).toFixed(2)}x`);
  console.log(`  longest stretch without an event-loop turn            ${ms(longest)}`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-bench-curation-ui-'));
  try {
    await benchView(dir);
    await benchLabel(dir);
    await benchExport(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
