// The statistics and adjudication panels: one small app on the curation panel protocol (ready -> init, update on
// every change of the review log, requests with ids and one reply each). Everything from the host is data: text by
// textContent, charts from createElementNS and DOM bars sized through CSSOM.
import type {
  AdjudicationViewModel,
  CurationPanelModel,
  CurationRequestMap,
  CurationRequestMethod,
  CurationWebviewToHost,
  HostToCurationWebview,
  ReviewActResult,
  StatsViewModel,
} from '../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { el } from './dom';
import { oneLine } from './text';
import { renderAdjudication } from './statsAdjudication';
import { renderStats } from './statsCharts';
import { startHandshake } from './handshake';
import type { VsCodeApi } from './vscodeApi';

type Reply = Extract<HostToCurationWebview, { type: 'reply' }>;

/** Numbered requests, one reply each (the task view's HostConnection, for the panel protocol). */
export class PanelConnection {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(private readonly post: (m: CurationWebviewToHost) => void) {}

  request<M extends CurationRequestMethod>(method: M, params: CurationRequestMap[M]['params']): Promise<CurationRequestMap[M]['result']> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ type: 'request', id, method, params } as CurationWebviewToHost);
    });
  }

  handleReply(r: Reply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    if (r.ok) p.resolve(r.result);
    else p.reject(new Error(typeof r.error === 'string' ? r.error : 'failed'));
  }
}

/** What the two views get from the app. */
export interface PanelCtx {
  host: PanelConnection;
  status(message: string, error?: boolean): void;
  /** Unsent notes of the adjudication view, by row key: they survive updates and failed requests. */
  notes: Map<string, string>;
}

export class CurationPanelApp {
  private readonly host: PanelConnection;
  private readonly statusLine = el('div', { class: 'status-line small', testid: 'panel-status', attrs: { 'aria-live': 'polite' } });
  private readonly body = el('div', { class: 'panel-body' });
  private model: CurationPanelModel | undefined;
  private readonly notes = new Map<string, string>();
  private statusTimer: ReturnType<typeof setTimeout> | undefined;
  /** Models rendered so far (tests wait on it through the DOM attribute). */
  private renders = 0;

  constructor(
    api: VsCodeApi,
    private readonly root: HTMLElement,
    kind: 'stats' | 'adjudication',
  ) {
    const post = (m: CurationWebviewToHost) => (api as unknown as { postMessage(m: CurationWebviewToHost): void }).postMessage(m);
    this.host = new PanelConnection(post);
    root.dataset.testid = kind === 'stats' ? 'stats-view' : 'adjudication-view';
    const loading = el('p', { class: 'muted loading', testid: 'loading', text: kind === 'stats' ? 'Computing the statistics\u2026' : 'Finding disagreements\u2026' });
    root.append(loading);
    window.addEventListener('message', (e: MessageEvent<unknown>) => this.onMessage(e.data));
    startHandshake({
      sayReady: () => post({ type: 'ready', protocol: PROTOCOL_VERSION }),
      answered: () => this.model !== undefined,
      onSilent: () => {
        loading.textContent = `${loading.textContent ?? ''} The extension has not answered yet; still asking. If this stays, close this panel and open it again.`;
      },
    });
  }

  private onMessage(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    const msg = raw as HostToCurationWebview;
    try {
      if (msg.type === 'reply') this.host.handleReply(msg);
      else if (msg.type === 'init' || msg.type === 'update') {
        this.model = msg.model;
        this.render();
      }
    } catch (e) {
      this.status(`Could not show this: ${e instanceof Error ? e.message : String(e)}`, true);
    }
  }

  private render(): void {
    const m = this.model;
    if (!m) return;
    const scroll = this.body.scrollTop;
    const ctx: PanelCtx = { host: this.host, status: (t, e) => this.status(t, e), notes: this.notes };
    let view: HTMLElement;
    try {
      view = m.view === 'stats' ? renderStats(normalizeStats(m.stats)) : renderAdjudication(ctx, normalizeAdjudication(m.adjudication), () => this.render());
    } catch (e) {
      view = el('div', { class: 'error', testid: 'region-error', text: `This view could not be shown: ${e instanceof Error ? e.message : String(e)}` });
    }
    this.body.replaceChildren(view);
    if (!this.root.contains(this.body)) this.root.replaceChildren(this.statusLine, this.body);
    this.body.scrollTop = scroll;
    this.renders++;
    this.root.dataset.renders = String(this.renders);
  }

  private status(message: string, error = false): void {
    this.statusLine.textContent = oneLine(message, 300);
    this.statusLine.classList.toggle('error', error);
    clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => (this.statusLine.textContent = ''), error ? 15_000 : 6_000);
  }
}

const arr = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);

function normalizeStats(s: StatsViewModel): StatsViewModel {
  return {
    ...s,
    byCategory: arr(s.byCategory),
    bySolver: arr(s.bySolver),
    agreement: arr(s.agreement),
    throughput: arr(s.throughput),
    curators: arr(s.curators),
  };
}

function normalizeAdjudication(a: AdjudicationViewModel): AdjudicationViewModel {
  return { ...a, items: arr(a.items).map((i) => ({ ...i, values: arr(i.values), choices: arr(i.choices) })) };
}

export function actText(r: ReviewActResult): string {
  return r.ok ? `Recorded: ${oneLine(r.summary, 200)}.` : `${['disk_full', 'io', 'locked', 'unavailable'].includes(r.code) ? 'Not recorded' : 'Refused'}: ${oneLine(r.message, 400)}`;
}
