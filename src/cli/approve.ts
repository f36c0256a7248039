// `specweave approve DATASET TASK [--waive RULE --reason T ...]`: approval, refused while a rule fails unwaived.
import type { Waiver } from '../core/review/events';
import { APPROVAL_RULES } from '../core/review/rules';
import { UsageError } from './args';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, policyFlag, record } from './curationCommon';

export const approveCommand = defineCommand({
  name: 'approve',
  summary: `approve a task for the curated set (rules: ${APPROVAL_RULES.map((r) => r.id).join(', ')})`,
  usage: 'specweave approve DATASET TASK [--waive RULE --reason T ...] [--note T]',
  flags: {
    waive: { type: 'list', help: 'a rule to waive; each --waive needs its own --reason' },
    reason: { type: 'list', help: 'why the preceding --waive is acceptable' },
    note: { type: 'string', help: 'a note on the approval' },
    ...curatorFlag,
    ...policyFlag,
    ...jsonFlag,
  },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const rules = a.lists.waive ?? [];
    const reasons = a.lists.reason ?? [];
    if (rules.length !== reasons.length) throw new UsageError(`every --waive needs one --reason (${rules.length} --waive, ${reasons.length} --reason)`);
    const waivers: Waiver[] = rules.map((rule, i) => ({ rule, reason: reasons[i] as string }));
    const curator = curatorOf(a, root);
    const store = openStore(a);
    return record(
      a,
      'approve',
      () => store.act(taskId, curator, { kind: 'approve', waivers, ...(a.strings.note ? { note: a.strings.note } : {}) }),
      (r) => `${r.event.id} ${taskId}: approved by ${curator}${waivers.length > 0 ? ` waiving ${waivers.map((w) => w.rule).join(', ')}` : ''}`,
    );
  },
});
