// `specweave undo DATASET EVENT_ID`: withdraws an event by appending an undo (nothing is rewritten).
import { describeEvent } from '../core/review/describe';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, record } from './curationCommon';

export const undoCommand = defineCommand({
  name: 'undo',
  summary: 'withdraw an event of the review log (undoing an undo restores it)',
  usage: 'specweave undo DATASET EVENT_ID [--note T]',
  flags: { note: { type: 'string', help: 'why' }, ...curatorFlag, ...jsonFlag },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, eventId] = a.positional as [string, string];
    const curator = curatorOf(a, root);
    const store = openStore(a);
    const target = store.state.byId.get(eventId);
    return record(
      a,
      'undo',
      () => store.undo(eventId, curator, a.strings.note),
      (r) => `${r.event.id} ${r.event.task}: undid ${eventId}${target ? ` (${describeEvent(target)})` : ''}`,
    );
  },
});
