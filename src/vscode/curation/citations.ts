// Citing evidence where it lives: gutter comments (VS Code's Comments API) on the lines of a patch's hunks (a
// column's version of a file in a diff editor, one file's part of a patch, a whole patch file of the dataset) and of
// a verifier run's log (the composed run log, a stored stream file). "Cite" on a new comment gives its link (a
// diff hunk or a log line) and the curator's words to the task page's focused pair (TaskPanels.cite): the draft the
// curator then records with a verdict. Recorded labels' links are shown back on those lines as read-only threads.
//
// Owns: the comment controller and its threads. The drafts stay the page's (webview/src/views/reviewController.ts);
// the labels the review log's. Where a line points is core/view/citeAnchors.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { notify } from '../notify';
import { readDatasetText } from '../../adapters/fs/datasetLoader';
import type { CandidateTask } from '../../core/model';
import { GOLD_PROBE } from '../../core/model';
import { parsePatch } from '../../core/patch';
import { findFile } from '../../core/view/patchFiles';
import type { Anchor, LineRange, PatchOwner } from '../../core/view/citeAnchors';
import { anchorAt, anchorOf, filePatchAnchors, patchAnchors, runLogLineOf, runLogLinkAt, runLogRanges, storedLogLineOf, storedLogLinkAt, storedLogOf, versionAnchors } from '../../core/view/citeAnchors';
import { linkQuery } from '../../core/view/links';
import type { LinkTarget } from '../../core/view/links';
import type { EvidenceLinkView, LabelView, ReviewView } from '../../protocol/messages';
import { CURATION_CMD, DOC_SCHEME } from '../commandIds';
import { parseDocUri, patchFileOf } from '../diffDocuments';
import type { DisposableStore } from '../disposables';
import { commandRegistrar } from '../reportingCommand';
import type { CiteOutcome } from '../taskSession';
import { RUN_LOG_SCHEME, parseRunLogUri } from '../verifier/runLogDocuments';
import type { RunLogDocuments } from '../verifier/runLogDocuments';
import { errorText } from '../../core/errorText';
import { evidenceText } from '../../protocol/evidenceText';

export const CITATION_CONTROLLER = 'specweave.citations';

/** Where in one document a citation can be made, and what its lines link to. */
interface Surface {
  taskId: string;
  ranges: LineRange[];
  linkAt(line: number): EvidenceLinkView | undefined;
  rangeOf(link: EvidenceLinkView): LineRange | undefined;
}

export interface CitationDeps {
  dataset: {
    readonly root: string | undefined;
    readonly tasks: readonly CandidateTask[];
    task(id: string): CandidateTask | undefined;
    onDidChange(fn: () => void): vscode.Disposable;
  };
  runLogs: Pick<RunLogDocuments, 'compose'>;
  /** Gives a citation to the task page's focused pair. */
  cite(taskId: string, link: EvidenceLinkView, note?: string): Promise<CiteOutcome>;
  /** The review part of the task's view model (labels with their links), as the viewer sees it. */
  review(taskId: string): ReviewView | undefined;
  /** Fires with the tasks whose review changed (undefined: all). */
  onReviewChange(fn: (taskIds: readonly string[] | undefined) => void): vscode.Disposable;
  extensionId: string;
  log: vscode.LogOutputChannel;
}

/** One thread's words, for tests and the output: its first line and each comment's body as plain text. */
export interface ThreadInfo {
  line: number;
  label: string;
  kind: 'recorded' | 'draft' | 'failed';
  bodies: string[];
}

type Tracked = { thread: vscode.CommentThread; kind: ThreadInfo['kind']; bodies: string[]; key?: string };

const DRAFT = 'specweave.draft';
const RECORDED = 'specweave.recorded';

export class Citations implements vscode.Disposable {
  readonly controller: vscode.CommentController;
  private readonly threads = new Map<string, Tracked[]>();
  /** What the recorded threads of each document were made from, so an unchanged document keeps its threads. */
  private readonly signatures = new Map<string, string>();
  /** Patch files of the dataset by path relative to its root: whose patch each is. */
  private patchFiles: Map<string, { taskId: string; owner: PatchOwner }> | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly d: CitationDeps) {
    this.controller = vscode.comments.createCommentController(CITATION_CONTROLLER, 'SpecWeave Citations');
    this.controller.options = { prompt: 'Cite this line as evidence…', placeHolder: 'Why it is evidence (added to the note of the focused pair); then Cite' };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (doc) => this.surface(doc)?.ranges.map((r) => new vscode.Range(r.from, 0, r.to, 0)) ?? [],
    };
    this.subs.push(
      d.dataset.onDidChange(() => {
        this.patchFiles = undefined;
        this.scheduleRefresh();
      }),
      d.onReviewChange(() => this.scheduleRefresh()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.scheduleRefresh()),
      vscode.workspace.onDidCloseTextDocument((doc) => this.drop(doc.uri.toString())),
    );
    this.scheduleRefresh();
  }

  register(store: DisposableStore): void {
    const reg = commandRegistrar(store, this.d.log);
    reg(CURATION_CMD.cite, (reply: unknown) => this.citeReply(reply as vscode.CommentReply));
    reg(CURATION_CMD.copyLineLink, (arg: unknown) => this.copyLink(arg));
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const s of this.subs) s.dispose();
    for (const k of [...this.threads.keys()]) this.drop(k);
    this.controller.dispose();
  }

  /** The threads on a document now (tests; the output's account of a citation). */
  threadsOf(uri: vscode.Uri): ThreadInfo[] {
    return (this.threads.get(uri.toString()) ?? []).map((t) => ({ line: t.thread.range?.start.line ?? 0, label: t.thread.label ?? '', kind: t.kind, bodies: t.bodies }));
  }

  /** Shows the recorded citations on every visible document (and those that already have threads) again. */
  async refresh(): Promise<void> {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    const docs = new Map<string, vscode.TextDocument>();
    for (const e of vscode.window.visibleTextEditors) docs.set(e.document.uri.toString(), e.document);
    for (const doc of vscode.workspace.textDocuments) if (this.threads.has(doc.uri.toString())) docs.set(doc.uri.toString(), doc);
    for (const doc of docs.values()) {
      try {
        this.showRecorded(doc);
      } catch (e) {
        this.d.log.warn(`citations: cannot show the recorded citations of ${doc.uri.toString()}: ${errorText(e)}`);
      }
    }
  }

  /** The evidence link a line of a document makes, with its task, or undefined when the line cites nothing. */
  linkAt(doc: vscode.TextDocument, line: number): { taskId: string; link: EvidenceLinkView } | undefined {
    const s = this.surface(doc);
    const link = s?.linkAt(line);
    return s && link ? { taskId: s.taskId, link } : undefined;
  }

  // ---- commands -------------------------------------------------------------------------------------------------

  private async citeReply(reply: vscode.CommentReply | undefined): Promise<CiteOutcome | undefined> {
    const thread = reply?.thread;
    if (!thread) return undefined;
    const words = (reply.text ?? '').trim();
    const key = thread.uri.toString();
    const doc = await vscode.workspace.openTextDocument(thread.uri);
    const line = thread.range?.start.line ?? 0;
    const at = this.linkAt(doc, line);
    let out: CiteOutcome;
    if (!at) out = { ok: false, message: 'This line is not part of a hunk or of a run log stream: there is nothing here to cite.' };
    else {
      try {
        out = await this.d.cite(at.taskId, at.link, words || undefined);
      } catch (e) {
        out = { ok: false, message: `The citation did not reach the task view: ${errorText(e)}` };
      }
    }
    // The curator's words stay in the thread whatever happened, so nothing typed is lost.
    const bodies = [...this.trackedOf(key, thread).bodies, `${words ? `${words}\n\n` : ''}${out.message}`];
    thread.comments = bodies.map((b, i) => comment(b, i === bodies.length - 1 && !out.ok ? 'Not cited' : 'You'));
    thread.label = out.ok && out.pair ? `Cited on ${out.pair.attempt} × ${out.pair.spec}: record it with a verdict` : 'Not cited';
    thread.contextValue = out.ok ? DRAFT : 'specweave.failed';
    thread.canReply = !out.ok;
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    const t = this.trackedOf(key, thread);
    t.kind = out.ok ? 'draft' : 'failed';
    t.bodies = bodies;
    if (out.ok && at && out.pair) t.key = citationKey(out.pair.attempt, out.pair.spec, at.link);
    this.d.log.info(`citation on ${thread.uri.toString()} line ${line + 1}: ${out.message}`);
    return out;
  }

  /** Copies a deep link to the line a thread is on, or the active editor's line. */
  private async copyLink(arg: unknown): Promise<string | undefined> {
    let doc: vscode.TextDocument | undefined;
    let line: number;
    if (isThread(arg)) {
      doc = await vscode.workspace.openTextDocument(arg.uri);
      line = arg.range?.start.line ?? 0;
    } else {
      const e = vscode.window.activeTextEditor;
      doc = e?.document;
      line = e?.selection.active.line ?? 0;
    }
    const at = doc && this.linkAt(doc, line);
    if (!at || (at.link.kind !== 'diff_hunk' && at.link.kind !== 'log_line')) {
      void notify.info('Put the cursor on a line of a hunk or of a run log: that is what a link here points at.');
      return undefined;
    }
    const target: LinkTarget = { task: at.taskId, evidence: at.link };
    const link = `${vscode.env.uriScheme}://${this.d.extensionId}/open?${linkQuery(target)}`;
    await vscode.env.clipboard.writeText(link);
    void vscode.window.setStatusBarMessage(`SpecWeave: link to ${evidenceText(at.link)} copied`, 3000);
    return link;
  }

  // ---- threads --------------------------------------------------------------------------------------------------

  private trackedOf(key: string, thread: vscode.CommentThread): Tracked {
    let list = this.threads.get(key);
    if (!list) this.threads.set(key, (list = []));
    let t = list.find((x) => x.thread === thread);
    if (!t) list.push((t = { thread, kind: 'failed', bodies: [] }));
    return t;
  }

  private drop(key: string): void {
    for (const t of this.threads.get(key) ?? []) t.thread.dispose();
    this.threads.delete(key);
    this.signatures.delete(key);
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 50);
  }

  /** Replaces the recorded threads of a document with what the review log says now; a draft now recorded goes. */
  private showRecorded(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const s = this.surface(doc);
    const review = s ? this.d.review(s.taskId) : undefined;
    const rangeOf = (link: EvidenceLinkView): LineRange | undefined => s?.rangeOf(link);
    const byRange = new Map<string, { range: LineRange; labels: Array<{ label: LabelView; attempt: string; spec: string; outcome: string }> }>();
    const recordedKeys = new Set<string>();
    for (const cell of review?.cells ?? []) {
      const labels = [...(cell.mine ? [cell.mine] : []), ...cell.others];
      for (const label of labels) {
        for (const link of label.evidence) {
          const range = rangeOf(link);
          if (!range) continue;
          if (label === cell.mine) recordedKeys.add(citationKey(cell.attempt, cell.spec, link));
          const rk = `${range.from}:${range.to}`;
          let g = byRange.get(rk);
          if (!g) byRange.set(rk, (g = { range, labels: [] }));
          g.labels.push({ label, attempt: cell.attempt, spec: cell.spec, outcome: cell.outcome });
        }
      }
    }
    // Unchanged since the last time (an editor was merely shown again): the threads stay as the curator left them.
    const signature = JSON.stringify([...byRange.values()].map((g) => [g.range, g.labels.map((l) => [l.label.event, l.attempt, l.spec, l.outcome])]));
    const current = this.threads.get(key) ?? [];
    if (this.signatures.get(key) === signature && !current.some((t) => t.kind === 'draft' && t.key !== undefined && recordedKeys.has(t.key))) return;
    this.signatures.set(key, signature);
    const keep: Tracked[] = [];
    for (const t of current) {
      if (t.kind === 'recorded') t.thread.dispose();
      else keep.push(t);
    }
    const out = keep.filter((t) => {
      if (t.kind === 'draft' && t.key !== undefined && recordedKeys.has(t.key)) {
        t.thread.dispose();
        return false;
      }
      return true;
    });
    for (const g of byRange.values()) {
      const bodies = g.labels.map((l) => labelText(l.label, l.attempt, l.spec, l.outcome));
      // On the first line of what it cites: a thread shows below its range's last line, which for a long hunk is
      // off screen from where the hunk starts.
      const thread = this.controller.createCommentThread(doc.uri, new vscode.Range(g.range.from, 0, g.range.from, 0), bodies.map((b, i) => comment(b, (g.labels[i] as { label: LabelView }).label.curator)));
      thread.label = `Cited by ${g.labels.length} label${g.labels.length === 1 ? '' : 's'}`;
      thread.canReply = false;
      thread.contextValue = RECORDED;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      out.push({ thread, kind: 'recorded', bodies });
    }
    if (out.length > 0) this.threads.set(key, out);
    else this.threads.delete(key);
  }

  // ---- where a document's lines point ---------------------------------------------------------------------------

  private surface(doc: vscode.TextDocument): Surface | undefined {
    try {
      if (doc.uri.scheme === DOC_SCHEME) return this.docSurface(doc.uri);
      if (doc.uri.scheme === RUN_LOG_SCHEME) return this.runLogSurface(doc.uri);
      if (doc.uri.scheme === 'file') return this.fileSurface(doc);
    } catch (e) {
      this.d.log.warn(`citations: ${doc.uri.toString()}: ${errorText(e)}`);
    }
    return undefined;
  }

  private docSurface(uri: vscode.Uri): Surface | undefined {
    const ref = parseDocUri(uri);
    const root = this.d.dataset.root;
    if (!ref || ref.kind === 'base' || !root) return undefined;
    const task = this.d.dataset.task(ref.taskId);
    const rel = task && patchFileOf(task, ref.column);
    if (!task || !rel) return undefined;
    const files = parsePatch(readDatasetText(root, rel), rel).files;
    const fp = files[findFile(files, ref.path, task.environment.workdir)];
    if (!fp) return undefined;
    const owner: PatchOwner = ref.column === GOLD_PROBE ? { patch: 'gold' } : { patch: 'attempt', attempt: ref.column };
    return anchored(task.id, ref.kind === 'version' ? versionAnchors(fp, owner) : filePatchAnchors(fp, owner));
  }

  private runLogSurface(uri: vscode.Uri): Surface | undefined {
    const id = parseRunLogUri(uri);
    if (!id) return undefined;
    const doc = this.d.runLogs.compose(uri);
    const r = runLogRanges(doc);
    return {
      taskId: id.taskId,
      ranges: [r.stdout, r.stderr].filter((x): x is LineRange => x !== undefined),
      linkAt: (line) => runLogLinkAt(doc, id.runId, line),
      rangeOf: (link) => {
        const at = runLogLineOf(doc, id.runId, link);
        return at === undefined ? undefined : { from: at, to: at };
      },
    };
  }

  private fileSurface(doc: vscode.TextDocument): Surface | undefined {
    const root = this.d.dataset.root;
    if (!root) return undefined;
    const rel = path.relative(root, doc.uri.fsPath).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    const log = storedLogOf(rel);
    if (log) {
      if (!this.d.dataset.task(log.taskId) || doc.lineCount === 0) return undefined;
      return {
        taskId: log.taskId,
        ranges: [{ from: 0, to: Math.max(0, doc.lineCount - 1) }],
        linkAt: (line) => storedLogLinkAt(log, line),
        rangeOf: (link) => {
          const at = storedLogLineOf(log, link, doc.lineCount);
          return at === undefined ? undefined : { from: at, to: at };
        },
      };
    }
    const owner = this.patchFileMap().get(rel);
    return owner ? anchored(owner.taskId, patchAnchors(doc.getText(), owner.owner)) : undefined;
  }

  private patchFileMap(): Map<string, { taskId: string; owner: PatchOwner }> {
    if (this.patchFiles) return this.patchFiles;
    const m = new Map<string, { taskId: string; owner: PatchOwner }>();
    for (const t of this.d.dataset.tasks) {
      m.set(norm(t.files.testPatch), { taskId: t.id, owner: { patch: 'tests' } });
      if (t.files.goldPatch) m.set(norm(t.files.goldPatch), { taskId: t.id, owner: { patch: 'gold' } });
      for (const a of t.attempts) if (a.patchFile) m.set(norm(a.patchFile), { taskId: t.id, owner: { patch: 'attempt', attempt: a.id } });
    }
    this.patchFiles = m;
    return m;
  }
}

function anchored(taskId: string, anchors: Anchor[]): Surface {
  return {
    taskId,
    ranges: anchors.map((a) => a.range),
    linkAt: (line) => anchorAt(anchors, line)?.link,
    rangeOf: (link) => anchorOf(anchors, link)?.range,
  };
}

function norm(rel: string): string {
  return path.posix.normalize(rel.replace(/\\/g, '/')).replace(/^\.\//, '');
}

function citationKey(attempt: string, spec: string, link: EvidenceLinkView): string {
  return JSON.stringify([attempt, spec, link]);
}

const VERDICT_WORDS: Record<string, string> = { satisfied: 'satisfied', violated: 'violated', unsure: 'unsure' };
const OUTCOME_WORDS: Record<string, string> = { false_positive: 'false positive', false_negative: 'false negative', true_pass: 'true pass', true_fail: 'true fail' };

function labelText(l: LabelView, attempt: string, spec: string, outcome: string): string {
  const o = OUTCOME_WORDS[outcome];
  const head = `${VERDICT_WORDS[l.verdict] ?? l.verdict}${o ? ` (${o})` : ''} · ${attempt} × ${spec}${l.stale ? ' · stale: the spec changed since' : ''}`;
  const note = l.note ? `\n\n${l.note.length > 600 ? `${l.note.slice(0, 600)}…` : l.note}` : '';
  return head + note;
}

/** A comment whose body is shown as text: the curator's words and names are never read as Markdown or HTML. */
function comment(text: string, author: string): vscode.Comment {
  const body = new vscode.MarkdownString();
  body.appendText(text);
  body.isTrusted = false;
  body.supportHtml = false;
  return { body, mode: vscode.CommentMode.Preview, author: { name: author.slice(0, 100) } };
}

function isThread(v: unknown): v is vscode.CommentThread {
  return typeof v === 'object' && v !== null && 'uri' in v && (v as { uri: unknown }).uri instanceof vscode.Uri;
}
