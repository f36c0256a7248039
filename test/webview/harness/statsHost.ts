// The extension host of the statistics and adjudication panels, faked inside the harness page: a stand-in for
// acquireVsCodeApi that answers `ready` with a model, validates every message with validateCurationMessage, records
// adjudications, and pushes updates on demand. `?view=adjudication` picks the panel, `hostile=1` fills every text
// with markup. Written without the DOM lib, like fakeHost.ts.
import type { AdjudicationViewModel, CurationPanelModel, CurationRequestMap, CurationRequestMethod, CurationWebviewToHost, HostToCurationWebview, ParamsOf, ReplyOf, ReviewActResult, StatsViewModel } from '../../../src/protocol/messages';
import { validateCurationMessage } from '../../../src/protocol/validate';
import { HOSTILE_HTML } from './fixtures';

interface PageGlobal {
  acquireVsCodeApi?: () => unknown;
  __statsHost?: unknown;
  location: { search: string };
  document: { addEventListener(type: string, fn: (e: { violatedDirective: string; blockedURI: string }) => void): void };
  dispatchEvent(e: unknown): boolean;
  MessageEvent: new (type: string, init: { data: unknown }) => unknown;
  structuredClone<T>(v: T): T;
}

const g = globalThis as unknown as PageGlobal;
const params = new URLSearchParams(g.location.search);
const hostile = params.get('hostile') === '1';
const h = (s: string) => (hostile ? `${s} ${HOSTILE_HTML}` : s);
const log: Array<{ method: string; params: unknown }> = [];
const invalid: string[] = [];
const violations: string[] = [];
g.document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));

export function statsModel(): StatsViewModel {
  return {
    protocol: 1,
    dataset: h('durations-example'),
    policy: 'adjudicate',
    funnel: { imported: 20, reviewed: 8, approved: 3, rejected: 1 },
    byStatus: { candidate: 12, in_review: 3, flagged: 0, needs_repair: 1, repaired: 0, revalidated: 0, approved: 3, rejected: 1 },
    breakdown: { reviewed: 8, falsePositivesOnly: 2, falseNegativesOnly: 1, both: 1, none: 4 },
    byCategory: [
      { category: h('error-handling'), specs: 6, decided: 12, falsePositives: 1, falseNegatives: 2, fpRate: 1 / 12, fnRate: 2 / 12 },
      { category: 'computation-algorithms', specs: 3, decided: 9, falsePositives: 2, falseNegatives: 0, fpRate: 2 / 9, fnRate: 0 },
      { category: 'parsing-representation', specs: 3, decided: 0, falsePositives: 0, falseNegatives: 0 },
    ],
    bySolver: [
      { model: h('gpt-4o-2024-08-06'), attempts: 4, decided: 18, falsePositives: 2, falseNegatives: 0, fpRate: 2 / 18, fnRate: 0, attemptsWithFalsePositive: 2, attemptsWithFalseNegative: 0 },
      { model: 'claude-sonnet-4-5-20250929', attempts: 3, decided: 16, falsePositives: 0, falseNegatives: 2, fpRate: 0, fnRate: 2 / 16, attemptsWithFalsePositive: 0, attemptsWithFalseNegative: 1 },
    ],
    agreement: [
      { kind: 'verdict', metric: 'nominal', curators: 2, alpha: 0.743, items: 12, values: 24, kappa: 0.4, kappaItems: 12 },
      { kind: 'fnSeverity', metric: 'ordinal', curators: 3, alpha: 0.815, items: 5, values: 14 },
      { kind: 'difficulty', metric: 'ordinal', curators: 1, items: 0, values: 0 },
    ],
    throughput: [
      { curator: h('alice'), day: '2026-11-27', events: 12 },
      { curator: h('alice'), day: '2026-11-28', events: 30 },
      { curator: 'bob', day: '2026-11-28', events: 9 },
      { curator: 'bob', day: '2026-11-29', events: 14 },
    ],
    curators: [
      { curator: h('alice'), events: 42, labels: 36, tasks: 6 },
      { curator: 'bob', events: 23, labels: 20, tasks: 3 },
    ],
    disagreements: { open: 2, settled: 1 },
    suggestions: { open: 3, confirmed: 1, dismissed: 2 },
    log: { events: 65, undone: 2, issues: 0 },
    computedAt: '2026-11-29T12:00:00.000Z',
    computeMs: 14,
  };
}

function adjudicationModel(showSettled: boolean, settled: Map<string, string | number | string[]>): AdjudicationViewModel {
  const items: AdjudicationViewModel['items'] = [
    {
      key: 'k1',
      taskId: 'format-precision',
      taskTitle: h('Round formatted durations'),
      target: 'label',
      attempt: 'sweagent-gpt-4o',
      spec: 'A2',
      specText: h('Halves round up.'),
      verifier: 'pass',
      values: [
        { curator: h('alice'), value: 'violated', event: 'E1' },
        { curator: 'bob', value: 'satisfied', event: 'E2' },
      ],
      open: true,
      from: 'disagreement',
      choices: ['satisfied', 'violated', 'unsure'],
    },
    {
      key: 'k2',
      taskId: 'total-command',
      taskTitle: 'Total command',
      target: 'score',
      field: 'fnSeverity',
      values: [
        { curator: 'alice', value: 3, event: 'E3' },
        { curator: 'bob', value: 1, event: 'E4' },
      ],
      open: true,
      from: 'disagreement',
      choices: [0, 1, 2, 3],
    },
    {
      key: 'k3',
      taskId: 'total-command',
      taskTitle: 'Total command',
      target: 'score',
      field: 'envDefects',
      values: [
        { curator: 'alice', value: ['flaky'], event: 'E5' },
        { curator: 'bob', value: [], event: 'E6' },
      ],
      open: false,
      final: ['flaky'],
      from: 'adjudicated',
      choices: [[], ['flaky']],
    },
  ];
  const rows = items.map((i) => (settled.has(i.key) ? { ...i, open: false, final: settled.get(i.key)!, from: 'adjudicated' as const } : i));
  const open = rows.filter((r) => r.open).length;
  return {
    protocol: 1,
    dataset: 'durations-example',
    policy: 'adjudicate',
    viewer: 'carol',
    showSettled,
    items: showSettled ? rows : rows.filter((r) => r.open),
    total: { open, settled: rows.length - open },
  };
}

const view = params.get('view') === 'adjudication' ? 'adjudication' : 'stats';
let showSettled = false;
const settled = new Map<string, string | number | string[]>();
let stats = statsModel();
const model = (): CurationPanelModel => (view === 'stats' ? { view, stats } : { view, adjudication: adjudicationModel(showSettled, settled) });

function send(msg: HostToCurationWebview): void {
  g.dispatchEvent(new g.MessageEvent('message', { data: g.structuredClone(msg) }));
}

function receive(raw: unknown): void {
  const v = validateCurationMessage(raw);
  if (!v.ok) {
    invalid.push(v.error);
    return;
  }
  const m: CurationWebviewToHost = v.message;
  if (m.type === 'ready') {
    send({ type: 'init', model: model() });
    return;
  }
  log.push({ method: m.method, params: m.params });
  // A method name cannot narrow a generic table entry: the common signature is the one cast.
  const result = (answers[m.method] as (p: unknown) => unknown)(m.params);
  send({ type: 'reply', id: m.id, ok: true, result });
}

/** The fake panel's answers, typed from the protocol's map like the real host's handler table. */
const answers: { [M in CurationRequestMethod]: (p: ParamsOf<CurationRequestMap, M>) => ReplyOf<CurationRequestMap, M> } = {
  adjudicate: (p) => {
    const row = adjudicationModel(true, settled).items.find((i) => i.taskId === p.taskId && (p.target === 'label' ? i.attempt === p.attempt && i.spec === p.spec : i.field === p.field));
    if (row) settled.set(row.key, p.target === 'label' ? p.verdict : p.value);
    const result: ReviewActResult = { ok: true, event: `A${log.length}`, summary: 'decision recorded' };
    send({ type: 'update', model: model() });
    return result;
  },
  filterCandidates: () => ({ filtered: true }),
  showSettled: (p) => {
    showSettled = p.show;
    send({ type: 'update', model: model() });
    return { shown: showSettled };
  },
  openTask: () => ({ opened: true }),
};

let acquired = false;
g.acquireVsCodeApi = () => {
  if (acquired) throw new Error('acquireVsCodeApi may only be called once');
  acquired = true;
  return {
    postMessage: (m: unknown) => {
      const copy = g.structuredClone(m);
      setTimeout(() => receive(copy), 0);
    },
    getState: () => undefined,
    setState: () => undefined,
  };
};

g.__statsHost = {
  log,
  invalid,
  violations,
  /** Pushes an update with some figures changed (as after a label elsewhere). */
  update: (patch: Partial<StatsViewModel>) => {
    stats = { ...stats, ...patch };
    send({ type: 'update', model: model() });
  },
};
