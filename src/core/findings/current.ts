// Which of the review agent's findings are current for a task: per attempt and spec, the finding of the latest
// `review.findings` event on the attempt's current patch (findings on an older patch are history), with its
// dismissal, the curators whose label accepted it, and whether its spec changed since (stale, as labels are). Also
// what accepting one records: the curator's own label, with the finding and its citations as evidence.
import type { CandidateTask, CuratorVerdict } from '../model';
import type { EvidenceLink } from '../review/evidence';
import type { FindingDismissal, TaskReviewState } from '../review/reducer';
import { findingKey, staleSince } from '../review/reducer';
import type { Finding, FindingCitation } from './model';

export interface CurrentFinding {
  attempt: string;
  spec: string;
  /** Id of the `review.findings` event that holds it. */
  event: string;
  time: string;
  /** Task revision the event was made against. */
  revision: number;
  model: string;
  promptVersion: string;
  /** The verifier run the agent was shown, if any. */
  run?: string;
  finding: Finding;
  /** Its spec's content changed since the event's revision: shown, not counted as unconfirmed. */
  stale: boolean;
  dismissal?: FindingDismissal;
  /** Curators whose current label on the pair cites this finding (`finding` evidence). */
  acceptedBy: string[];
}

/**
 * The current findings of a task, attempt-major in the task's order of attempts and specs. `patchHashes` is the
 * SHA-256 (hex) of each attempt's current patch bytes; an attempt without one (no patch on disk) has no current
 * findings. Specs the task no longer has are left out.
 */
export function currentFindings(task: CandidateTask, st: TaskReviewState, patchHashes: ReadonlyMap<string, string>): CurrentFinding[] {
  if (st.findings.length === 0) return [];
  // The latest event per (attempt, spec): events are in log order, so a later one replaces an earlier one.
  const latest = new Map<string, { rec: TaskReviewState['findings'][number]; finding: Finding }>();
  for (const rec of st.findings) {
    const p = rec.payload;
    const hash = patchHashes.get(p.attempt);
    if (hash === undefined || hash !== p.patchHash) continue;
    for (const f of p.findings) latest.set(`${p.attempt}\u0000${f.spec}`, { rec, finding: f });
  }
  const out: CurrentFinding[] = [];
  for (const a of task.attempts) {
    for (const s of task.specs) {
      const hit = latest.get(`${a.id}\u0000${s.id}`);
      if (!hit) continue;
      const { rec, finding } = hit;
      const dismissal = st.findingDismissals.get(findingKey(rec.event, s.id));
      const acceptedBy: string[] = [];
      for (const [curator, labels] of st.labels) {
        const l = labels.get(`${a.id}\u0000${s.id}`);
        if (l && l.evidence.some((e) => e.kind === 'finding' && e.findings === rec.event && e.spec === s.id)) acceptedBy.push(curator);
      }
      out.push({
        attempt: a.id,
        spec: s.id,
        event: rec.event,
        time: rec.time,
        revision: rec.revision,
        model: rec.payload.model,
        promptVersion: rec.payload.promptVersion,
        ...(rec.payload.run !== undefined ? { run: rec.payload.run } : {}),
        finding,
        stale: staleSince(st, s.id, rec.revision),
        ...(dismissal ? { dismissal } : {}),
        acceptedBy: acceptedBy.sort(),
      });
    }
  }
  return out;
}

/** A candidate (false positive or negative) nobody has accepted or dismissed yet, on a spec unchanged since. */
export function isUnconfirmed(f: CurrentFinding): boolean {
  return f.finding.candidate !== undefined && !f.stale && f.dismissal === undefined && f.acceptedBy.length === 0;
}

/** How many of a task's current findings are unconfirmed candidates (the candidates tree's filter and sort). */
export function unconfirmedCount(findings: readonly CurrentFinding[]): number {
  let n = 0;
  for (const f of findings) if (isUnconfirmed(f)) n++;
  return n;
}

/**
 * A citation as an evidence link of a label on `attempt`. Request sentences have no evidence kind (a label points at
 * places in the attempt, its run and the tests): they are left out of the label and stay readable on the finding.
 */
export function citationLink(c: FindingCitation, attempt: string): EvidenceLink | undefined {
  switch (c.kind) {
    case 'trajectory_step':
      return { kind: 'trajectory_step', attempt, step: c.step };
    case 'diff_hunk':
      return { kind: 'diff_hunk', patch: 'attempt', attempt, file: c.file, hunk: c.hunk };
    case 'test':
      return { kind: 'test', test: c.test };
    case 'log_line':
      return { kind: 'log_line', run: c.run, line: c.line };
    case 'request_sentence':
      return undefined;
  }
}

/** The label accepting a finding records: the finding's judgment as the verdict; the finding, then its citations, as evidence. */
export function acceptedLabel(f: Pick<CurrentFinding, 'attempt' | 'spec' | 'event' | 'finding'>): { attempt: string; spec: string; verdict: CuratorVerdict; evidence: EvidenceLink[] } {
  const evidence: EvidenceLink[] = [{ kind: 'finding', findings: f.event, spec: f.spec }];
  const seen = new Set<string>();
  for (const c of f.finding.citations) {
    const l = citationLink(c, f.attempt);
    if (!l) continue;
    const k = JSON.stringify(l);
    if (seen.has(k)) continue;
    seen.add(k);
    evidence.push(l);
  }
  // A label holds at most 200 links (the protocol's cap); the finding itself comes first.
  return { attempt: f.attempt, spec: f.spec, verdict: f.finding.judgment, evidence: evidence.slice(0, 200) };
}
