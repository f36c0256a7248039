// The extension host, faked inside the harness page: a stand-in for `acquireVsCodeApi` whose postMessage answers
// the webview's requests from a fixture, the way the real host does (validated, paged, sliced, searched in
// batches, cancellable). It also records what the webview asked for and counts what tests check (DOM nodes, CSP
// violations). Bundled by the harness server into an IIFE that runs before dist/webview.js.
//
// Written without the DOM lib (the repository's test tsconfig has none): the few browser APIs used are typed here.
import { MAX_STEP_PAGE, MAX_TEXT_SLICE, STEP_PREVIEW_CHARS } from '../../../src/protocol/messages';
import type { ActionResult, EvidenceLinkView, HostToWebview, ParamsOf, ReplyOf, RequestMap, RequestMethod, SearchHit, TaskViewModel, StepKindView, StepView, ViewCommand, WebviewState, WebviewToHost } from '../../../src/protocol/messages';
import { validateWebviewMessage } from '../../../src/protocol/validate';
import { searchParts } from '../../../src/core/view/search';
import { turnsOf } from '../../../src/core/view/turns';
import { fixtureByName, type Fixture, type FullStep } from './fixtures';
import { repairFixture } from './repairFixtures';

interface El {
  tagName: string;
  shadowRoot: Root | null;
  attributes: ArrayLike<{ name: string; value: string }>;
  parentElement?: unknown;
  textContent?: string | null;
}
interface Root {
  querySelectorAll(selector: string): ArrayLike<El>;
}
interface PageGlobal {
  acquireVsCodeApi?: () => unknown;
  __fakeHost?: unknown;
  __pwned?: unknown;
  location: { search: string };
  sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void };
  document: Root & { body?: unknown; getElementById(id: string): { textContent: string | null } | null; addEventListener(type: string, fn: (e: { violatedDirective: string; blockedURI: string; sourceFile: string }) => void): void };
  dispatchEvent(e: unknown): boolean;
  MessageEvent: new (type: string, init: { data: unknown }) => unknown;
  structuredClone<T>(v: T): T;
  /** `review=real`: the Node side's real review host (harness/realReview.ts), through a Playwright binding. */
  __realReview?: (method: string, params: string) => Promise<string>;
}

const g = globalThis as unknown as PageGlobal;
const params = new URLSearchParams(g.location.search);
const fixture: Fixture = fixtureByName(params.get('fixture') ?? 'standard', params);
// `review=real` adds the review part, answered by the real review host on the Node side (harness/realReview.ts:
// `ds=story|hostile|scale` picks its dataset, `blind=1` hides the other curator until submit, `queue=1` starts in
// review mode).
const realReview = params.get('review') === 'real';
// `authoring=1` (with review=real): the task's revision, specs and tests come from the real host too, so spec edits
// (answered by the extension's SpecAuthoring on the Node side) start from the revision on disk.
const realTask = realReview && params.get('authoring') === '1';

/** The real task part over the fixture's model; a spec keeps the fixture's `stated` (the request is the fixture's). */
function withTask(model: TaskViewModel, task: Pick<TaskViewModel, 'revision' | 'specs' | 'tests'> | undefined): TaskViewModel {
  if (!task) return model;
  const stated = new Map(model.specs.map((s) => [s.id, s.stated]));
  return { ...model, revision: task.revision, specs: task.specs.map((s) => ({ ...s, stated: stated.get(s.id) ?? false })), tests: task.tests };
}
// `repair=<kind>` adds the task's repair (repairFixtures.ts: ready, failed, rejected, revalidating, revalidated, sized,
// hostile).
const repair = repairFixture(params.get('repair') ?? '', fixture.model);
if (repair) fixture.model = { ...fixture.model, repair };
// `summaries=0`: no column's trajectory summary (step count) yet, as a host's new session sends before it has read them.
/** The columns with their trajectory summaries, as a session has them once it has read the trajectories. */
const summarised = fixture.model.columns;
if (params.get('summaries') === '0') fixture.model = { ...fixture.model, columns: fixture.model.columns.map(({ trajectory: _t, ...c }) => c) };
const STATE_KEY = 'harness.webviewState';
const HOST_STATE_KEY = 'harness.hostState';

interface Logged {
  method: string;
  params: unknown;
}

const log: Logged[] = [];
const invalid: string[] = [];
const violations: string[] = [];
const uiStates: WebviewState[] = [];
/** The page's answers to `cite` messages (a citation made in an editor), in order. */
const cited: unknown[] = [];
let nextCite = 1;
let setStateCalls = 0;
let readies = 0;
/** The next search sends its first batch and then waits for releaseSearches (a host still busy with it). */
let holdNext = false;
const held: Array<() => void> = [];
const running = new Map<number, { cancelled: boolean }>();

g.document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));

function send(msg: HostToWebview): void {
  g.dispatchEvent(new g.MessageEvent('message', { data: g.structuredClone(msg) }));
}

/** Host work scheduled and not run yet: 0 means every message the page sent has been answered. */
let pending = 0;
const later = (fn: () => void, ms = 0): void => {
  pending++;
  setTimeout(() => {
    pending--;
    fn();
  }, ms);
};

// ---- trajectories -----------------------------------------------------------------------------------------------

const filtered = new Map<string, number[]>();
function indexes(column: string, kinds: StepKindView[] | undefined): number[] {
  const t = fixture.trajectories[column];
  if (!t) return [];
  const key = `${column}|${kinds?.join(',') ?? '*'}`;
  let list = filtered.get(key);
  if (!list) {
    list = [];
    for (let i = 0; i < t.count; i++) if (!kinds || kinds.includes(t.step(i).kind)) list.push(i);
    filtered.set(key, list);
  }
  return list;
}

const lineCounts = new Map<string, number>();
function lines(column: string, i: number, text: string): number {
  const key = `${column}|${i}`;
  let n = lineCounts.get(key);
  if (n === undefined) {
    n = 1;
    for (let p = text.indexOf('\n'); p >= 0; p = text.indexOf('\n', p + 1)) n++;
    lineCounts.set(key, n);
  }
  return n;
}

/** Each column's turns, by the real host's grouping, computed once from the kinds (cheap, even for 10,000 steps). */
const turnLists = new Map<string, Array<number | undefined>>();
function turnOf(column: string, i: number): number | undefined {
  let list = turnLists.get(column);
  if (!list) {
    const t = fixture.trajectories[column];
    list = turnsOf(Array.from({ length: t?.count ?? 0 }, (_, k) => t!.step(k).kind));
    turnLists.set(column, list);
  }
  return list[i];
}

/** Deliberately NOT stripped of ANSI and control characters: the webview must cope on its own. */
function view(column: string, i: number, s: FullStep): StepView {
  const v: StepView = { index: i, kind: s.kind, preview: s.text.slice(0, STEP_PREVIEW_CHARS), length: s.text.length, lines: lines(column, i, s.text) };
  const turn = turnOf(column, i);
  if (turn !== undefined) v.turn = turn;
  if (s.toolCalls) v.toolCalls = s.toolCalls;
  if (s.costUsd !== undefined) v.costUsd = s.costUsd;
  if (s.edits) v.edits = s.edits;
  return v;
}

// ---- search -------------------------------------------------------------------------------------------------------

function compile(pattern: string, regex: boolean, caseSensitive: boolean): RegExp {
  const source = regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(source, caseSensitive ? 'g' : 'gi');
}

/** Every match in every trajectory, in column order: what a correct host reports. */
function allMatches(pattern: string, regex: boolean, caseSensitive: boolean, kinds?: StepKindView[]): Record<string, number> {
  const re = compile(pattern, regex, caseSensitive);
  const counts: Record<string, number> = {};
  for (const c of fixture.model.columns) {
    if (!fixture.trajectories[c.id]) continue;
    counts[c.id] = 0;
    for (const i of indexes(c.id, kinds)) {
      for (const { text } of searchParts(fixture.trajectories[c.id]!.step(i))) {
        re.lastIndex = 0;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          counts[c.id]!++;
          if (m[0].length === 0) re.lastIndex++;
        }
      }
    }
  }
  return counts;
}

const HIT_CAP = 5000;

function runSearch(searchId: number, pattern: string, regex: boolean, caseSensitive: boolean, kinds: StepKindView[] | undefined): void {
  const re = compile(pattern, regex, caseSensitive);
  const flag = { cancelled: false };
  running.set(searchId, flag);
  const work: Array<{ column: string; i: number }> = [];
  for (const c of fixture.model.columns) for (const i of indexes(c.id, kinds)) work.push({ column: c.id, i });
  const counts: Record<string, number> = {};
  let sent = 0;
  let pos = 0;
  let hold = holdNext;
  holdNext = false;
  // `late`: a held batch released after the search was cancelled, its hits already in flight, as a real host's can be.
  const batch = (late = false) => {
    if (flag.cancelled && !late) return;
    const hits: SearchHit[] = [];
    const end = Math.min(work.length, pos + 500);
    for (; pos < end; pos++) {
      const { column, i } = work[pos]!;
      // The real host's parts: the text, and each tool call's name and arguments apart.
      for (const part of searchParts(fixture.trajectories[column]!.step(i))) {
        const text = part.text;
        re.lastIndex = 0;
        for (let m = re.exec(text); m; m = re.exec(text)) {
          counts[column] = (counts[column] ?? 0) + 1;
          if (sent < HIT_CAP) {
            const from = Math.max(0, m.index - 40);
            const place = part.toolCall !== undefined ? { toolCall: part.toolCall, field: part.field! } : {};
            hits.push({ column, step: i, start: m.index, length: m[0].length, excerpt: text.slice(from, m.index + m[0].length + 40), excerptStart: m.index - from, ...place });
            sent++;
          }
          if (m[0].length === 0) re.lastIndex++;
        }
      }
    }
    if (hits.length > 0) send({ type: 'searchHits', searchId, hits, counts: { ...counts } });
    if (flag.cancelled) return;
    if (pos < work.length) {
      if (hold) {
        hold = false;
        held.push(() => later(() => batch(true)));
      } else later(batch);
    } else {
      running.delete(searchId);
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      send({ type: 'searchDone', searchId, total, counts: { ...counts }, cancelled: false, capped: sent < total });
    }
  };
  later(batch);
}

// ---- requests -----------------------------------------------------------------------------------------------------

const traj = (column: string) => {
  const t = fixture.trajectories[column];
  if (!t) throw new Error(`no trajectory for ${column}`);
  return t;
};
const ran = (): ActionResult => ({ ran: true });

/**
 * The fixture's answers, typed from the protocol's request map like the real host's handler table (a wrong reply
 * does not compile); the review requests are answered by the real ReviewActions (review=real) or not at all.
 */
const answers: { [M in RequestMethod]?: (p: ParamsOf<RequestMap, M>) => ReplyOf<RequestMap, M> } = {
  getSteps: (p) => {
    if (p.count > MAX_STEP_PAGE) throw new Error(`page of ${p.count} steps is over MAX_STEP_PAGE`);
    const t = traj(p.column);
    const list = indexes(p.column, p.kinds);
    const steps = list.slice(p.start, p.start + p.count).map((i) => view(p.column, i, t.step(i)));
    return { steps, total: list.length, totalUnfiltered: t.count };
  },
  getStepText: (p) => {
    if (p.length > MAX_TEXT_SLICE) throw new Error(`slice of ${p.length} characters is over MAX_TEXT_SLICE`);
    const text = traj(p.column).step(p.step).text;
    return { text: text.slice(p.offset, p.offset + p.length), offset: p.offset, total: text.length };
  },
  locateStep: (p) => {
    traj(p.column);
    return { position: indexes(p.column, p.kinds).indexOf(p.step) };
  },
  search: (p) => {
    try {
      compile(p.pattern, p.regex, p.caseSensitive);
    } catch (e) {
      return { started: false, error: e instanceof Error ? e.message : String(e) };
    }
    runSearch(p.searchId, p.pattern, p.regex, p.caseSensitive, p.kinds);
    return { started: true };
  },
  cancelSearch: (p) => {
    const flag = running.get(p.searchId);
    if (!flag) return { cancelled: false };
    flag.cancelled = true;
    running.delete(p.searchId);
    later(() => send({ type: 'searchDone', searchId: p.searchId, total: 0, counts: {}, cancelled: true, capped: false }));
    return { cancelled: true };
  },
  openDiff: (p) => (p.column === 'a2' ? { opened: 'patch', message: 'The patch does not apply to the base file; showing the raw patch.' } : { opened: 'diff' }),
  compareColumns: () => ({ opened: true }),
  openTest: () => ({ opened: true }),
  openPatch: () => ({ opened: true }),
  popOut: () => ({ opened: true }),
  // As the real host's viewed marks: the mark is kept and the page gets an update with it.
  setViewed: (p) => {
    const v = fixture.model.viewed ?? { columns: [], files: [] };
    const files = v.files.filter((f) => !(f.column === p.column && f.path === p.path));
    const columns = v.columns.filter((c) => !(p.path === undefined && c === p.column));
    if (p.viewed) {
      if (p.path === undefined) columns.push(p.column);
      else files.push({ column: p.column, path: p.path });
    }
    later(() => {
      fixture.model = { ...fixture.model, viewed: { columns, files }, revision: fixture.model.revision + 1 };
      send({ type: 'update', model: fixture.model });
    });
    return { ok: true };
  },
  openRunLog: (p) => ({ opened: true, line: 12, message: `Opened the log of ${p.column} at ${p.testId ?? 'the top'} (line 12).` }),
  openProbeDiff: (p) => (p.id === 'refused' ? { opened: false, message: 'Cannot show the diff of refused: no patch.' } : { opened: true }),
  nextTask: ran,
  previousTask: ran,
  startReviewMode: ran,
  requestRepair: ran,
  runGold: () => ({ ran: true, message: 'The gold patch is queued for the verifier.' }),
  reviewRepair: ran,
  acceptRepair: ran,
  rejectRepair: ran,
  showRepairPrompt: ran,
  showRepairMatrix: ran,
};

function answer(msg: Extract<WebviewToHost, { type: 'request' }>): unknown {
  // A method name cannot narrow a generic table entry: the common signature is the one cast.
  const a = answers[msg.method] as ((p: unknown) => unknown) | undefined;
  if (!a) throw new Error(`${msg.method} is not answered by this fixture`);
  return a(msg.params);
}

interface RealAnswer {
  handled: boolean;
  result?: unknown;
  review?: unknown;
  changed?: boolean;
  /** After a spec request: the task's revision, specs and tests now. */
  task?: Pick<TaskViewModel, 'revision' | 'specs' | 'tests'>;
}

async function callReal(method: string, p: unknown): Promise<RealAnswer> {
  if (!g.__realReview) throw new Error('review=real needs the harness binding __realReview (open the page through startBrowserHarness)');
  return JSON.parse(await g.__realReview(method, JSON.stringify(p))) as RealAnswer;
}

function receive(raw: unknown): void {
  const v = validateWebviewMessage(raw);
  if (!v.ok) {
    invalid.push(v.error);
    const id = (raw as { id?: unknown }).id;
    if (typeof id === 'number') send({ type: 'reply', id, ok: false, error: v.error });
    return;
  }
  const msg = v.message;
  switch (msg.type) {
    case 'ready': {
      readies++;
      // `dropReady=N`: the first N `ready`s are lost on the way, as after a window reload.
      if (readies <= Number(params.get('dropReady') ?? 0)) return;
      if (realReview && fixture.model.review === undefined) {
        // The review part comes from the real host first; then the page gets its init.
        pending++;
        void callReal('view', {}).then((a) => {
          pending--;
          fixture.model = { ...(realTask ? withTask(fixture.model, a.task) : fixture.model), review: a.review as TaskViewModel['review'] };
          receive(raw);
        });
        readies--;
        return;
      }
      const host = g.sessionStorage.getItem(HOST_STATE_KEY);
      const init: HostToWebview = { type: 'init', model: fixture.model };
      if (host) init.state = JSON.parse(host) as WebviewState;
      send(init);
      return;
    }
    case 'cited':
      cited.push(msg);
      return;
    case 'uiState':
      uiStates.push(msg.state);
      g.sessionStorage.setItem(HOST_STATE_KEY, JSON.stringify(msg.state));
      return;
    case 'request': {
      log.push({ method: msg.method, params: msg.params });
      if (realReview) {
        // Review requests go to the real ReviewActions (Node side): the update with the new review part, then the reply.
        pending++;
        void callReal(msg.method, msg.params).then(
          (a) => {
            pending--;
            if (!a.handled) {
              try {
                send({ type: 'reply', id: msg.id, ok: true, result: answer(msg) });
              } catch (e) {
                send({ type: 'reply', id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) });
              }
              return;
            }
            if (a.changed && a.task) {
              fixture.model = { ...withTask(fixture.model, a.task), review: a.review as TaskViewModel['review'] };
              send({ type: 'update', model: fixture.model });
            } else if (a.changed && a.review) {
              fixture.model = { ...fixture.model, review: a.review as TaskViewModel['review'] };
              send({ type: 'update', model: fixture.model });
            }
            send({ type: 'reply', id: msg.id, ok: true, result: a.result });
          },
          (e: unknown) => {
            pending--;
            send({ type: 'reply', id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) });
          },
        );
        return;
      }
      try {
        send({ type: 'reply', id: msg.id, ok: true, result: answer(msg) });
      } catch (e) {
        send({ type: 'reply', id: msg.id, ok: false, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
}

// ---- the VS Code API stand-in -------------------------------------------------------------------------------------

let acquired = false;
g.acquireVsCodeApi = () => {
  if (acquired) throw new Error('acquireVsCodeApi may only be called once');
  acquired = true;
  return {
    postMessage: (m: unknown) => {
      const copy = g.structuredClone(m);
      later(() => receive(copy));
    },
    getState: () => {
      const s = g.sessionStorage.getItem(STATE_KEY);
      return s ? (JSON.parse(s) as unknown) : undefined;
    },
    setState: (s: unknown) => {
      setStateCalls++;
      g.sessionStorage.setItem(STATE_KEY, JSON.stringify(s));
    },
  };
};

function countElements(root: Root): number {
  const all = root.querySelectorAll('*');
  let n = all.length;
  for (let i = 0; i < all.length; i++) {
    const sr = all[i]!.shadowRoot;
    if (sr) n += countElements(sr);
  }
  return n;
}

/** Elements that data must never create, and on* attributes, anywhere including shadow roots. */
function dangerous(root: Root, out: string[] = []): string[] {
  const all = root.querySelectorAll('*');
  for (let i = 0; i < all.length; i++) {
    const e = all[i]!;
    if (isOurs(e)) continue;
    const tag = e.tagName.toLowerCase();
    if (['img', 'iframe', 'object', 'embed', 'a', 'form', 'frame', 'video', 'audio', 'link', 'meta', 'base', 'style', 'script'].includes(tag)) out.push(tag);
    for (let k = 0; k < e.attributes.length; k++) {
      const a = e.attributes[k]!;
      if (/^on/i.test(a.name)) out.push(`${tag}[${a.name}]`);
      if (/^(href|src|srcdoc|action|formaction|xlink:href|data|poster|background)$/i.test(a.name)) out.push(`${tag}[${a.name}]`);
    }
    if (e.shadowRoot) dangerous(e.shadowRoot, out);
  }
  return out;
}

/**
 * The page's own elements (the head, the scripts at the end of the body), as they were when it loaded, and the app
 * bundle's script that the page's first script makes from its inert block (as the page is parsed, or just after).
 */
const ours = new Set<El>();
let bundleText: string | undefined;
g.document.addEventListener('DOMContentLoaded', () => {
  const own = g.document.querySelectorAll('head *, body > script');
  for (let i = 0; i < own.length; i++) ours.add(own[i]!);
  bundleText = g.document.getElementById('specweave-bundle')?.textContent ?? undefined;
});

function isOurs(e: El): boolean {
  return ours.has(e) || (bundleText !== undefined && e.tagName === 'SCRIPT' && e.parentElement === g.document.body && e.textContent === bundleText);
}

g.__fakeHost = {
  log,
  invalid,
  violations,
  uiStates,
  get setStateCalls() {
    return setStateCalls;
  },
  get readies() {
    return readies;
  },
  requests: (method: string) => log.filter((l) => l.method === method),
  /** The model the page was last sent. */
  model: () => fixture.model,
  command: (command: ViewCommand) => send({ type: 'command', command }),
  /** What the host does when the curator cites a line in an editor (curation/citations.ts); `cited` has the answers. */
  cite: (link: EvidenceLinkView, note?: string) => send({ type: 'cite', citeId: nextCite++, link, ...(note ? { note } : {}) }),
  cited,
  update: (patch: Record<string, unknown>) => {
    fixture.model = { ...fixture.model, ...patch, revision: fixture.model.revision + 1 };
    send({ type: 'update', model: fixture.model });
  },
  /**
   * What the real host does when the task changed on disk (a verifier result, a spec edit): a new session sends
   * `init` again with no trajectory summaries (its cache is new), then an `update` once the active one has loaded.
   */
  restart: () => {
    fixture.model = { ...fixture.model, columns: summarised, revision: fixture.model.revision + 1 };
    send({ type: 'init', model: { ...fixture.model, columns: summarised.map(({ trajectory: _t, ...c }) => c) } });
    later(() => send({ type: 'update', model: fixture.model }), 150);
  },
  runningSearches: () => running.size,
  holdNextSearch: () => {
    holdNext = true;
  },
  heldSearches: () => held.length,
  releaseSearches: () => {
    for (const run of held.splice(0)) run();
  },
  idle: () => pending === 0,
  expectedCounts: (pattern: string, regex: boolean, caseSensitive: boolean, kinds?: StepKindView[]) => allMatches(pattern, regex, caseSensitive, kinds),
  stepKind: (column: string, i: number) => fixture.trajectories[column]?.step(i).kind,
  countElements: () => countElements(g.document),
  dangerous: () => dangerous(g.document),
  reviewModel: () => fixture.model.review,
  resetState: () => {
    g.sessionStorage.removeItem(STATE_KEY);
    g.sessionStorage.removeItem(HOST_STATE_KEY);
  },
};
