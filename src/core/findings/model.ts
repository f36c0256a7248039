// The review agent's findings (issue 13): for one attempt, a judgment per spec with a confidence, a rationale and
// citations into the things the agent was shown. One `review.findings` event in the review log holds one call's
// checked findings for one attempt, with the call's provenance (model, prompt version and hash, tokens, cost). A
// finding is a suggestion: it is never a curator's label and never counted as one; a curator accepts it by recording
// a label of their own that cites it, or dismisses it (`review.dismiss`). See docs/review-agent.md.
import type { Check } from '../review/validate';
import { arrayOf, int, isRecord, obj, oneOf, str, tagged, text } from '../review/validate';

export const FINDING_JUDGMENTS = ['satisfied', 'violated', 'unsure'] as const;
export type FindingJudgment = (typeof FINDING_JUDGMENTS)[number];

/** A finding crossed with the verifier's verdict on the spec's tests. */
export const FINDING_CANDIDATES = ['false_positive', 'false_negative'] as const;
export type FindingCandidate = (typeof FINDING_CANDIDATES)[number];

/**
 * Where a finding points. Locators are those of evidence links (core/review/evidence.ts) for the attempt judged, plus
 * request sentences. `quote`, where given, must occur in the cited place (whitespace normalised): a citation whose
 * place does not exist, or whose quote is not there, drops its finding.
 */
export type FindingCitation =
  /** `step` is `TrajectoryStep.index` of the attempt's normalized trajectory. */
  | { kind: 'trajectory_step'; step: number; quote?: string }
  /** 0-based `hunk` among the hunks of `file` in the attempt's patch. */
  | { kind: 'diff_hunk'; file: string; hunk: number; quote?: string }
  /** A task test id (`TestCase.id`). */
  | { kind: 'test'; test: string }
  /** 1-based `line` of the stdout of verifier run `run` (the attempt's latest run the agent was shown). */
  | { kind: 'log_line'; run: string; line: number; quote?: string }
  /** 1-based `sentence` of the task's request, as split by `requestSentences`. */
  | { kind: 'request_sentence'; sentence: number; quote?: string };

export const FINDING_CITATION_KINDS = ['trajectory_step', 'diff_hunk', 'test', 'log_line', 'request_sentence'] as const;

export interface Finding {
  spec: string;
  judgment: FindingJudgment;
  /** 0 to 1. */
  confidence: number;
  rationale: string;
  citations: FindingCitation[];
  /**
   * Set when the judgment disagrees with the verifier: `violated` while the spec's tests pass is a false-positive
   * candidate, `satisfied` while they fail is a false-negative candidate.
   */
  candidate?: FindingCandidate;
  /** The verifier's verdict on the spec's tests that the finding was crossed with. */
  verifierVerdict?: 'pass' | 'fail' | 'partial' | 'unknown';
}

/** A finding of the reply that was not kept, and why (a citation to nothing, an unknown spec, a pair not asked about). */
export interface DroppedFinding {
  spec?: string;
  reason: string;
  /** Why, for counting: a citation that does not hold, an attempt or spec not asked about or unknown, a spec judged twice, a malformed finding. */
  cause?: DropCause;
}

export const DROP_CAUSES = ['citation', 'unknown_attempt', 'unknown_spec', 'not_asked', 'duplicate', 'shape'] as const;
export type DropCause = (typeof DROP_CAUSES)[number];

/** The payload of a `review.findings` event: one call's checked findings for one attempt at one task revision. */
export interface FindingsPayload {
  attempt: string;
  /** SHA-256 (hex) of the attempt's patch bytes judged: findings on an older patch are not current. */
  patchHash: string;
  /** The verifier run the agent was shown and the findings were crossed with, if the attempt had one. */
  run?: string;
  model: string;
  /** The prompt's version (bumped when the prompt's wording or schema changes): calibration is per version. */
  promptVersion: string;
  /** SHA-256 (hex) of the exact messages sent. */
  promptHash: string;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
  findings: Finding[];
  dropped: DroppedFinding[];
}

/** A curator dismissed one finding (the spec's finding of a `review.findings` event). */
export interface FindingDismissPayload {
  findings: string;
  spec: string;
  note?: string;
}

const id = str({ min: 1, max: 300 });
const hex = str({ min: 8, max: 64, pattern: /^[0-9a-f]+$/, what: 'a hash (lower-case hex)' });
const quote = text(2000);
const unit: Check = (v, field) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? undefined : { field, message: 'expected a number from 0 to 1' });
const cost: Check = (v, field) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : { field, message: 'expected a cost in USD' });

export const findingCitationCheck: Check = tagged('kind', {
  trajectory_step: obj({ step: int(0, 10_000_000) }, { quote }),
  diff_hunk: obj({ file: str({ min: 1, max: 4096 }), hunk: int(0, 1_000_000) }, { quote }),
  test: obj({ test: id }),
  log_line: obj({ run: id, line: int(1, 1_000_000_000) }, { quote }),
  request_sentence: obj({ sentence: int(1, 1_000_000) }, { quote }),
});

const findingCheck: Check = obj(
  { spec: id, judgment: oneOf(FINDING_JUDGMENTS), confidence: unit, rationale: text(20_000), citations: arrayOf(findingCitationCheck, { max: 50 }) },
  { candidate: oneOf(FINDING_CANDIDATES), verifierVerdict: oneOf(['pass', 'fail', 'partial', 'unknown']) },
);

export const findingsPayloadCheck: Check = (v, field) => {
  if (!isRecord(v)) return { field, message: 'expected an object' };
  return obj(
    {
      attempt: id,
      patchHash: hex,
      model: str({ min: 1, max: 300 }),
      promptVersion: str({ min: 1, max: 50 }),
      promptHash: hex,
      findings: arrayOf(findingCheck, { max: 10_000 }),
      dropped: arrayOf(obj({ reason: text(5000) }, { spec: id, cause: oneOf(DROP_CAUSES) }), { max: 10_000 }),
    },
    { run: id, promptTokens: int(0, 100_000_000), completionTokens: int(0, 100_000_000), costUsd: cost },
  )(v, field);
};

export const findingDismissCheck: Check = obj({ findings: id, spec: id }, { note: text() });
