// Compile-time checks that the protocol's copies of domain unions (src/protocol imports nothing) are exactly core's:
// a value added to or removed from either side fails `npm run check` here. No runtime code.
import type { CuratorVerdict, KNOWN_SPEC_CATEGORIES, LabelOutcome, SpecVerdict, StepKind, TaskStatus } from '../model';
import type { SPEC_OP_KINDS, SpecOp } from '../specs/edit';
import type { ConsensusPolicy, FinalSource } from '../review/consensus';
import type { CuratorSource } from '../review/curator';
import type { DIFFICULTIES, ENV_DEFECTS, SCORE_FIELDS } from '../review/events';
import type { VerifierStatus } from '../review/verdicts';
import type { OracleFlagKind } from '../verify/oracle';
import type { RUN_STATUSES, RunFlagKind } from '../verify/runResult';
import type { EvidenceLink, HunkPatch } from '../review/evidence';
import type { FindingCandidate, FindingJudgment } from '../findings/model';
import type { CellChange, MatrixSide } from '../repair/matrix';
import type { RepairTarget } from '../repair/suggestion';
import type {
  SPEC_CATEGORY_VIEWS,
  SPEC_OP_VIEWS,
  SpecOpView,
  CellChangeView,
  ConsensusPolicyView,
  CuratorSourceView,
  DIFFICULTY_VIEWS,
  ENV_DEFECT_VIEWS,
  FlagKindView,
  RUN_STATUS_VIEWS,
  RunFlagKindView,
  RunStatusView,
  SCORE_FIELD_VIEWS,
  CuratorVerdictView,
  FinalSourceView,
  OutcomeView,
  RepairMatrixSideView,
  RepairTargetView,
  SpecVerdictView,
  StepKindView,
  TaskStatusView,
} from '../../protocol/messages';
import type { EvidenceLinkView, FindingCandidateView, FindingJudgmentView, TASK_STATUS_VIEWS } from '../../protocol/messages';
import type { TASK_STATUSES } from '../model';

/** True when A and B are the same type (not merely assignable one way). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only with `true`. */
export type Assert<T extends true> = T;

export type UnionChecks = [
  Assert<Equal<TaskStatus, TaskStatusView>>,
  Assert<Equal<SpecVerdict, SpecVerdictView>>,
  Assert<Equal<LabelOutcome, OutcomeView>>,
  Assert<Equal<CuratorVerdict, CuratorVerdictView>>,
  Assert<Equal<StepKind, StepKindView>>,
  Assert<Equal<FinalSource, FinalSourceView>>,
  Assert<Equal<CellChange, CellChangeView>>,
  Assert<Equal<RepairTarget, RepairTargetView>>,
  Assert<Equal<HunkPatch, Extract<EvidenceLinkView, { kind: 'diff_hunk' }>['patch']>>,
  Assert<Equal<EvidenceLink['kind'], EvidenceLinkView['kind']>>,
  Assert<Equal<FindingJudgment, FindingJudgmentView>>,
  Assert<Equal<FindingCandidate, FindingCandidateView>>,
  Assert<Equal<MatrixSide['verifier'], RepairMatrixSideView['verifier']>>,
  Assert<Equal<MatrixSide['outcome'], RepairMatrixSideView['outcome']>>,
  Assert<Equal<OracleFlagKind, FlagKindView>>,
  Assert<Equal<RunFlagKind, RunFlagKindView>>,
  Assert<Equal<VerifierStatus, RunStatusView>>,
  Assert<Equal<CuratorSource, CuratorSourceView>>,
  Assert<Equal<ConsensusPolicy, ConsensusPolicyView>>,
  // The lists too, in the same order.
  Assert<Equal<typeof TASK_STATUSES, typeof TASK_STATUS_VIEWS>>,
  Assert<Equal<typeof RUN_STATUSES, typeof RUN_STATUS_VIEWS>>,
  Assert<Equal<typeof SCORE_FIELDS, typeof SCORE_FIELD_VIEWS>>,
  Assert<Equal<typeof DIFFICULTIES, typeof DIFFICULTY_VIEWS>>,
  Assert<Equal<typeof ENV_DEFECTS, typeof ENV_DEFECT_VIEWS>>,
  Assert<Equal<typeof KNOWN_SPEC_CATEGORIES, typeof SPEC_CATEGORY_VIEWS>>,
  Assert<Equal<SpecOp, SpecOpView>>,
  Assert<Equal<(typeof SPEC_OP_KINDS)[number], (typeof SPEC_OP_VIEWS)[number]>>,
];
