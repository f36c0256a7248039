// The repair suggestion: what the model is asked to return (a JSON Schema usable in strict JSON-schema mode), and the
// checked, normalized form the rest of the tool works with.
import type { Spec, TestCase, TestKind } from '../model';
import type { EvidenceLink } from '../review/evidence';

/** What a suggestion changes; `auto` lets the model choose. */
export const REPAIR_TARGETS = ['request', 'specs', 'tests', 'spec_test_map'] as const;
export type RepairTarget = (typeof REPAIR_TARGETS)[number];
export type RequestedTarget = RepairTarget | 'auto';

/** The model's reply, as the schema below describes it. */
export interface SuggestionReply {
  refusal: string | null;
  target: RepairTarget;
  summary: string;
  rationale: string;
  request: { content: string | null; diff: string | null } | null;
  specs: Array<{ id: string; text: string; category: string; dependsOn: string[] }> | null;
  specTestMap: Array<{ id: string; name: string; kind: TestKind; specs: string[] }> | null;
  testFiles: Array<{ path: string; content: string | null; diff: string | null }> | null;
  evidence: ReplyEvidence[];
}

export interface ReplyEvidence {
  kind: 'trajectory_step' | 'test' | 'log_line' | 'diff_hunk' | 'spec';
  attempt: string | null;
  step: number | null;
  test: string | null;
  run: string | null;
  line: number | null;
  stream: 'stdout' | 'stderr' | null;
  patch: 'attempt' | 'gold' | 'tests' | null;
  file: string | null;
  hunk: number | null;
  spec: string | null;
  why: string;
}

const nullable = (t: string) => ({ type: [t, 'null'] });

const evidenceItem = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'attempt', 'step', 'test', 'run', 'line', 'stream', 'patch', 'file', 'hunk', 'spec', 'why'],
  properties: {
    kind: { type: 'string', enum: ['trajectory_step', 'test', 'log_line', 'diff_hunk', 'spec'] },
    attempt: { ...nullable('string'), description: 'attempt id (trajectory_step, diff_hunk of an attempt patch)' },
    step: { ...nullable('integer'), description: 'trajectory step index as shown in the prompt ([step N])' },
    test: { ...nullable('string'), description: 'test id (e.g. TB3) for kind test' },
    run: { ...nullable('string'), description: 'verifier run id for kind log_line' },
    line: { ...nullable('integer'), description: '1-based log line for kind log_line' },
    stream: { type: ['string', 'null'], enum: ['stdout', 'stderr', null] },
    patch: { type: ['string', 'null'], enum: ['attempt', 'gold', 'tests', null] },
    file: { ...nullable('string'), description: 'file path for kind diff_hunk' },
    hunk: { ...nullable('integer'), description: '0-based hunk index within the file for kind diff_hunk' },
    spec: { ...nullable('string'), description: 'spec id for kind spec' },
    why: { type: 'string', description: 'what this evidence shows, in one sentence' },
  },
};

/** The schema sent in JSON-schema mode (strict: every property required, nullable where optional). */
export const SUGGESTION_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['refusal', 'target', 'summary', 'rationale', 'request', 'specs', 'specTestMap', 'testFiles', 'evidence'],
  properties: {
    refusal: { ...nullable('string'), description: 'null, or why no responsible change can be suggested (then leave every change null)' },
    target: { type: 'string', enum: [...REPAIR_TARGETS] },
    summary: { type: 'string', description: 'one line: what the change does' },
    rationale: { type: 'string', description: 'why this change fixes the task, tied to the evidence' },
    request: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['content', 'diff'],
          properties: { content: { ...nullable('string'), description: 'the whole new request.md' }, diff: { ...nullable('string'), description: 'or a unified diff of request.md' } },
        },
      ],
    },
    specs: {
      anyOf: [
        { type: 'null' },
        {
          type: 'array',
          description: 'the complete new list of specs (unchanged ones included)',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'text', 'category', 'dependsOn'],
            properties: { id: { type: 'string' }, text: { type: 'string' }, category: { type: 'string' }, dependsOn: { type: 'array', items: { type: 'string' } } },
          },
        },
      ],
    },
    specTestMap: {
      anyOf: [
        { type: 'null' },
        {
          type: 'array',
          description: 'the complete new list of tests with the specs each covers',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'name', 'kind', 'specs'],
            properties: {
              id: { type: 'string' },
              name: { type: 'string', description: 'the test name exactly as the runner reports it' },
              kind: { type: 'string', enum: ['fail_to_pass', 'pass_to_pass'] },
              specs: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      ],
    },
    testFiles: {
      anyOf: [
        { type: 'null' },
        {
          type: 'array',
          description: 'test files as they should be after the test patch is applied',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'content', 'diff'],
            properties: {
              path: { type: 'string', description: 'repository-relative path, e.g. tests/test_cli.py' },
              content: { ...nullable('string'), description: 'the whole new file' },
              diff: { ...nullable('string'), description: 'or a unified diff against the current file shown in the prompt' },
            },
          },
        },
      ],
    },
    evidence: { type: 'array', items: evidenceItem },
  },
};

export const SUGGESTION_SCHEMA_NAME = 'repair_suggestion';

/** An evidence link with the model's one-sentence reason. */
export type SuggestionEvidence = EvidenceLink & { why: string };

/** A checked suggestion: the new texts of what it changes. */
export interface RepairChanges {
  /** The whole new request.md. */
  request?: string;
  /** The complete new spec list. */
  specs?: Spec[];
  /** The complete new test list with the spec-test map. */
  tests?: TestCase[];
  /** Test files (repository paths) as they are after the test patch, whole. */
  testFiles?: Array<{ path: string; text: string }>;
}

export interface CheckedSuggestion {
  target: RepairTarget;
  summary: string;
  rationale: string;
  evidence: SuggestionEvidence[];
  changes: RepairChanges;
}
