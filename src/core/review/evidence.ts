// Evidence links: the places a label points at (a trajectory step, a test, a log line, a diff hunk, a spec, a review
// agent's finding the curator accepted). A UI opens the place from the locator fields alone.
import type { CandidateTask } from '../model';
import type { Check } from './validate';
import { int, obj, oneOf, str, tagged } from './validate';

export const EVIDENCE_KINDS = ['trajectory_step', 'test', 'log_line', 'diff_hunk', 'spec', 'finding'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** Which patch a diff hunk belongs to: an attempt's, the gold patch, or the test patch. */
export type HunkPatch = 'attempt' | 'gold' | 'tests';

export type EvidenceLink =
  /** `step` is `TrajectoryStep.index` of the attempt's normalized trajectory. */
  | { kind: 'trajectory_step'; attempt: string; step: number }
  /** `test` is a task test id (`TestCase.id`). */
  | { kind: 'test'; test: string }
  /** 1-based `line` of the stored output of verifier run `run` (`stdout` unless said otherwise). */
  | { kind: 'log_line'; run: string; line: number; stream?: 'stdout' | 'stderr' }
  /** 0-based `hunk` among the hunks of `file` (new path, or old path for a deletion) in the chosen patch. */
  | { kind: 'diff_hunk'; patch: HunkPatch; attempt?: string; file: string; hunk: number }
  | { kind: 'spec'; spec: string }
  /**
   * The review agent's finding on `spec` in the `review.findings` event `findings` (core/findings/model.ts): the label
   * that carries it is the curator's own, made by accepting the finding.
   */
  | { kind: 'finding'; findings: string; spec: string };

const id = str({ min: 1, max: 300 });

export const evidenceCheck: Check = tagged('kind', {
  trajectory_step: obj({ attempt: id, step: int(0, 10_000_000) }),
  test: obj({ test: id }),
  log_line: obj({ run: id, line: int(1, 1_000_000_000) }, { stream: oneOf(['stdout', 'stderr']) }),
  diff_hunk: obj({ patch: oneOf(['attempt', 'gold', 'tests']), file: str({ min: 1, max: 4096 }), hunk: int(0, 1_000_000) }, { attempt: id }),
  spec: obj({ spec: id }),
  finding: obj({ findings: id, spec: id }),
});

/**
 * Parses the CLI's `KIND:LOCATOR` form (see docs/curation.md); `attempt` is the attempt being labelled, used when the
 * locator leaves it out.
 */
export function parseEvidence(textForm: string, attempt?: string): { ok: true; link: EvidenceLink } | { ok: false; message: string } {
  const colon = textForm.indexOf(':');
  if (colon <= 0) return bad(textForm, 'expected KIND:LOCATOR');
  const kind = textForm.slice(0, colon);
  const loc = textForm.slice(colon + 1);
  if (loc.length === 0) return bad(textForm, 'the locator is empty');
  const nat = (s: string | undefined, min: number) => (s !== undefined && /^\d{1,10}$/.test(s) && Number(s) >= min ? Number(s) : undefined);
  switch (kind) {
    case 'trajectory_step': {
      const parts = loc.split('#');
      const a = parts.length === 2 ? parts[0] : attempt;
      const step = nat(parts[parts.length - 1], 0);
      if (parts.length > 2 || step === undefined) return bad(textForm, 'expected trajectory_step:[ATTEMPT#]STEP with STEP a number');
      if (!a) return bad(textForm, 'which attempt? use trajectory_step:ATTEMPT#STEP');
      return { ok: true, link: { kind, attempt: a, step } };
    }
    case 'test':
      return { ok: true, link: { kind, test: loc } };
    case 'spec':
      return { ok: true, link: { kind, spec: loc } };
    case 'finding': {
      // Event ids never hold '#'; a spec id may, so split at the first.
      const hash = loc.indexOf('#');
      if (hash <= 0 || hash === loc.length - 1) return bad(textForm, 'expected finding:EVENT#SPEC (the review.findings event id and the spec)');
      return { ok: true, link: { kind, findings: loc.slice(0, hash), spec: loc.slice(hash + 1) } };
    }
    case 'log_line': {
      const parts = loc.split('#');
      const line = nat(parts[parts.length - 1], 1);
      const stream = parts.length === 3 ? parts[1] : undefined;
      if (parts.length < 2 || parts.length > 3 || line === undefined || !parts[0] || (stream !== undefined && stream !== 'stdout' && stream !== 'stderr')) {
        return bad(textForm, 'expected log_line:RUN#LINE or log_line:RUN#stdout|stderr#LINE with LINE from 1');
      }
      return { ok: true, link: { kind, run: parts[0], line, ...(stream ? { stream } : {}) } };
    }
    case 'diff_hunk': {
      const hash = loc.lastIndexOf('#');
      const hunk = hash > 0 ? nat(loc.slice(hash + 1), 0) : undefined;
      if (hunk === undefined) return bad(textForm, 'expected diff_hunk:[PATCH@]FILE#HUNK with HUNK a 0-based number');
      let target = loc.slice(0, hash);
      let patch: HunkPatch = 'attempt';
      let a = attempt;
      const at = target.indexOf('@');
      if (at >= 0) {
        const which = target.slice(0, at);
        target = target.slice(at + 1);
        if (which === 'gold' || which === 'tests') {
          patch = which;
          a = undefined;
        } else if (which.length > 0) a = which;
        else return bad(textForm, 'empty patch name before @');
      }
      if (!target) return bad(textForm, 'the file is empty');
      if (patch === 'attempt' && !a) return bad(textForm, 'which attempt? use diff_hunk:ATTEMPT@FILE#HUNK');
      return { ok: true, link: { kind, patch, ...(patch === 'attempt' ? { attempt: a } : {}), file: target, hunk } };
    }
    default:
      return bad(textForm, `unknown evidence kind "${kind}" (expected ${EVIDENCE_KINDS.join(', ')})`);
  }
}

function bad(textForm: string, why: string): { ok: false; message: string } {
  return { ok: false, message: `evidence "${textForm}": ${why}` };
}

/** Why a link points at nothing in this task (an unknown attempt, test or spec), or undefined. */
export function evidenceProblem(link: EvidenceLink, task: CandidateTask): string | undefined {
  const hasAttempt = (a: string) => task.attempts.some((x) => x.id === a);
  switch (link.kind) {
    case 'trajectory_step':
      return hasAttempt(link.attempt) ? undefined : `evidence names attempt "${link.attempt}", which task ${task.id} does not have`;
    case 'test':
      return task.tests.some((t) => t.id === link.test) ? undefined : `evidence names test "${link.test}", which task ${task.id} does not have`;
    case 'spec':
    case 'finding':
      return task.specs.some((s) => s.id === link.spec) ? undefined : `evidence names spec "${link.spec}", which task ${task.id} does not have`;
    case 'diff_hunk':
      if (link.patch === 'attempt') {
        if (!link.attempt) return 'a diff hunk of an attempt patch needs the attempt';
        return hasAttempt(link.attempt) ? undefined : `evidence names attempt "${link.attempt}", which task ${task.id} does not have`;
      }
      if (link.patch === 'gold' && !task.files.goldPatch) return `task ${task.id} has no gold patch`;
      return undefined;
    case 'log_line':
      return undefined;
  }
}

/** The CLI's text form of a link, the inverse of `parseEvidence` (with the attempt spelled out). */
export function formatEvidence(link: EvidenceLink): string {
  switch (link.kind) {
    case 'trajectory_step':
      return `trajectory_step:${link.attempt}#${link.step}`;
    case 'test':
      return `test:${link.test}`;
    case 'spec':
      return `spec:${link.spec}`;
    case 'finding':
      return `finding:${link.findings}#${link.spec}`;
    case 'log_line':
      return `log_line:${link.run}#${link.stream ? `${link.stream}#` : ''}${link.line}`;
    case 'diff_hunk':
      return `diff_hunk:${link.patch === 'attempt' ? link.attempt : link.patch}@${link.file}#${link.hunk}`;
  }
}
