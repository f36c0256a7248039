// `specweave score DATASET TASK --underspecified N --fn-severity N --fp-severity N`: a curator's scores of a task.
import type { Difficulty, EnvDefect } from '../core/review/events';
import { DIFFICULTIES, ENV_DEFECTS } from '../core/review/events';
import type { EvidenceLink } from '../core/review/evidence';
import { parseEvidence } from '../core/review/evidence';
import { UsageError } from './args';
import { defineCommand } from './command';
import { curatorFlag, curatorOf, jsonFlag, openStore, policyFlag, record, severityOf } from './curationCommon';

export const scoreCommand = defineCommand({
  name: 'score',
  summary: "record a curator's scores of a task (SWE-bench Verified style, extended)",
  usage: 'specweave score DATASET TASK --underspecified N --fn-severity N --fp-severity N [--env-defect K ...] [--other T] [--difficulty B]',
  flags: {
    underspecified: { type: 'string', help: '0-3: how underspecified the request is' },
    'fn-severity': { type: 'string', help: '0-3: tests reject valid solutions (false negatives)' },
    'fp-severity': { type: 'string', help: '0-3: tests too weak, accept wrong solutions (false positives)' },
    'env-defect': { type: 'list', help: `environment defect: ${ENV_DEFECTS.join(', ')}` },
    other: { type: 'string', help: 'other issues' },
    difficulty: { type: 'string', help: `difficulty bucket: ${DIFFICULTIES.join(', ')}` },
    note: { type: 'string', help: 'why' },
    evidence: { type: 'list', help: 'evidence link KIND:LOCATOR (see label --help)' },
    ...curatorFlag,
    ...policyFlag,
    ...jsonFlag,
  },
  positional: { min: 2, max: 2 },
  async run(a) {
    const [root, taskId] = a.positional as [string, string];
    const underspecified = severityOf(a, 'underspecified');
    const fnSeverity = severityOf(a, 'fn-severity');
    const fpSeverity = severityOf(a, 'fp-severity');
    const envDefects = a.lists['env-defect'] ?? [];
    for (const d of envDefects) if (!(ENV_DEFECTS as readonly string[]).includes(d)) throw new UsageError(`--env-defect must be one of ${ENV_DEFECTS.join(', ')}; got "${d}"`);
    const difficulty = a.strings.difficulty;
    if (difficulty !== undefined && !(DIFFICULTIES as readonly string[]).includes(difficulty)) throw new UsageError(`--difficulty must be one of ${DIFFICULTIES.join(', ')}`);
    const evidence: EvidenceLink[] = [];
    for (const e of a.lists.evidence ?? []) {
      const r = parseEvidence(e);
      if (!r.ok) throw new UsageError(r.message);
      evidence.push(r.link);
    }
    const curator = curatorOf(a, root);
    const store = openStore(a);
    return record(
      a,
      'score',
      () =>
        store.act(taskId, curator, {
          kind: 'score',
          underspecified,
          fnSeverity,
          fpSeverity,
          envDefects: envDefects as EnvDefect[],
          ...(a.strings.other !== undefined ? { otherIssues: a.strings.other } : {}),
          ...(difficulty !== undefined ? { difficulty: difficulty as Difficulty } : {}),
          ...(a.strings.note !== undefined ? { note: a.strings.note } : {}),
          ...(evidence.length > 0 ? { evidence } : {}),
        }),
      (r) => `${r.event.id} ${taskId}: scored by ${curator} (underspecified ${underspecified}, fn ${fnSeverity}, fp ${fpSeverity})`,
    );
  },
});
