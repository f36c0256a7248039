// Read-only documents of the repair feature on the `specweave-repair:` scheme: the prompt that was sent, the current
// side of each suggested file (the suggested side is a real file the curator may edit), and the before/after matrix.
import * as vscode from 'vscode';
import { loadRevalidation, readSuggestionFile } from '../../adapters/fs/repairStore';
import type { RepairMatrix } from '../../core/repair/matrix';
import { formatMatrix } from '../../core/repair/matrix';
import { errorText } from '../../core/errorText';

export const REPAIR_SCHEME = 'specweave-repair';

export type RepairDocKind = 'prompt' | 'current' | 'matrix';

/** `specweave-repair:/<task>/<suggestion>/<kind>/<file>` */
export function repairUri(kind: RepairDocKind, taskId: string, suggestionId: string, file = ''): vscode.Uri {
  const tail = kind === 'prompt' ? 'prompt.md' : kind === 'matrix' ? 'before-after.md' : file;
  return vscode.Uri.from({ scheme: REPAIR_SCHEME, path: `/${taskId}/${suggestionId}/${kind}/${tail}` });
}

/** The matrix as a Markdown document: the counts, what disappeared and appeared, and a table per attempt and spec. */
export function matrixMarkdown(taskId: string, m: RepairMatrix): string {
  const short: Record<string, string> = { true_pass: 'true pass', true_fail: 'true fail', false_positive: '**FALSE POSITIVE**', false_negative: '**FALSE NEGATIVE**', undecided: 'undecided', absent: '—' };
  const list = (xs: Array<{ attempt: string; spec: string }>) => (xs.length === 0 ? 'none' : xs.map((x) => `${x.attempt} × ${x.spec}`).join(', '));
  const out = [
    `# ${taskId}: before/after revision ${m.fromRevision} -> ${m.toRevision}`,
    '',
    `False positives ${m.counts.before.falsePositives} -> ${m.counts.after.falsePositives}; false negatives ${m.counts.before.falseNegatives} -> ${m.counts.after.falseNegatives}.`,
    '',
    `- Gone: false positives: ${list(m.fixed.falsePositives)}; false negatives: ${list(m.fixed.falseNegatives)}`,
    `- Appeared: false positives: ${list(m.introduced.falsePositives)}; false negatives: ${list(m.introduced.falseNegatives)}`,
    '',
    '| attempt | spec | verifier before | outcome before | verifier after | outcome after | change |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...m.cells.map((c) => `| ${c.attempt} | ${c.spec} | ${c.before.verifier} | ${short[c.before.outcome] ?? c.before.outcome} | ${c.after.verifier} | ${short[c.after.outcome] ?? c.after.outcome} | ${c.change.replace('_', ' ')} |`),
    // Fresh trials exist on the new revision only: rows marked fresh, nothing before, not in the counts above.
    ...(m.fresh
      ? [
          '',
          `## Fresh trials on revision ${m.toRevision} (not run before, not counted above)`,
          '',
          ...m.fresh.trials.map((t) => `- ${t.attempt ?? '(no attempt)'} · ${t.model}${t.exitStatus ? ` · ${t.exitStatus}` : ''}${t.verdict ? ` · verifier ${t.verdict}` : ''}${t.error ? ` · ${t.error}` : ''}`.replace(/\s+/g, ' ')),
          '',
          '| attempt | spec | verifier before | outcome before | verifier after | outcome after | change |',
          '| --- | --- | --- | --- | --- | --- | --- |',
          ...m.fresh.cells.map((c) => `| fresh ${c.attempt} | ${c.spec} | — | — | ${c.after.verifier} | ${short[c.after.outcome] ?? c.after.outcome} | fresh |`),
        ]
      : []),
    '',
    '```',
    formatMatrix(m).trimEnd(),
    '```',
    '',
  ];
  return out.join('\n');
}

export class RepairDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly root: () => string | undefined) {}

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const root = this.root();
    if (!root) return 'No dataset is open.';
    const [, taskId = '', id = '', kind = '', ...rest] = uri.path.split('/');
    try {
      if (kind === 'prompt') return readSuggestionFile(root, taskId, id, 'prompt.md');
      if (kind === 'current') {
        const rel = rest.join('/');
        if (rel.split('/').includes('..')) return 'Not a file of this suggestion.';
        return readSuggestionFile(root, taskId, id, `current/${rel}`);
      }
      if (kind === 'matrix') {
        const r = loadRevalidation(root, taskId, id);
        return r ? matrixMarkdown(taskId, r.matrix) : `Suggestion ${id} has not been revalidated yet.`;
      }
    } catch (e) {
      return `Cannot read ${uri.path}: ${errorText(e)}`;
    }
    return `Unknown repair document ${uri.path}`;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
