// The hashes of everything a verdict depends on: equal hashes mean a stored run can be reused; a difference says
// which input changed, so a result can be shown as stale.
import { createHash } from 'node:crypto';
import type { CandidateTask } from '../model';
import type { RunInputs } from './runResult';

/**
 * Bump when the driver script or the grading changes in a way that makes stored runs incomparable. 2: issue 9's
 * hardening: the attempt's patch first, the test files restored, then the test patch; a harness-owned JUnit report;
 * statuses settled as pytest does, the whole stream read, trust checks, skips, patch flags.
 */
export const VERIFIER_VERSION = 2;

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with sorted keys, so hashes do not depend on property order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

type HashedTask = Pick<CandidateTask, 'revision' | 'specs' | 'tests' | 'verifier' | 'environment' | 'repo'>;

export interface RunInputSources {
  task: HashedTask;
  testPatch: Uint8Array | string;
  attemptPatch: Uint8Array | string;
  imageId: string;
  /** The deadline actually used (a CLI `--timeout` overrides the task's). */
  timeoutSec: number;
}

export function runInputs(src: RunInputSources): RunInputs {
  const t = src.task;
  const parts = {
    verifierVersion: VERIFIER_VERSION,
    testPatch: sha256(src.testPatch),
    attemptPatch: sha256(src.attemptPatch),
    taskDefinition: sha256(canonicalJson({ revision: t.revision, specs: t.specs, tests: t.tests })),
    verifierCommand: sha256(canonicalJson(t.verifier)),
    environment: sha256(
      canonicalJson({ workdir: t.environment.workdir, limits: t.environment.limits, timeoutSec: src.timeoutSec }),
    ),
    repo: sha256(canonicalJson(t.repo)),
    imageId: src.imageId,
  };
  return { ...parts, key: sha256(canonicalJson(parts)) };
}

const LABELS: Record<Exclude<keyof RunInputs, 'key'>, string> = {
  verifierVersion: 'verifier version',
  testPatch: 'test patch',
  attemptPatch: 'attempt patch',
  taskDefinition: 'specs or tests',
  verifierCommand: 'verifier command',
  environment: 'environment (workdir, limits, timeout)',
  repo: 'repository or base commit',
  imageId: 'image',
};

/**
 * What changed between a stored run's inputs and the current ones; empty when the run is still current. A current
 * `imageId` of '' means "not known" (no engine contacted) and is not compared.
 */
export function staleReasons(stored: RunInputs, current: RunInputs): string[] {
  if (stored.key === current.key) return [];
  return (Object.keys(LABELS) as (keyof typeof LABELS)[])
    .filter((k) => !(k === 'imageId' && current.imageId === '') && stored[k] !== current[k])
    .map((k) => LABELS[k]);
}
