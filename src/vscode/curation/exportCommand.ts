// "SpecWeave: Export Curated Set": the same files as `specweave export` (the store's plan, the curated-set writer),
// into a folder the curator picks, with a cancellable progress notification (files written so far of all). It writes files and runs no code, so it
// works in Restricted Mode too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { notify } from '../notify';
import { ExportError, writeCuratedSetAsync } from '../../adapters/fs/curatedSetWriter';
import type { CurationStore } from '../../app/curationStore';
import type { ExportFormat } from '../../core/review/exportSet';
import { EXPORT_FORMATS, EXPORT_MANIFEST } from '../../core/review/exportSet';
import { hasErrno, errorText } from '../../core/errorText';

export interface ExportArgs {
  /** Output folder; asked for when absent. */
  out?: string;
  format?: ExportFormat;
}

export interface ExportOutcome {
  ok: boolean;
  out?: string;
  format?: ExportFormat;
  tasks?: string[];
  files?: number;
  message: string;
}

const yieldToHost = () => new Promise<void>((r) => setImmediate(r));

function isEmptyOrExport(dir: string): boolean {
  try {
    const names = fs.readdirSync(dir);
    if (names.length === 0) return true;
    const m = JSON.parse(fs.readFileSync(path.join(dir, EXPORT_MANIFEST), 'utf8')) as { kind?: unknown };
    return m.kind === 'specweave-curated-set';
  } catch (e) {
    return hasErrno(e, 'ENOENT');
  }
}

async function ask(store: CurationStore, args: ExportArgs): Promise<{ out: string; format: ExportFormat } | undefined> {
  let format = args.format;
  if (!format) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'specweave', description: 'a SpecWeave dataset: task.json, request, tests, gold patch, provenance per task', format: 'specweave' as const },
        { label: 'swebench', description: 'tasks.jsonl in SWE-bench columns, plus provenance.json', format: 'swebench' as const },
      ],
      // A panel refreshing in the background (a live statistics update, a reloading webview) must not cancel the export.
      { title: 'Export Curated Set: format', placeHolder: 'Format of the curated set', ignoreFocusOut: true },
    );
    if (!pick) return undefined;
    format = pick.format;
  }
  let out = args.out;
  if (!out) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: 'Export Here',
      title: 'Export Curated Set: an empty folder (or an earlier export, which is replaced)',
      defaultUri: vscode.Uri.file(path.dirname(store.root)),
    });
    const dir = picked?.[0]?.fsPath;
    if (!dir) return undefined;
    out = dir;
    if (!isEmptyOrExport(dir)) {
      const sub = path.join(dir, `${store.dataset.manifest.name || 'dataset'}-curated-${format}`);
      const choice = await notify.warn(
        `${dir} is not empty and is not an earlier export. Export into ${path.basename(sub)} inside it instead?`,
        { modal: true },
        'Export Into Subfolder',
      );
      if (choice !== 'Export Into Subfolder') return undefined;
      out = sub;
    }
  }
  return { out, format };
}

/** Runs the export; returns what happened (also for the in-host tests). */
export async function exportCuratedSet(store: CurationStore | undefined, args: ExportArgs, log: vscode.LogOutputChannel): Promise<ExportOutcome> {
  if (!store) {
    void notify.warn('Open a dataset first: the curated set is made from its approved tasks.');
    return { ok: false, message: 'no dataset' };
  }
  if (args.format && !EXPORT_FORMATS.includes(args.format)) return { ok: false, message: `unknown format ${String(args.format)}` };
  const target = await ask(store, args);
  if (!target) return { ok: false, message: 'cancelled' };
  const { out, format } = target;
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Exporting the curated set (${format})`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          progress.report({ message: 'reading the approved tasks…' });
          await yieldToHost();
          store.refresh();
          const plan = store.exportPlan(format);
          if (abort.signal.aborted) throw new ExportError('export cancelled');
          progress.report({ message: `writing ${plan.files.length} files of ${plan.tasks.length} task(s)…` });
          await yieldToHost();
          if (abort.signal.aborted) throw new ExportError('export cancelled');
          let last = 0;
          // Files are fsynced one by one; the writer yields between them so progress and Cancel keep working.
          await writeCuratedSetAsync(out, plan, {
            signal: abort.signal,
            onProgress: (done, total) => {
              const pct = Math.floor((done / total) * 100);
              if (pct > last) {
                progress.report({ increment: pct - last, message: `${done} of ${total} files` });
                last = pct;
              }
            },
          });
          return plan;
        } finally {
          sub.dispose();
        }
      },
    );
    const message = `${result.tasks.length} approved task(s) exported to ${out} (${format}, ${result.files.length} files; checksums in ${EXPORT_MANIFEST}).`;
    log.info(message);
    void notify.info(message, 'Reveal Manifest').then((pick) => {
      if (pick) void vscode.window.showTextDocument(vscode.Uri.file(path.join(out, EXPORT_MANIFEST)), { preview: true });
    });
    return { ok: true, out, format, tasks: result.tasks, files: result.files.length, message };
  } catch (e) {
    const message = errorText(e);
    if (e instanceof ExportError && /cancelled/.test(message)) {
      void notify.info('Export cancelled: the output folder was left as it was.');
      return { ok: false, out, format, message };
    }
    log.error(`export: ${message}`);
    void notify.error(`SpecWeave: the curated set was not exported: ${message}`);
    return { ok: false, out, format, message };
  }
}
