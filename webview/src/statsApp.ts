// The statistics and adjudication panels: one small app on the curation panel protocol (ready -> init, update on
// every change of the review log, requests with ids and one reply each, through the one RPC client). Everything from
// the host is data: text through lit-html's text bindings, charts as SVG templates, bars sized through CSSOM. Both
// views are lit-html templates, so the body patches on every update.
import type {
  AdjudicationViewModel,
  CurationPanelModel,
  CurationRequestMap,
  CurationWebviewToHost,
  HostToCurationWebview,
  StatsViewModel,
  TaskStatusView,
} from '../../src/protocol/messages';
import { PROTOCOL_VERSION } from '../../src/protocol/messages';
import { isCalibrationView, isSolveRatesView, isSpecStatsView } from '../../src/protocol/validate';
import { html, render, type TemplateResult } from 'lit-html';
import { el } from './dom';
import { oneLine } from './text';
import { adjudication, type PanelCtx } from './statsAdjudication';
import { statsView, type CandidatesFilter } from './statsCharts';
import { connect, PanelConnection } from './host';
import type { VsCodeApi } from './vscodeApi';
import { errorText } from './text';

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
    connect<CurationRequestMap, HostToCurationWebview>(this.host, {
      sayReady: () => post({ type: 'ready', protocol: PROTOCOL_VERSION }),
      answered: () => this.model !== undefined,
      onSilent: () => {
        loading.textContent = `${loading.textContent ?? ''} The extension has not answered yet; still asking. If this stays, close this panel and open it again.`;
      },
      onMessage: (msg) => {
        if (msg.type === 'init' || msg.type === 'update') {
          this.model = msg.model;
          this.render();
        }
      },
      onError: (_type, e) => this.status(`Could not show this: ${errorText(e)}`, true),
    });
  }

  private render(): void {
    const m = this.model;
    if (!m) return;
    const ctx: PanelCtx = { host: this.host, status: (t, e) => this.status(t, e), notes: this.notes };
    let view: TemplateResult;
    try {
      const filter = (f: CandidatesFilter): void => {
        this.host.request('filterCandidates', f as CandidatesFilter & { statuses?: TaskStatusView[] }).then(
          (r) => this.status(r.filtered ? 'The Candidates list shows these tasks.' : 'The Candidates list could not be filtered (is a dataset open?).', !r.filtered),
          (e: unknown) => this.status(errorText(e), true),
        );
      };
      view = m.view === 'stats' ? statsView(normalizeStats(m.stats), filter) : adjudication(ctx, normalizeAdjudication(m.adjudication), () => this.render());
    } catch (e) {
      view = html`<div class="error" data-testid="region-error">${`This view could not be shown: ${errorText(e)}`}</div>`;
    }
    // The body stays, so where it is scrolled to stays; lit patches what changed inside it.
    render(view, this.body);
    if (!this.root.contains(this.body)) this.root.replaceChildren(this.statusLine, this.body);
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
  const { specs, calibration, solveRates, ...rest } = s;
  return {
    ...rest,
    // Spec figures of the wrong shape (a host of another version) are left out; the section says they are missing.
    ...(isSpecStatsView(specs) ? { specs } : {}),
    ...(isCalibrationView(calibration) ? { calibration } : {}),
    ...(isSolveRatesView(solveRates) ? { solveRates } : {}),
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
