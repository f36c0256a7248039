// `specweave label DATASET TASK --attempt ID --spec ID --verdict V`: a curator's verdict on an attempt and a spec.
import type { CuratorVerdict } from '../core/model';
import type { EvidenceLink } from '../core/review/evidence';
import { parseEvidence } from '../core/review/evidence';
import { CURATOR_VERDICTS } from '../core/review/events';
import { UsageError } from './args';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, policyFlag, record } from './curationCommon';

export const labelCommand = defineCommand({
  name: 'label',
  summary: "record a curator's verdict on whether an attempt satisfies a spec",
  usage: 'specweave label DATASET TASK --attempt ID --spec ID --verdict satisfied|violated|unsure [--note T] [--evidence KIND:LOCATOR ...]',
  flags: {
    attempt: { type: 'string', help: 'attempt id' },
    spec: { type: 'string', help: 'spec id' },
    verdict: { type: 'string', help: 'satisfied, violated or unsure' },
    note: { type: 'string', help: 'why' },
    evidence: { type: 'list', help: 'trajectory_step:[ATTEMPT#]STEP, test:ID, log_line:RUN#[stream#]LINE, diff_hunk:[PATCH@]FILE#HUNK, spec:ID, finding:EVENT#SPEC (the review agent finding on this pair)' },
    ...curatorFlag,
    ...policyFlag,
    ...jsonFlag,
  },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const attempt = a.strings.attempt;
    const spec = a.strings.spec;
    const verdict = a.strings.verdict;
    if (!attempt || !spec || !verdict) throw new UsageError('--attempt, --spec and --verdict are required');
    if (!(CURATOR_VERDICTS as readonly string[]).includes(verdict)) throw new UsageError(`--verdict must be one of ${CURATOR_VERDICTS.join(', ')}`);
    const evidence: EvidenceLink[] = [];
    for (const e of a.lists.evidence ?? []) {
      const r = parseEvidence(e, attempt);
      if (!r.ok) throw new UsageError(r.message);
      evidence.push(r.link);
    }
    const curator = curatorOf(a, root);
    const store = openStore(a);
    return record(
      a,
      'label',
      () => store.act(taskId, curator, { kind: 'label', attempt, spec, verdict: verdict as CuratorVerdict, evidence, ...(a.strings.note !== undefined ? { note: a.strings.note } : {}) }),
      (r) => {
        const cell = store.review(taskId, { viewer: curator })?.cells.find((c) => c.attempt === attempt && c.spec === spec);
        const outcome = cell ? ` (verifier ${cell.verifier}; outcome ${cell.outcome})` : '';
        return `${r.event.id} ${taskId}: ${attempt} × ${spec} ${verdict} by ${curator}${outcome}`;
      },
    );
  },
});
