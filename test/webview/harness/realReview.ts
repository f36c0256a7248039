// The review side of the harness host built from the real thing (`?review=real`): the extension's ReviewActions over
// a real CurationStore on a fresh copy of test/fixtures/review/ds (task t1, attempts a1 and a2, with its verifier
// runs), as src/vscode/curation/curationController.ts wires them. The page's fake host hands each review request to
// this Node side through a Playwright binding and gets back the reply and the task's review part after it, so every
// answer is what the extension would answer: checked against the log on disk, appended, fsynced. Node code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LogFs } from '../../../src/adapters/fs/reviewLog';
import { CurationStore } from '../../../src/app/curationStore';
import type { RequestMethod, ReviewView, SpecView, TaskViewModel, TestView } from '../../../src/protocol/messages';
import { SPEC_METHODS, SpecAuthoring } from '../../../src/vscode/specs/authoring';
import type { SpecMethod } from '../../../src/vscode/specs/authoring';
import { validateWebviewMessage } from '../../../src/protocol/validate';
import { ReviewActions } from '../../../src/vscode/curation/reviewActions';
import { REVIEW_METHODS } from '../../../src/vscode/taskSession';
import type { ReviewMethod, ReviewRequests } from '../../../src/vscode/taskSession';
import { reviewDataset, writeRun, writeT1Runs } from '../../unit/review/helpers';
import { copyFixture } from '../../unit/helpers/tmp';
import { HOSTILE_HTML } from './fixtures';

export const REAL_VIEWER = 'alice';

/**
 * Which dataset the real host opens: `ds` (test/fixtures/review/ds, task t1) or `story` (test/fixtures/review/story:
 * task demo__parser-1234 with the task view fixture's ids, five specs, verifier runs with a gold probe failing T3,
 * bob's labels, and three more tasks in the review queue), or `hostile`: the story where everything another writer
 * put in the dataset and the log is hostile HTML (T3's parametrized name, the other curator's name, notes), or
 * `scale`: the story with a big task `scale` added (by default 10 attempts × 40 specs, 200 tests, every attempt verified, bob's
 * noted label on each of a1's pairs).
 */
export type RealDataset = 'ds' | 'story' | 'hostile' | 'scale';
export interface RealReviewOptions {
  dataset?: RealDataset;
  /** Blind review: the others' labels hidden until the viewer submits. */
  blind?: boolean;
  /** Review mode (the queue) on from the start. */
  queue?: boolean;
  /** The size of the `scale` task (default 10 attempts, 40 specs, 200 tests). */
  size?: ScaleSize;
  /** (story) The review agent's findings on a1's current patch: see `writeFindings`. */
  findings?: boolean;
}
export interface ScaleSize {
  attempts: number;
  specs: number;
  tests: number;
}

export const STORY_TASK = 'demo__parser-1234';
const hostileT3 = `tests/test_errors.py::test_unclosed[${HOSTILE_HTML}]`;

/** A pytest parametrized id may hold any text: in the hostile story T3's name carries markup into the probe flag. */
function makeHostile(root: string): void {
  const f = path.join(root, 'tasks', STORY_TASK, 'task.json');
  const task = JSON.parse(fs.readFileSync(f, 'utf8')) as { tests: Array<{ id: string; name: string }> };
  task.tests.find((t) => t.id === 'T3')!.name = hostileT3;
  fs.writeFileSync(f, JSON.stringify(task, null, 2));
}

export const SCALE_TASK = 'scale';

/** The big task's folder, written as a dataset author's tool would: task.json, patches, attempts. */
function writeScaleTask(root: string, size: ScaleSize): void {
  const dir = path.join(root, 'tasks', SCALE_TASK);
  const story = path.join(root, 'tasks', STORY_TASK);
  const base = JSON.parse(fs.readFileSync(path.join(story, 'task.json'), 'utf8')) as Record<string, unknown>;
  const nSpecs = size.specs;
  const nTests = size.tests;
  const specsOf = (t: number) => [`S${t % nSpecs}`].filter((s) => Number(s.slice(1)) % 9 !== 0);
  const task = {
    ...base,
    id: SCALE_TASK,
    title: 'A big task',
    specs: Array.from({ length: nSpecs }, (_, s) => ({ id: `S${s}`, category: 'parsing-representation', text: `Spec ${s}: ${'the parser keeps what it must keep. '.repeat(3)}` })),
    tests: Array.from({ length: nTests }, (_, t) => ({ id: `T${t}`, name: `tests/test_mod_${t % 11}.py::TestCase${t % 5}::test_case_${t}`, kind: t < 10 ? 'fail_to_pass' : 'pass_to_pass', specs: specsOf(t) })),
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'task.json'), JSON.stringify(task, null, 2));
  for (const f of ['request.md', 'gold.patch', 'tests.patch']) fs.copyFileSync(path.join(story, f), path.join(dir, f));
  for (let a = 1; a <= size.attempts; a++) {
    const ad = path.join(dir, 'attempts', `a${a}`);
    fs.mkdirSync(ad, { recursive: true });
    fs.copyFileSync(path.join(story, 'attempts', 'a1', 'patch.diff'), path.join(ad, 'patch.diff'));
    fs.writeFileSync(path.join(ad, 'attempt.json'), JSON.stringify({ model: `model-${a}`, agent: 'swe-agent' }));
  }
}

async function writeScale(root: string, store: CurationStore, size: ScaleSize): Promise<void> {
  const names = Array.from({ length: size.tests }, (_, t) => `tests/test_mod_${t % 11}.py::TestCase${t % 5}::test_case_${t}`);
  const all = (status: (t: number) => 'PASSED' | 'FAILED') => Object.fromEntries(names.map((n, t) => [n, status(t)]));
  writeRun(root, SCALE_TASK, 'gold', all(() => 'PASSED'));
  writeRun(root, SCALE_TASK, 'empty', all((t) => (t < 10 ? 'FAILED' : 'PASSED')));
  for (let a = 1; a <= size.attempts; a++) writeRun(root, SCALE_TASK, `a${a}`, all((t) => ((a + t) % 3 ? 'PASSED' : 'FAILED')));
  for (let s = 0; s < size.specs; s++) {
    const r = await store.act(SCALE_TASK, 'bob', { kind: 'label', attempt: 'a1', spec: `S${s}`, verdict: s % 2 ? 'satisfied' : 'violated', note: `bob's note on S${s}: ${'a careful reason. '.repeat(5)}` });
    if (!r.ok) throw new Error(`scale: label a1 × S${s}: ${r.refusal.message}`);
  }
}

const TESTS = {
  T1: 'tests/test_parser.py::TestNested::test_trailing_comma',
  T2: 'tests/test_parser.py::TestNested::test_spaces',
  T3: 'tests/test_errors.py::test_unclosed',
  T4: 'tests/test_parser.py::test_flat_list',
};

/**
 * The story's runs and the other curator's work, written through the real run-record builder and the real store:
 * the gold patch fails T3 (the probe flag "gold fails test"); the empty patch fails the FAIL_TO_PASS tests; a1 passes
 * T1, T2, T4 and fails T3 (S1 and S4 pass, S2 fails); a2 fails T1 and T2 and misses T3. bob moved the task into
 * review, labelled a1 × S1 violated (with a note and a test link) and a2 × S2 satisfied, and rejected q4 (so
 * alice's queue has three tasks left, one done).
 */
async function writeStory(root: string, store: () => CurationStore, hostile: boolean): Promise<void> {
  const T = hostile ? { ...TESTS, T3: hostileT3 } : TESTS;
  const pass = 'PASSED';
  const fail = 'FAILED';
  writeRun(root, STORY_TASK, 'gold', { [T.T1]: pass, [T.T2]: pass, [T.T3]: fail, [T.T4]: pass });
  writeRun(root, STORY_TASK, 'empty', { [T.T1]: fail, [T.T2]: fail, [T.T3]: fail, [T.T4]: pass });
  writeRun(root, STORY_TASK, 'a1', { [T.T1]: pass, [T.T2]: pass, [T.T3]: fail, [T.T4]: pass });
  writeRun(root, STORY_TASK, 'a2', { [T.T1]: fail, [T.T2]: fail, [T.T4]: pass });
  const s = store();
  const bob = hostile ? `bob${HOSTILE_HTML.slice(0, 40)}` : 'bob';
  const act = async (task: string, intent: Parameters<CurationStore['act']>[2]) => {
    const r = await s.act(task, bob, intent);
    if (!r.ok) throw new Error(`story: ${intent.kind} on ${task}: ${r.refusal.message}`);
  };
  await act(STORY_TASK, { kind: 'status', to: 'in_review', ...(hostile ? { note: `status note ${HOSTILE_HTML}` } : {}) });
  await act(STORY_TASK, { kind: 'label', attempt: 'a1', spec: 'S1', verdict: 'violated', note: hostile ? `${HOSTILE_HTML}\u202eevil` : 'the nested comma is dropped', evidence: [{ kind: 'test', test: 'T1' }] });
  await act(STORY_TASK, { kind: 'label', attempt: 'a2', spec: 'S2', verdict: 'satisfied' });
  await act('q4', { kind: 'reject', reason: 'a duplicate of demo__parser-1234' });
}

/** Markup in the agent's rationale: it must show as text. */
export const FINDING_MARKUP = '<img src=x onerror="window.__pwned=1"><b>bold?</b>';

/**
 * A `review.findings` event on a1's current patch, as the review agent writes one: a1 × S4 violated while T2 passes
 * (a false-positive candidate) with citations of every kind, and a1 × S1 satisfied (no candidate).
 */
async function writeFindings(store: CurationStore): Promise<void> {
  const task = store.task(STORY_TASK);
  if (!task) throw new Error('no story task');
  const runId = store.verifier(STORY_TASK)?.attempts.a1?.runId ?? 'no-run';
  const patchHash = store.patchHashes(STORY_TASK).get('a1');
  if (!patchHash) throw new Error('story: a1 has no patch');
  const r = await store.record(() => [
    {
      kind: 'review.findings',
      task: STORY_TASK,
      revision: task.revision,
      curator: 'review-agent',
      payload: {
        attempt: 'a1',
        patchHash,
        run: runId,
        model: 'gpt-review',
        promptVersion: 'review-1',
        promptHash: 'ab'.repeat(32),
        findings: [
          {
            spec: 'S4',
            judgment: 'violated',
            confidence: 0.82,
            rationale: `The patch only adds a constant ${FINDING_MARKUP}; spaces are never stripped.`,
            candidate: 'false_positive',
            verifierVerdict: 'pass',
            citations: [
              { kind: 'trajectory_step', step: 12 },
              { kind: 'diff_hunk', file: 'src/pkg/parser.py', hunk: 0, quote: 'TRAILING_COMMA' },
              { kind: 'test', test: 'T2' },
              { kind: 'log_line', run: runId, line: 3 },
              { kind: 'request_sentence', sentence: 1 },
            ],
          },
          { spec: 'S1', judgment: 'satisfied', confidence: 0.6, rationale: 'T1 checks it.', citations: [{ kind: 'test', test: 'T1' }] },
        ],
        dropped: [],
      },
    },
  ]);
  if (!r.ok) throw new Error('story: findings not recorded');
}

const METHODS: readonly string[] = REVIEW_METHODS;

const SPEC_METHOD_NAMES: readonly string[] = SPEC_METHODS;

export interface RealReviewAnswer {
  /** Not a review method: the fake host answers it itself. */
  handled: boolean;
  result?: unknown;
  /** The task's review part after the request (the host pushes it as an `update` before the reply). */
  review?: ReviewView;
  /** Whether anything changed on disk (then the update is sent). */
  changed?: boolean;
  /** After a spec request: the task's revision, specs and tests as the store has them now (the update carries them). */
  task?: Pick<TaskViewModel, 'revision' | 'specs' | 'tests'>;
}

export class RealReviewHost {
  readonly root: string;
  readonly store: CurationStore;
  readonly actions: ReviewActions;
  /** The extension's spec authoring (src/vscode/specs/authoring.ts) on the same store; `trusted` as the workspace. */
  readonly authoring: SpecAuthoring;
  trusted = true;
  /** The next append fails as a full disk would (ENOSPC): nothing is recorded. */
  diskFull = false;
  private changedTasks = 0;
  readonly task: string;
  private held: { reached: () => void; gate: Promise<void> } | undefined;
  /** Spec requests answered so far (a held one counts once it is answered). */
  specRequests = 0;

  /**
   * Holds the next spec request before it is answered, so a test can see the page while it writes: `reached`
   * resolves when the request arrived, `release` lets it through.
   */
  holdNextSpecRequest(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    const gate = new Promise<void>((r) => (release = r));
    this.held = { reached, gate };
    return { reached: arrived, release };
  }

  static async create(o: RealReviewOptions = {}): Promise<RealReviewHost> {
    const h = new RealReviewHost(o);
    if (o.dataset === 'story' || o.dataset === 'hostile') {
      await writeStory(h.root, () => h.store, o.dataset === 'hostile');
      if (o.findings) await writeFindings(h.store);
    }
    if (o.dataset === 'scale') {
      await writeScale(h.root, h.store, h.size);
    }
    if (o.queue) h.actions.startReviewMode();
    return h;
  }

  private constructor(o: RealReviewOptions) {
    const story = o.dataset === 'story' || o.dataset === 'hostile' || o.dataset === 'scale';
    this.task = o.dataset === 'scale' ? SCALE_TASK : story ? STORY_TASK : 't1';
    this.root = story ? copyFixture('review/story') : reviewDataset();
    if (!story) writeT1Runs(this.root);
    if (o.dataset === 'hostile') makeHostile(this.root);
    this.size = o.size ?? { attempts: 10, specs: 40, tests: 200 };
    if (o.dataset === 'scale') writeScaleTask(this.root, this.size);
    this.blind = o.blind === true;
    const logFs: LogFs = {
      ...fs,
      writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
        if (this.diskFull) {
          this.diskFull = false;
          const e = new Error('ENOSPC: no space left on device, write') as NodeJS.ErrnoException;
          e.code = 'ENOSPC';
          throw e;
        }
        return (fs.writeSync as (...a: unknown[]) => number)(...args);
      }) as typeof fs.writeSync,
    };
    this.store = CurationStore.open(this.root, { log: { fs: logFs } });
    this.actions = new ReviewActions({
      store: () => this.store,
      curator: () => ({ ok: true, name: REAL_VIEWER, source: 'setting' }),
      blind: () => this.blind,
      changed: () => void this.changedTasks++,
      showTask: () => undefined,
      openEvidence: async (_task, link) => ({ opened: true, message: `Opened ${link.kind}.` }),
    });
    this.authoring = new SpecAuthoring({
      owner: {
        store: this.store,
        curator: { ok: true, name: REAL_VIEWER, source: 'setting' },
        // applySpecEdit has put the task's folder into the store already; the log is the store's own.
        refreshTasks: () => undefined,
        refreshLog: () => this.store.refresh(),
      },
      trusted: () => this.trusted,
    });
  }

  /** The task's revision, specs and tests as the store has them (what the extension's model builder shows). */
  taskPart(): Pick<TaskViewModel, 'revision' | 'specs' | 'tests'> {
    const t = this.store.dataset.tasks.find((x) => x.id === this.task);
    if (!t) throw new Error(`no task ${this.task} in the store`);
    const coveredBy = new Map<string, string[]>();
    for (const x of t.tests) for (const s of x.specs) coveredBy.set(s, [...(coveredBy.get(s) ?? []), x.id]);
    const specs: SpecView[] = t.specs.map((s) => ({ id: s.id, text: s.text, category: s.category, dependsOn: s.dependsOn, tests: coveredBy.get(s.id) ?? [], uncovered: !coveredBy.has(s.id), stated: false }));
    const tests: TestView[] = t.tests.map((x) => ({ id: x.id, name: x.name, kind: x.kind, specs: x.specs, unmapped: x.specs.length === 0 }));
    return { revision: t.revision, specs, tests };
  }

  private readonly blind: boolean;
  private readonly size: ScaleSize;

  view(): ReviewView | undefined {
    return this.actions.view(this.task);
  }

  async handle(method: string, params: unknown): Promise<RealReviewAnswer> {
    if (method === 'view') return { handled: true, review: this.view(), task: this.taskPart() };
    if (SPEC_METHOD_NAMES.includes(method)) return this.handleSpecs(method, params);
    if (!METHODS.includes(method)) return { handled: false };
    const before = this.changedTasks;
    // Checked as the real host's channel checks it, then handed to the typed table (one cast: a method name cannot
    // narrow a generic table entry).
    const v = validateWebviewMessage({ type: 'request', id: 1, method, params });
    if (!v.ok || v.message.type !== 'request') throw new Error(v.ok ? 'not a request' : v.error);
    const m = v.message;
    const isReview = (x: RequestMethod): x is ReviewMethod => METHODS.includes(x);
    if (!isReview(m.method)) return { handled: false };
    const table: ReviewRequests = this.actions.requests(this.task);
    const result = await (table[m.method] as (p: unknown) => Promise<unknown>)(m.params);
    const changed = this.changedTasks !== before;
    return { handled: true, result, changed, ...(changed ? { review: this.view() } : {}) };
  }

  /** A spec request, checked as the channel checks it, answered by the extension's SpecAuthoring; the update always follows. */
  private async handleSpecs(method: string, params: unknown): Promise<RealReviewAnswer> {
    const v = validateWebviewMessage({ type: 'request', id: 1, method, params });
    if (!v.ok || v.message.type !== 'request') throw new Error(v.ok ? 'not a request' : v.error);
    const m = v.message;
    const isSpec = (x: RequestMethod): x is SpecMethod => SPEC_METHOD_NAMES.includes(x);
    if (!isSpec(m.method)) return { handled: false };
    const held = this.held;
    this.held = undefined;
    if (held) {
      held.reached();
      await held.gate;
    }
    this.specRequests++;
    const table = this.authoring.requests(this.task);
    const result = await (table[m.method] as (p: unknown) => Promise<unknown>)(m.params);
    return { handled: true, result, changed: true, review: this.view(), task: this.taskPart() };
  }

  /** The viewer's events on disk, in order (the story's own events, bob's, left out). */
  mine(): Array<Record<string, unknown>> {
    return this.events().filter((e) => e.curator === REAL_VIEWER);
  }

  /** The events on disk, in order. */
  events(): Array<Record<string, unknown>> {
    const f = path.join(this.root, 'curation/events.jsonl');
    if (!fs.existsSync(f)) return [];
    return fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
