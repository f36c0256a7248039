// "SpecWeave: Search Trajectories in Dataset": a quick pick whose typed text searches every attempt's trajectory of
// the open dataset (src/app/datasetSearch.ts, in a worker thread: the extension host's thread only takes batches),
// hits listed under a separator per task and attempt; choosing one opens the task at that step. Deep links to a task,
// attempt and step (`vscode://specweave.specweave-curator/open?task=…&attempt=…&step=…`) open the same way; links to
// a hunk or a log line (core/view/links.ts) open the task and that place in an editor.
import * as vscode from 'vscode';
import { notify } from './notify';
import { DatasetSearcher, groupHits, trajectoryFiles, type DatasetHit, type DatasetSearchOutcome, type RunningSearch } from '../app/datasetSearch';
import { errorText } from '../core/errorText';
import { linkQuery, parseLinkQuery } from '../core/view/links';
import type { EvidenceLinkView } from '../protocol/messages';
import { CMD } from './commandIds';
import type { DatasetService } from './datasetService';
import type { DisposableStore } from './disposables';
import { commandRegistrar } from './reportingCommand';
import type { TaskPanels } from './taskPanels';

export interface DatasetSearchDeps {
  dataset: DatasetService;
  panels: TaskPanels;
  log: vscode.LogOutputChannel;
  /** The extension's id (publisher.name), for the links it makes. */
  extensionId: string;
  /** Opens a hunk or a log line of a task in an editor (curation/evidence.ts). */
  openEvidence(taskId: string, link: EvidenceLinkView): Promise<{ opened: boolean; message?: string }>;
}

/** Most hit rows in the pick: beyond them the title counts the rest. */
const MAX_ROWS = 2000;
const TYPING_PAUSE_MS = 150;
const REPAINT_MS = 100;

interface HitItem extends vscode.QuickPickItem {
  hit?: DatasetHit;
}

/** Untrusted text for a quick pick label: one line, no `$(icon)` syntax, at most `max` characters around the match. */
function pickText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\$\(/g, '$\u200b(');
}

function hitLabel(h: DatasetHit): string {
  const before = h.excerpt.slice(Math.max(0, h.excerptStart - 30), h.excerptStart);
  const match = h.excerpt.slice(h.excerptStart, h.excerptStart + Math.min(h.length, 80));
  const after = h.excerpt.slice(h.excerptStart + h.length, h.excerptStart + h.length + 50);
  return pickText(`${before.length < h.excerptStart ? '\u2026' : ''}${before}\u00ab${match}\u00bb${after}`);
}

function hitWhere(h: DatasetHit): string {
  return `step ${h.step} \u00b7 ${h.kind}${h.toolCall !== undefined ? ` \u00b7 tool call ${h.toolCall + 1} ${h.field}` : ''}`;
}

/** The rows of the pick: a separator per task and attempt, then its hits. */
export function pickRows(hits: readonly DatasetHit[], max = MAX_ROWS): HitItem[] {
  const rows: HitItem[] = [];
  for (const t of groupHits(hits.slice(0, max))) {
    for (const a of t.attempts) {
      rows.push({ label: pickText(`${t.taskId} \u203a ${a.attempt}`), kind: vscode.QuickPickItemKind.Separator });
      for (const h of a.hits) {
        // Where first: a long excerpt would cut off a description at the row's end.
        rows.push({ label: `${hitWhere(h)}: ${hitLabel(h)}`, alwaysShow: true, hit: h });
      }
    }
  }
  return rows;
}

export interface DatasetSearchResult {
  outcome: DatasetSearchOutcome;
  groups: Array<{ taskId: string; attempts: Array<{ attempt: string; steps: number[] }> }>;
}

/** A link that opens a task (and an attempt's step) in this extension: `vscode://<id>/open?task=…`. */
export function taskLink(extensionId: string, taskId: string, at?: { attempt: string; step?: number }): string {
  return `${vscode.env.uriScheme}://${extensionId}/open?${linkQuery({ task: taskId, ...(at ? { attempt: at.attempt, ...(at.step !== undefined ? { step: at.step } : {}) } : {}) })}`;
}

export function registerDatasetSearch(d: DatasetSearchDeps, store: DisposableStore): void {
  const reg = commandRegistrar(store, d.log);
  let searcher: DatasetSearcher | undefined;
  const getSearcher = (): DatasetSearcher => (searcher ??= new DatasetSearcher());
  store.add({ dispose: () => searcher?.dispose() });
  // Another dataset (or none): what the worker prepared is of no use. Any other change (a task reloaded, a label, a
  // run) keeps it: the worker reads again only a trajectory whose size or modification time changed.
  store.add(d.dataset.onDidChange((c) => {
    if (c.kind === 'opened' || c.kind === 'closed') searcher?.forget();
  }));

  const files = () => {
    const root = d.dataset.root;
    if (!root) throw new Error('open a dataset first');
    return trajectoryFiles(root, d.dataset.tasks);
  };

  /** Opens a task at a step of an attempt; false (with a message) when the dataset has no such task or attempt. */
  const openAt = (taskId: string, attempt: string | undefined, step: number | undefined): boolean => {
    const task = d.dataset.task(taskId);
    if (!task) {
      void notify.warn(`SpecWeave: the open dataset has no task ${pickText(taskId).slice(0, 200)}.`);
      return false;
    }
    if (attempt !== undefined && !task.attempts.some((a) => a.id === attempt)) {
      void notify.warn(`SpecWeave: task ${pickText(taskId).slice(0, 200)} has no attempt ${pickText(attempt).slice(0, 200)}.`);
      return false;
    }
    if (attempt !== undefined && step !== undefined) d.panels.revealStep(taskId, attempt, step);
    else d.panels.open(taskId);
    return true;
  };

  // With a query (tests, other commands): searches without the pick and returns the groups; without: the pick.
  reg(CMD.searchDataset, async (arg: unknown): Promise<DatasetSearchResult | undefined> => {
    if (typeof arg === 'object' && arg !== null && typeof (arg as { pattern?: unknown }).pattern === 'string') {
      const q = arg as { pattern: string; regex?: boolean; caseSensitive?: boolean };
      const { files: list, refused } = files();
      const hits: DatasetHit[] = [];
      const outcome = await getSearcher().search({ pattern: q.pattern, regex: q.regex === true, caseSensitive: q.caseSensitive === true }, list, { onHits: (h) => hits.push(...h) }, refused).done;
      return { outcome, groups: groupHits(hits).map((t) => ({ taskId: t.taskId, attempts: t.attempts.map((a) => ({ attempt: a.attempt, steps: a.hits.map((h) => h.step) })) })) };
    }
    if (!d.dataset.root) {
      void notify.warn('SpecWeave: open a dataset first.');
      return undefined;
    }
    showPick();
    return undefined;
  });

  reg(CMD.openTaskAt, (taskId: unknown, attempt: unknown, step: unknown) => {
    if (typeof taskId !== 'string') return false;
    return openAt(taskId, typeof attempt === 'string' ? attempt : undefined, Number.isInteger(step) ? (step as number) : undefined);
  });

  reg(CMD.copyTaskLink, async (taskId: unknown, attempt: unknown, step: unknown) => {
    const id = typeof taskId === 'string' ? taskId : d.panels.active?.taskId;
    if (!id) {
      void notify.info('Open a task first: this command copies a link to it.');
      return undefined;
    }
    const link = taskLink(d.extensionId, id, typeof attempt === 'string' ? { attempt, ...(Number.isInteger(step) ? { step: step as number } : {}) } : undefined);
    await vscode.env.clipboard.writeText(link);
    void vscode.window.setStatusBarMessage('SpecWeave: link copied', 3000);
    return link;
  });

  store.add(
    vscode.window.registerUriHandler({
      handleUri(uri: vscode.Uri): void {
        if (uri.path !== '/open') {
          void notify.warn(`SpecWeave: links open tasks (…/open?task=ID); this one asks for ${pickText(uri.path).slice(0, 100)}.`);
          return;
        }
        const parsed = parseLinkQuery(uri.query);
        if (!parsed.ok) {
          void notify.warn(`SpecWeave: ${pickText(parsed.message)}.`);
          return;
        }
        if (!d.dataset.root) {
          void notify.warn('SpecWeave: open the dataset the link is from first, then open the link again.');
          return;
        }
        const t = parsed.target;
        if ('evidence' in t) {
          if (!openAt(t.task, undefined, undefined)) return;
          void d.openEvidence(t.task, t.evidence).then(
            (r) => {
              if (!r.opened) void notify.warn(`SpecWeave: ${pickText(r.message ?? 'the link cannot be opened')}`);
            },
            (e: unknown) => void notify.warn(`SpecWeave: the link cannot be opened: ${pickText(errorText(e))}`),
          );
          return;
        }
        openAt(t.task, t.attempt, t.step);
      },
    }),
  );

  function showPick(): void {
    getSearcher().prepare();
    const qp = vscode.window.createQuickPick<HitItem>();
    const opt = { regex: false, caseSensitive: false };
    const buttons = (): void => {
      qp.buttons = [
        { iconPath: new vscode.ThemeIcon('regex'), tooltip: opt.regex ? 'Regular expression (on)' : 'Regular expression (off)' },
        { iconPath: new vscode.ThemeIcon('case-sensitive'), tooltip: opt.caseSensitive ? 'Match case (on)' : 'Match case (off)' },
      ];
    };
    qp.title = 'Search the trajectories of every task';
    qp.placeholder = 'Text to find in every attempt\u2019s trajectory (buttons: regular expression, match case)';
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    buttons();
    let running: RunningSearch | undefined;
    let timer: NodeJS.Timeout | undefined;
    let paint: NodeJS.Timeout | undefined;
    let hits: DatasetHit[] = [];
    let progress = { scanned: 0, files: 0, total: 0 };
    const repaint = (final?: DatasetSearchOutcome): void => {
      clearTimeout(paint);
      paint = undefined;
      qp.items = pickRows(hits);
      const tasks = new Set(hits.map((h) => h.taskId)).size;
      const shown = Math.min(hits.length, MAX_ROWS);
      const total = final?.total ?? progress.total;
      qp.title = `${total} match${total === 1 ? '' : 'es'}${shown < total ? ` (${shown} listed)` : ''} in ${tasks} task${tasks === 1 ? '' : 's'} \u00b7 ${final?.scanned ?? progress.scanned} of ${final?.files ?? progress.files} trajectories${final ? (final.cancelled ? ' \u00b7 stopped' : '') : '\u2026'}`;
    };
    const start = (): void => {
      clearTimeout(timer);
      running?.cancel();
      running = undefined;
      hits = [];
      const pattern = qp.value;
      if (pattern === '') {
        qp.items = [];
        qp.busy = false;
        qp.title = 'Search the trajectories of every task';
        return;
      }
      let list;
      try {
        list = files();
        running = getSearcher().search({ pattern, ...opt }, list.files, {
          onHits: (h, p) => {
            if (running !== mine) return;
            hits.push(...h);
            progress = p;
            paint ??= setTimeout(() => repaint(), REPAINT_MS);
          },
        }, list.refused);
      } catch (e) {
        qp.items = [];
        qp.busy = false;
        qp.title = pickText(errorText(e)).slice(0, 200);
        return;
      }
      const mine = running;
      progress = { scanned: 0, files: list.files.length, total: 0 };
      qp.busy = true;
      void mine.done.then((o) => {
        if (running !== mine) return;
        qp.busy = false;
        repaint(o);
        const problems = [...o.unreadable, ...o.refused];
        for (const p of problems.slice(0, 20)) d.log.warn(`dataset search: ${p.label || 'search'}: ${p.error}`);
      });
    };
    qp.onDidChangeValue(() => {
      clearTimeout(timer);
      timer = setTimeout(start, TYPING_PAUSE_MS);
    });
    qp.onDidTriggerButton((b) => {
      if (qp.buttons.indexOf(b) === 0) opt.regex = !opt.regex;
      else opt.caseSensitive = !opt.caseSensitive;
      buttons();
      start();
    });
    qp.onDidAccept(() => {
      const h = qp.selectedItems[0]?.hit;
      if (!h) return;
      qp.hide();
      openAt(h.taskId, h.attempt, h.step);
    });
    qp.onDidHide(() => {
      clearTimeout(timer);
      clearTimeout(paint);
      running?.cancel();
      qp.dispose();
    });
    qp.show();
  }
}
