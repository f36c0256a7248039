// The statistics panel and the adjudication panel: two webview panels on one bundle (dist/stats.js) with the same
// strict CSP and nonce as the task view. Each is built from the curation store and refreshed (coalesced) whenever the
// review log changes; the adjudication panel records final decisions through the store.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CurationStore } from '../../app/curationStore';
import type { AdjudicatePayload, Difficulty, EnvDefect, ScoreField } from '../../core/review/events';
import { buildDisagreementViews, buildStatsView } from '../../core/view/reviewView';
import { buildSpecStatsView } from '../../core/view/specStatsView';
import { buildCalibrationView } from '../../core/view/calibrationView';
import { buildSolveRatesView } from '../../core/view/solveRatesView';
import type { SolveBand } from '../../core/solver/difficulty';
import { MIXED_SUCCESS } from '../../core/solver/difficulty';
import { specStats } from '../../core/specs/stats';
import { jsonBytes } from '../../core/view/text';
import { MAX_MESSAGE_BYTES, WebviewChannel } from '../webviewChannel';
import type { CalibrationView, SolveRatesView, CurationPanelModel, CurationRequestMap, CurationWebviewToHost, HostToCurationWebview, ReviewActResult, SpecStatsView, StatsViewModel } from '../../protocol/messages';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import { validateCurationMessage } from '../../protocol/validate';
import { DisposableStore } from '../disposables';
import type { HandlerTable } from '../../protocol/messages';
import type { PageWatchdog } from '../pageWatchdog';
import { panelWatchdog } from '../panelWatchdog';
import { CMD } from '../commandIds';
import { buildWebviewHtml, localResourceRootPaths, makeNonce } from '../webviewHtml';
import { WebviewAssets } from '../webviewAssets';
import type { CuratorName } from './reviewActions';
import { errorText } from '../../core/errorText';

export const STATS_PANEL_TYPE = 'specweave.stats';
export const ADJUDICATION_PANEL_TYPE = 'specweave.adjudication';
type Kind = 'stats' | 'adjudication';

/** Rows of the adjudication list at most; the list is also cut to fit the channel's size cap. */const MAX_ROWS = 500;

export interface CurationPanelsDeps {
  extensionUri: vscode.Uri;
  store(): CurationStore | undefined;
  curator(): CuratorName;
  log: vscode.LogOutputChannel;
  openTask(taskId: string): void;
  /** Records an adjudication (through the same path as every other review act). */
  adjudicate(taskId: string, payload: AdjudicatePayload): Promise<ReviewActResult>;
  /** The solve-rate band of the funnel (`specweave.difficulty.band`) and why the setting was not used, if so. */
  band?: { readonly band: SolveBand; readonly problem?: string | undefined };
}

interface Entry {
  kind: Kind;
  panel: vscode.WebviewPanel;
  ready: boolean;
  showSettled: boolean;
  store: DisposableStore;
  /** Reloads a page that never says `ready` (a webview that failed to start). */
  watchdog: PageWatchdog;
  /** The host's one webview channel (validation, handler table, size-capped replies, the `ready` handshake). */
  channel: WebviewChannel<CurationRequestMap, CurationWebviewToHost, HostToCurationWebview>;
}

export class CurationPanels implements vscode.Disposable {
  private readonly entries = new Map<Kind, Entry>();
  private readonly assets: WebviewAssets;
  private timer: NodeJS.Timeout | undefined;
  /** Time the last statistics took to compute, in milliseconds (tests and the status line read it). */
  lastStatsMs = 0;
  /** How many models were posted, per kind (tests wait on it). */
  readonly posted: Record<Kind, number> = { stats: 0, adjudication: 0 };

  constructor(private readonly d: CurationPanelsDeps) {
    this.assets = new WebviewAssets(path.join(d.extensionUri.fsPath, 'dist'));
  }

  /** Opens (or reveals) a panel. */
  show(kind: Kind): vscode.WebviewPanel {
    const existing = this.entries.get(kind);
    if (existing) {
      existing.panel.reveal(undefined, false);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(kind === 'stats' ? STATS_PANEL_TYPE : ADJUDICATION_PANEL_TYPE, title(kind), vscode.ViewColumn.Active, this.options());
    this.attach(kind, panel);
    return panel;
  }

  isOpen(kind: Kind): boolean {
    return this.entries.has(kind);
  }

  /** Where a panel's page load stands (for the in-host tests' messages when a handshake is late). */
  loadState(kind: Kind): { open: boolean; visible?: boolean; ready?: boolean; reloads?: number } {
    const e = this.entries.get(kind);
    if (!e) return { open: false };
    return { open: true, visible: e.panel.visible, ready: e.ready, reloads: e.watchdog.totalReloads };
  }

  /** Restores a panel after a window reload. */
  restore(kind: Kind, panel: vscode.WebviewPanel): void {
    panel.webview.options = this.options();
    this.attach(kind, panel);
  }

  /** The review log changed: refresh the open panels, coalescing bursts of events. */
  refresh(delayMs = 250): void {
    if (this.entries.size === 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      for (const e of this.entries.values()) this.post(e, 'update');
    }, delayMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const e of [...this.entries.values()]) e.panel.dispose();
  }

  /** The model a panel shows now (exposed for the in-host tests). */
  model(kind: Kind, showSettled = false): CurationPanelModel {
    const store = this.d.store();
    const dataset = store?.dataset.manifest.name ?? '';
    if (kind === 'stats') {
      if (!store) return { view: 'stats', stats: emptyStats('No dataset is open (or it is still loading).') };
      const t0 = performance.now();
      try {
        const s = store.stats();
        // The spec figures on their own: if they fail, the curation figures still show (the section says why not).
        let specs: { specs: SpecStatsView } | { error: string };
        try {
          specs = { specs: buildSpecStatsView(specStats({ tasks: store.dataset.tasks, state: store.state, verdicts: store.verdicts(), policy: store.policy })) };
        } catch (e) {
          specs = { error: `The spec statistics could not be computed: ${errorText(e)}` };
        }
        // The agent's calibration likewise: left out when it fails (its section says it is not available).
        let calibration: { calibration?: CalibrationView } = {};
        try {
          calibration = { calibration: buildCalibrationView(store.calibration()) };
        } catch {
          calibration = {};
        }
        // The solve rates likewise: their section says they are not available when they fail.
        let solveRates: { solveRates?: SolveRatesView } = {};
        try {
          solveRates = { solveRates: buildSolveRatesView(store.datasetDifficulty(this.d.band?.band ?? MIXED_SUCCESS), this.d.band?.problem) };
        } catch (e) {
          this.d.log.warn(`the solve rates could not be computed: ${errorText(e)}`);
        }
        this.lastStatsMs = performance.now() - t0;
        return { view: 'stats', stats: { ...buildStatsView(s, { dataset, computedAt: new Date().toISOString(), computeMs: this.lastStatsMs }), ...specs, ...calibration, ...solveRates } };
      } catch (e) {
        return { view: 'stats', stats: emptyStats(`The statistics could not be computed: ${errorText(e)}`) };
      }
    }
    const c = this.d.curator();
    const base = { protocol: PROTOCOL_VERSION, dataset, policy: store?.policy ?? 'adjudicate', showSettled, ...(c.ok ? { viewer: c.name } : { curatorProblem: c.message }) };
    if (!store) return { view: 'adjudication', adjudication: { ...base, items: [], total: { open: 0, settled: 0 }, error: 'No dataset is open (or it is still loading).' } };
    try {
      const all = store.disagreements({ all: true });
      const tasks = new Map(store.dataset.tasks.map((t) => [t.id, t]));
      const views = buildDisagreementViews(all, tasks);
      const open = views.filter((v) => v.open).length;
      const items = (showSettled ? views : views.filter((v) => v.open)).slice(0, MAX_ROWS);
      return { view: 'adjudication', adjudication: { ...base, items, total: { open, settled: views.length - open } } };
    } catch (e) {
      return { view: 'adjudication', adjudication: { ...base, items: [], total: { open: 0, settled: 0 }, error: errorText(e) } };
    }
  }

  private options(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      retainContextWhenHidden: false,
      localResourceRoots: localResourceRootPaths(this.d.extensionUri.fsPath).map((p) => vscode.Uri.file(p)),
    };
  }

  private attach(kind: Kind, panel: vscode.WebviewPanel): void {
    const store = new DisposableStore();
    const watchdog = store.add(panelWatchdog(panel, () => title(kind), () => { panel.webview.html = this.html(panel.webview, kind); }, this.d.log));
    const entry: Entry = {
      kind,
      panel,
      ready: false,
      showSettled: false,
      store,
      watchdog,
      channel: new WebviewChannel<CurationRequestMap, CurationWebviewToHost, HostToCurationWebview>({
        label: () => title(kind),
        validate: validateCurationMessage,
        post: (m) => void panel.webview.postMessage(m),
        handlers: this.handlers(() => entry),
        ready: () => {
          entry.ready = true;
          this.post(entry, 'init');
        },
        watchdog,
        log: (line) => this.d.log.warn(line),
      }),
    };
    this.entries.set(kind, entry);
    panel.iconPath = vscode.Uri.joinPath(this.d.extensionUri, 'media', 'specweave.svg');
    store.add(panel.webview.onDidReceiveMessage((m: unknown) => void entry.channel.receive(m)));
    store.add(
      panel.onDidDispose(() => {
        store.dispose();
        entry.channel.close();
        if (this.entries.get(kind) === entry) this.entries.delete(kind);
      }),
    );
    // Hidden panels drop their page (no retained context); coming back, the page says `ready` again.
    panel.webview.html = this.html(panel.webview, kind);
    watchdog.arm();
  }

  private html(webview: vscode.Webview, kind: Kind): string {
    const toUri = (file: string) => webview.asWebviewUri(vscode.Uri.file(file)).toString();
    return buildWebviewHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      script: this.assets.script('stats.js', toUri),
      styles: this.assets.styles(['stats.css'], toUri),
      title: title(kind),
      taskId: kind,
    });
  }


  /** The typed handler table of a panel's requests. */
  private handlers(entry: () => Entry): HandlerTable<CurationRequestMap> {
    return {
      openTask: async (p) => {
        this.d.openTask(p.taskId);
        return { opened: true };
      },
      filterCandidates: async (p) => {
        const filtered = await vscode.commands.executeCommand<boolean>(CMD.filterBy, {
          ...(p.statuses ? { statuses: p.statuses } : {}),
          ...(p.categories ? { categories: p.categories } : {}),
          ...(p.models ? { models: p.models } : {}),
          ...(p.mixedSuccess ? { mixedSuccess: true } : {}),
        });
        return { filtered: filtered === true };
      },
      showSettled: async (p) => {
        const e = entry();
        e.showSettled = p.show;
        this.post(e, 'update');
        return { shown: p.show };
      },
      adjudicate: (p) => {
        const payload: AdjudicatePayload =
          p.target === 'label'
            ? { target: 'label', attempt: p.attempt, spec: p.spec, verdict: p.verdict, ...(p.note ? { note: p.note } : {}) }
            : { target: 'score', field: p.field as ScoreField, value: p.value as number | Difficulty | EnvDefect[], ...(p.note ? { note: p.note } : {}) };
        return this.d.adjudicate(p.taskId, payload);
      },
    };
  }

  private post(e: Entry, type: 'init' | 'update'): void {
    if (!e.ready) return;
    let model = this.model(e.kind, e.showSettled);
    let msg: HostToCurationWebview = { type, model };
    // A huge list of disagreements is cut rather than dropped.
    while (jsonBytes(msg) > MAX_MESSAGE_BYTES && model.view === 'adjudication' && model.adjudication.items.length > 10) {
      model = { view: 'adjudication', adjudication: { ...model.adjudication, items: model.adjudication.items.slice(0, Math.floor(model.adjudication.items.length / 2)) } };
      msg = { type, model };
    }
    this.posted[e.kind]++;
    this.send(e, msg);
  }

  private send(e: Entry, msg: HostToCurationWebview): void {
    e.channel.send(msg);
  }
}

function title(kind: Kind): string {
  return kind === 'stats' ? 'Curation Statistics' : 'Adjudication';
}

function emptyStats(error: string): StatsViewModel {
  return {
    protocol: PROTOCOL_VERSION,
    dataset: '',
    policy: 'adjudicate',
    funnel: { imported: 0, reviewed: 0, approved: 0, rejected: 0 },
    byStatus: {},
    breakdown: { reviewed: 0, falsePositivesOnly: 0, falseNegativesOnly: 0, both: 0, none: 0 },
    byCategory: [],
    bySolver: [],
    agreement: [],
    throughput: [],
    curators: [],
    disagreements: { open: 0, settled: 0 },
    suggestions: { open: 0, confirmed: 0, dismissed: 0 },
    log: { events: 0, undone: 0, issues: 0 },
    computedAt: new Date().toISOString(),
    computeMs: 0,
    error,
  };
}
