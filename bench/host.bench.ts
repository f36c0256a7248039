// The extension host's open dataset, before and after it got one owner (issue 11), side by side in one run, on the
// example dataset with N generated tasks added (default 15,000):
//   - accepting a repair suggestion: full dataset loads during the accept and its revalidation (goal 0), and the
//     longest time the host's event loop was blocked;
//   - one task folder changing: the longest host block until the task map and the curation store have the change
//     (goal under 50 ms).
// "after" drives the classes the host builds now (the owner over the task map, RepairDecisions); "before" drives the
// code at --before REV (default c42285d, unpacked with `git archive` into a temp folder) the way its host did: an
// accept opened its own store (a full load), the dataset service reloaded the whole dataset (in slices, as it did),
// the curation store re-read its log, the watcher's task change made the store reload the dataset, and revalidation
// opened another store. Revalidation's runs are not run (a runner that answers at once): this measures the host.
// A full load is counted as a listing of tasks/ (a load of given folders does not list it).
//
//   node --import tsx bench/host.bench.ts [--tasks 15000] [--before c42285d] [--no-before]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { LlmClient } from '../src/adapters/llm/client';
import { Redactor } from '../src/adapters/llm/redact';
import { CurationStore } from '../src/app/curationStore';
import { requestSuggestion } from '../src/app/repairAgent';
import { RepairDecisions } from '../src/vscode/repair/repairDecisions';
import { FN_TASK, copyExample, goodReplyWhole } from '../test/integration/repair/exampleCopy';
import { countFullLoads, ownerOver } from '../test/unit/helpers/hostOwner';
import { generateDataset } from './generate';

const { values: args } = parseArgs({ options: { tasks: { type: 'string' }, before: { type: 'string' }, 'no-before': { type: 'boolean' } } });
const TASKS = Number(args.tasks ?? 15_000);
const BEFORE = args.before ?? 'c42285d';
const CHANGED = 'format-precision';

/** The longest stretch the event loop could not run a callback, while `fn` runs. */
async function longestBlock<T>(fn: () => Promise<T> | T): Promise<{ value: T; blockMs: number }> {
  let max = 0;
  let last = performance.now();
  let on = true;
  const tick = (): void => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  const t0 = performance.now();
  last = t0;
  try {
    const value = await fn();
    max = Math.max(max, performance.now() - last);
    return { value, blockMs: max };
  } finally {
    on = false;
  }
}

function fakeClient(text: string): LlmClient {
  const settings = { baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5 };
  return { settings, chat: async (req: { messages: unknown[] }) => ({ text, finishReason: 'stop', model: settings.model, responseFormat: 'json_schema', sent: req.messages, tries: [], durationMs: 1 }) } as unknown as LlmClient;
}

/** The example dataset (with its repository) plus TASKS generated tasks, and a ready suggestion for FN_TASK. */
async function dataset(): Promise<{ root: string; suggestion: string }> {
  const root = copyExample();
  const gen = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-host-gen-'));
  generateDataset(gen, { tasks: TASKS, specs: 10, tests: 20, attempts: 4 });
  for (const name of fs.readdirSync(path.join(gen, 'tasks'))) fs.renameSync(path.join(gen, 'tasks', name), path.join(root, 'tasks', name));
  fs.rmSync(gen, { recursive: true, force: true });
  const client = fakeClient(goodReplyWhole(root));
  const r = await requestSuggestion({ store: CurationStore.open(root), taskId: FN_TASK, target: 'tests', curator: 'alice', settings: client.settings, client, redactor: new Redactor() });
  if (r.record.status !== 'ready') throw new Error(`no suggestion: ${r.record.status}`);
  return { root, suggestion: r.record.id };
}

const noRuns = { run: async (_t: unknown, ids: string[]) => ids.map((attempt) => ({ attempt, error: 'not run in the benchmark' })) };

function touch(root: string, folder: string, title: string): void {
  const file = path.join(root, 'tasks', folder, 'task.json');
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { title: string };
  j.title = title;
  fs.writeFileSync(file, JSON.stringify(j, null, 2));
}

interface Figures {
  acceptLoads: number;
  acceptBlockMs: number;
  acceptMs: number;
  folderBlockMs: number;
}

async function after(): Promise<Figures> {
  const { root, suggestion } = await dataset();
  const { owner, source } = ownerOver(root);
  const decisions = new RepairDecisions(owner);
  const t0 = performance.now();
  const acc = await countFullLoads(root, () =>
    longestBlock(async () => {
      const { curator } = await decisions.accept(FN_TASK, suggestion);
      await decisions.revalidate({ taskId: FN_TASK, runner: noRuns, curator, suggestionId: suggestion });
    }),
  );
  const acceptMs = performance.now() - t0;
  if (owner.store?.task(FN_TASK)?.revision !== 2) throw new Error('after: the store did not get revision 2');
  touch(root, CHANGED, 'changed on disk');
  // What the host does when the watcher's debounce fires for one folder: the task map reads it, the owner updates
  // the store and fires one change.
  void source.tasks; // the sorted list exists, as the tree has asked for it
  const f0 = performance.now();
  const ids = source.map.loadFolders(root, [CHANGED], false);
  const mapMs = performance.now() - f0;
  source.changes.fire({ kind: 'tasks', taskIds: ids });
  const ownerMs = performance.now() - f0 - mapMs;
  void source.tasks; // what the tree reads next
  const folderBlockMs = performance.now() - f0;
  console.log(`after, one folder: task map ${mapMs.toFixed(1)} ms, owner (store update, change event) ${ownerMs.toFixed(1)} ms, sorted list ${(folderBlockMs - mapMs - ownerMs).toFixed(1)} ms`);
  if (owner.store?.task(CHANGED)?.title !== 'changed on disk') throw new Error('after: the store missed the change');
  owner.dispose();
  return { acceptLoads: acc.fullLoads, acceptBlockMs: acc.value.blockMs, acceptMs, folderBlockMs };
}

async function before(rev: string): Promise<Figures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sw-host-before-${rev}-`));
  const repo = path.resolve(__dirname, '..');
  const tar = execFileSync('git', ['-C', repo, 'archive', rev, 'src', 'schema', 'package.json', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  type Mod = Record<string, unknown>;
  const load = async (rel: string): Promise<Mod> => (await import(path.join(dir, rel))) as Mod;
  const oldStoreMod = await load('src/app/curationStore.ts');
  const oldFlow = await load('src/app/repairFlow.ts');
  const oldLoader = await load('src/adapters/fs/datasetLoader.ts');
  const OldStore = oldStoreMod.CurationStore as { open(root: string): { reloadDataset(): void; task(id: string): { revision: number; title: string } | undefined }; forDataset(ds: unknown, o?: unknown): unknown };
  const acceptSuggestion = oldFlow.acceptSuggestion as (o: unknown) => Promise<unknown>;
  const revalidate = oldFlow.revalidate as (o: unknown) => Promise<unknown>;
  const loadDataset = oldLoader.loadDataset as (root: string, o?: { only?: string[] }) => { tasks: unknown[]; manifest: unknown };
  const { root, suggestion } = await dataset();
  // The curation controller's store, opened once the dataset had loaded (not measured).
  let store = OldStore.open(root);
  const t0 = performance.now();
  const acc = await countFullLoads(root, () =>
    longestBlock(async () => {
      // RepairController.accept at REV: acceptSuggestion opened its own store (a full load) ...
      await acceptSuggestion({ root, taskId: FN_TASK, suggestionId: suggestion, curator: 'alice' });
      // ... then `await dataset.reload()`: every folder again, first 200 then ~100 ms slices with pauses between ...
      const names = fs.readdirSync(path.join(root, 'tasks')).filter((n) => !n.startsWith('.')).sort();
      let manifest: unknown;
      const tasks: unknown[] = [];
      let size = 200;
      for (let from = 0; from < names.length; ) {
        const s0 = performance.now();
        const ds = loadDataset(root, { only: names.slice(from, from + size) });
        manifest ??= ds.manifest;
        tasks.push(...ds.tasks);
        from += size;
        size = Math.max(20, Math.min(2000, Math.round((size * 100) / Math.max(performance.now() - s0, 1))));
        await new Promise((r) => setTimeout(r, 15));
      }
      // ... its `opened`/`loaded` closed and reopened the curation store over the reloaded tasks (the whole log again) ...
      store = OldStore.forDataset({ root, manifest, tasks, problems: [] }) as typeof store;
      // ... the watcher's change of the task folder made the store reload the whole dataset ...
      store.reloadDataset();
      // ... and revalidate() opened another store.
      await revalidate({ root, taskId: FN_TASK, runner: noRuns, curator: 'alice', suggestionId: suggestion });
    }),
  );
  const acceptMs = performance.now() - t0;
  if (store.task(FN_TASK)?.revision !== 2) throw new Error('before: the store did not get revision 2');
  touch(root, CHANGED, 'changed on disk');
  // The dataset service read the folder (the same work as now), then the curation controller's store reloaded the
  // whole dataset in one synchronous call: the host's longest block.
  const f0 = performance.now();
  loadDataset(root, { only: [CHANGED] });
  const serviceMs = performance.now() - f0;
  const s0 = performance.now();
  store.reloadDataset();
  const storeMs = performance.now() - s0;
  console.log(`before, one folder: dataset service ${serviceMs.toFixed(1)} ms, then the store's reloadDataset ${storeMs.toFixed(1)} ms`);
  if (store.task(CHANGED)?.title !== 'changed on disk') throw new Error('before: the store missed the change');
  fs.rmSync(dir, { recursive: true, force: true });
  return { acceptLoads: acc.fullLoads, acceptBlockMs: acc.value.blockMs, acceptMs, folderBlockMs: Math.max(serviceMs, storeMs) };
}

void (async () => {
  console.log(`host bench: example dataset + ${TASKS} generated tasks; before = ${args['no-before'] ? '(skipped)' : BEFORE}`);
  const b = args['no-before'] ? undefined : await before(BEFORE);
  const a = await after();
  const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const row = (what: string, bv: number | undefined, av: number, unit: string, goal: string): void => {
    const ratio = bv !== undefined && av > 0 ? `${(bv / av).toFixed(1)}x` : bv !== undefined ? `${bv} -> 0` : '';
    const f = (x: number): string => (unit === '' ? String(x) : `${fmt(x)}${unit}`);
    console.log(`| ${what} | ${bv !== undefined ? f(bv) : '-'} | ${f(av)} | ${ratio} | ${goal} |`);
  };
  console.log('| figure | before | after | before/after | goal |');
  console.log('|---|---|---|---|---|');
  row('accept: full dataset loads', b?.acceptLoads, a.acceptLoads, '', '0');
  row('accept: longest host block', b?.acceptBlockMs, a.acceptBlockMs, ' ms', '');
  row('accept: wall time (no container runs)', b?.acceptMs, a.acceptMs, ' ms', '');
  row(`one task folder changed (${TASKS + 3} tasks): longest host block`, b?.folderBlockMs, a.folderBlockMs, ' ms', '< 50 ms');
})().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
