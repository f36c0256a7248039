// `specweave submit DATASET TASK`: a curator has finished their review of a task (ends their blindness).
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, record } from './curationCommon';

export const submitCommand = defineCommand({
  name: 'submit',
  summary: "submit one's review of a task (others' labels become visible to you in blind mode)",
  usage: 'specweave submit DATASET TASK [--note T] [--curator NAME]',
  flags: { note: { type: 'string', help: 'a closing note' }, ...curatorFlag, ...jsonFlag },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const curator = curatorOf(a, root);
    const store = openStore(a);
    return record(
      a,
      'submit',
      () => store.act(taskId, curator, { kind: 'submit', ...(a.strings.note ? { note: a.strings.note } : {}) }),
      (r) => `${r.event.id} ${taskId}: submitted by ${curator}`,
    );
  },
});
