// Crossing findings with the verifier (issue 13): per spec, the verdict of the spec's tests on the attempt's latest
// run (core/verify/specVerdicts.ts). `violated` while they pass is a false-positive candidate (the tests accept what
// the spec forbids); `satisfied` while they fail is a false-negative candidate (the tests reject what the spec
// allows). Every finding gets the verdict it was crossed with; without a run it is `unknown`.
import type { SpecVerdict } from '../model';
import type { Finding, FindingCandidate } from './model';

export function crossFindings(findings: readonly Finding[], verdicts: Record<string, SpecVerdict> | undefined): Finding[] {
  return findings.map((f) => {
    const verifierVerdict = verdicts?.[f.spec] ?? 'unknown';
    const candidate: FindingCandidate | undefined = f.judgment === 'violated' && verifierVerdict === 'pass' ? 'false_positive' : f.judgment === 'satisfied' && verifierVerdict === 'fail' ? 'false_negative' : undefined;
    const { candidate: _c, verifierVerdict: _v, ...rest } = f;
    return { ...rest, verifierVerdict, ...(candidate ? { candidate } : {}) };
  });
}

/** Findings that are candidates, by kind. */
export function candidateCounts(findings: readonly Finding[]): Record<FindingCandidate, number> {
  const out: Record<FindingCandidate, number> = { false_positive: 0, false_negative: 0 };
  for (const f of findings) if (f.candidate) out[f.candidate]++;
  return out;
}
