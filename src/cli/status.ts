// `specweave status DATASET TASK STATUS`: a checked life-cycle transition (approve / reject have their own commands).
import type { TaskStatus } from '../core/model';
import { TASK_STATUSES } from '../core/model';
import { UsageError } from './args';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, record } from './curationCommon';

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'move a task through its life cycle (checked transitions)',
  usage: `specweave status DATASET TASK ${TASK_STATUSES.filter((s) => s !== 'approved' && s !== 'rejected').join('|')} [--note T]`,
  flags: { note: { type: 'string', help: 'why' }, ...curatorFlag, ...jsonFlag },
  positional: { min: 3, max: 3 },
  async run(a) {
    const [root, taskId, to] = a.positional as [string, string, string];
    if (!(TASK_STATUSES as readonly string[]).includes(to)) throw new UsageError(`unknown status "${to}" (statuses: ${TASK_STATUSES.join(', ')})`);
    const curator = curatorOf(a, root);
    const store = openStore(a);
    const from = store.state.tasks.get(taskId)?.status ?? 'candidate';
    return record(
      a,
      'status',
      () => store.act(taskId, curator, { kind: 'status', to: to as TaskStatus, ...(a.strings.note ? { note: a.strings.note } : {}) }),
      (r) => `${r.event.id} ${taskId}: ${from} -> ${to} by ${curator}`,
    );
  },
});
