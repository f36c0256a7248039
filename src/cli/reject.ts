// `specweave reject DATASET TASK --reason T`: the task stays out of the curated set.
import { UsageError } from './args';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, record } from './curationCommon';

export const rejectCommand = defineCommand({
  name: 'reject',
  summary: 'reject a task (with a reason)',
  usage: 'specweave reject DATASET TASK --reason T',
  flags: { reason: { type: 'string', help: 'why the task is rejected' }, ...curatorFlag, ...jsonFlag },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const reason = a.strings.reason;
    if (reason === undefined || reason.trim() === '') throw new UsageError('--reason is required');
    const curator = curatorOf(a, root);
    const store = openStore(a);
    return record(
      a,
      'reject',
      () => store.act(taskId, curator, { kind: 'reject', reason }),
      (r) => `${r.event.id} ${taskId}: rejected by ${curator}`,
    );
  },
});
