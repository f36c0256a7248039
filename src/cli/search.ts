// `specweave search DATASET PATTERN`: the trajectories of every task searched at once (in a worker thread, as the
// workbench's dataset search), hits grouped by task and attempt, each with its step and the text around the match.
// Every text from a trajectory is untrusted and printed escaped.
import { openDataset } from '../adapters/fs/datasetLoader';
import { DatasetSearcher, groupHits, trajectoryFiles, type DatasetHit } from '../app/datasetSearch';
import { errorText } from '../core/errorText';
import { UsageError } from './args';
import { defineCommand } from './command';
import { err, one, out, printJson } from './output';

/** The excerpt on one line with the match between » and «, escaped for a terminal. */
function excerptLine(h: DatasetHit): string {
  const e = h.excerpt;
  return `${one(e.slice(0, h.excerptStart))}»${one(e.slice(h.excerptStart, h.excerptStart + h.length))}«${one(e.slice(h.excerptStart + h.length))}`;
}

function where(h: DatasetHit): string {
  return h.toolCall !== undefined ? `step ${h.step} (${h.kind}, tool call ${h.toolCall + 1} ${h.field})` : `step ${h.step} (${h.kind})`;
}

export const searchCommand = defineCommand({
  name: 'search',
  summary: 'search the trajectories of every task: hits grouped by task and attempt, with the step and the text around each',
  usage: 'specweave search DATASET PATTERN [--regex] [--case-sensitive] [--max N] [--json]',
  flags: {
    regex: { type: 'boolean', help: 'PATTERN is a JavaScript regular expression (default: plain text)' },
    'case-sensitive': { type: 'boolean', help: 'match case (default: ignore it)' },
    max: { type: 'string', help: 'hits to list (default 200; all are counted)' },
    json: { type: 'boolean', help: 'print { total, listed, files, capped, hits: [{taskId, attempt, step, kind, start, length, excerpt, excerptStart, toolCall?, field?}], unreadable, refused } as JSON' },
  },
  positional: { min: 2, max: 2 },
  async run(a) {
    const maxText = a.strings.max ?? '200';
    const max = Number(maxText);
    if (!Number.isInteger(max) || max < 1 || max > 1_000_000) throw new UsageError(`--max must be a whole number from 1 to 1000000, not "${maxText}"`);
    const dataset = openDataset(a.positional[0] as string);
    const { files, refused } = trajectoryFiles(dataset.root, dataset.tasks);
    const searcher = new DatasetSearcher();
    const hits: DatasetHit[] = [];
    let running;
    try {
      running = searcher.search({ pattern: a.positional[1] as string, regex: a.booleans.regex === true, caseSensitive: a.booleans['case-sensitive'] === true, maxHits: max }, files, { onHits: (h) => hits.push(...h) }, refused);
    } catch (e) {
      throw new UsageError(errorText(e));
    }
    const stop = (): void => running.cancel();
    process.once('SIGINT', stop);
    const outcome = await running.done;
    process.off('SIGINT', stop);
    searcher.dispose();
    if (a.booleans.json) {
      printJson({ total: outcome.total, listed: hits.length, files: outcome.files, scanned: outcome.scanned, capped: outcome.capped, cancelled: outcome.cancelled, hits, unreadable: outcome.unreadable, refused: outcome.refused });
    } else {
      for (const t of groupHits(hits)) {
        out(`${one(t.taskId)}\n`);
        for (const g of t.attempts) {
          out(`  ${one(g.attempt)} (${g.hits.length})\n`);
          for (const h of g.hits) out(`    ${where(h)}: ${excerptLine(h)}\n`);
        }
      }
      const tasks = new Set(hits.map((h) => h.taskId)).size;
      out(`${outcome.total} match${outcome.total === 1 ? '' : 'es'}${hits.length < outcome.total ? ` (${hits.length} listed)` : ''} in ${tasks} task${tasks === 1 ? '' : 's'}; ${outcome.scanned} of ${outcome.files} trajectories searched${outcome.cancelled ? ' (interrupted)' : ''}\n`);
    }
    for (const u of outcome.unreadable) err(`${one(u.label || 'search')}: ${one(u.error)}\n`);
    for (const r of outcome.refused) err(`${one(r.label)}: refused: ${one(r.error)}\n`);
    if (outcome.cancelled) return 130;
    return outcome.unreadable.length + outcome.refused.length > 0 ? 1 : 0;
  },
});
