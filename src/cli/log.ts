// `specweave log DATASET [TASK] [--json]`: the review log in order, undone events marked.
import { describeEvent } from '../core/review/describe';
import { visibleTo } from '../core/review/consensus';
import { taskState } from '../core/review/reducer';
import { UsageError } from './args';
import { defineCommand } from './command';
import { jsonFlag, openStore } from './curationCommon';
import { err, one, out, printJson, table } from './output';

export const logCommand = defineCommand({
  name: 'log',
  summary: 'show the review log (all tasks, or one)',
  usage: 'specweave log DATASET [TASK] [--json] [--curator NAME --blind]',
  flags: {
    curator: { type: 'string', help: 'with --blind: whose view' },
    blind: { type: 'boolean', help: "hide other curators' labels and scores on tasks --curator has not submitted" },
    ...jsonFlag,
  },
  positional: { min: 1, max: 2 },
  async run(a) {
    const taskId = a.positional[1];
    if (a.booleans.blind && a.strings.curator === undefined) throw new UsageError('--blind needs --curator');
    const store = openStore(a);
    if (taskId !== undefined && !store.task(taskId) && !store.state.tasks.has(taskId)) {
      err(`specweave log: the dataset has no task "${one(taskId)}"\n`);
      return 1;
    }
    const vis = { ...(a.strings.curator !== undefined ? { viewer: a.strings.curator } : {}), blind: a.booleans.blind };
    const hidden = new Set(['label', 'score', 'adjudicate']);
    const rows = store.state.events
      .filter((e) => taskId === undefined || e.task === taskId)
      .filter((e) => !hidden.has(e.kind) || visibleTo(taskState(store.state, e.task), vis)(e.curator))
      .map((e) => ({ event: e, undone: taskState(store.state, e.task).undone.has(e.id), summary: describeEvent(e) }));
    if (a.booleans.json) {
      printJson(rows.map((r) => ({ ...r.event, undone: r.undone, summary: r.summary })));
      return 0;
    }
    out(
      table(
        ['TIME', 'EVENT', 'CURATOR', 'TASK', 'WHAT'],
        rows.map((r) => [r.event.time, r.event.id, r.event.curator, `${r.event.task}@${r.event.revision}`, `${r.undone ? '(undone) ' : ''}${r.summary}`]),
      ),
    );
    return 0;
  },
});
