// A seeded dataset for the golden tests of the coupling and spec statistics (statsGolden.test.ts): every path the
// computation takes, on purpose: tasks with no spec, one spec and many; repeated spec ids, `dependsOn` naming
// unknown, repeated or the same spec; tests naming unknown or repeated specs; more than 32 attempts (several words
// of verdict bits); attempts without verifier results and attempts with recorded (imported) results only; unknown
// verdicts; labels by three curators that agree or disagree, unsure, stale after a revision, adjudicated, undone;
// six source datasets.
import type { CandidateTask, SpecVerdict } from '../../../src/core/model';
import type { ReviewEvent } from '../../../src/core/review/events';
import type { VerifierVerdicts } from '../../../src/core/review/verdicts';

export interface GoldenDataset {
  tasks: CandidateTask[];
  verdicts: VerifierVerdicts;
  events: ReviewEvent[];
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const CATS = ['data-transformation', 'parsing-representation', 'computation-algorithms', 'domain-protocol-rules', 'interface-io-contracts', 'control-flow-ordering', 'error-handling', 'compatibility'];
const SOURCES: Array<Record<string, unknown> | undefined> = [
  { importer: 'swebench' },
  { importer: 'swebench', flavor: 'swe-smith' },
  { importer: 'swebench', flavor: 'r2e-gym' },
  { importer: 'harbor' },
  undefined,
  { importer: 'my-tool' },
];
const CURATORS = ['carol', 'alice', 'bob'];
const VERDICTS = ['satisfied', 'violated', 'unsure'] as const;

/**
 * `tasks` tasks from `seed`; `simple` leaves out the odd cases (a large dataset of few distinct spec counts); `wide`
 * gives every task 17 to 40 specs (past the few the coupling finds by a scan).
 */
export function goldenDataset(tasks: number, seed: number, simple = false, wide = false): GoldenDataset {
  const rand = lcg(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const out: CandidateTask[] = [];
  const verdicts: VerifierVerdicts = {};
  const events: ReviewEvent[] = [];
  let clock = Date.UTC(2026, 10, 1);
  const event = (task: string, revision: number, kind: string, payload: unknown, curator: string): string => {
    const id = `E${String(events.length).padStart(9, '0')}`;
    clock += 1000;
    events.push({ id, time: new Date(clock).toISOString(), curator, task, revision, kind, payload } as ReviewEvent);
    return id;
  };
  for (let t = 0; t < tasks; t++) {
    const id = `task-${String(t).padStart(5, '0')}`;
    const nSpecs = wide ? int(17, 40) : simple ? int(8, 11) : t % 17 === 0 ? 0 : t % 19 === 0 ? 1 : int(2, 14);
    const nTests = nSpecs === 0 ? int(0, 3) : int(nSpecs, nSpecs * 2);
    const specs = Array.from({ length: nSpecs }, (_, i) => {
      const deps: string[] = [];
      if (i > 0 && rand() < 0.25) deps.push(`S${int(1, i)}`);
      if (!simple && rand() < 0.05) deps.push(`S${i + 1}`, 'S999');
      if (!simple && deps.length > 0 && rand() < 0.2) deps.push(deps[0] as string);
      // A repeated id now and then (the loader rejects it; the statistics must not break on it).
      const sid = !simple && i > 2 && rand() < 0.04 ? `S${int(1, i)}` : `S${i + 1}`;
      return { id: sid, text: `spec ${i + 1}`, category: CATS[int(0, simple ? 3 : CATS.length - 1)] as string, dependsOn: deps };
    });
    const tests = Array.from({ length: nTests }, (_, i) => {
      const mapped: string[] = [];
      if (nSpecs > 0) {
        mapped.push(`S${(i % nSpecs) + 1}`);
        if (rand() < 0.15) mapped.push(`S${int(1, nSpecs)}`);
        if (!simple && rand() < 0.05) mapped.push(`S${(i % nSpecs) + 1}`, 'S404');
      }
      return { id: `T${i + 1}`, name: `tests/test_m.py::t${i + 1}`, kind: 'fail_to_pass' as const, specs: mapped };
    });
    const nAttempts = simple ? int(3, 8) : t % 23 === 0 ? int(33, 70) : t % 29 === 0 ? 0 : int(1, 16);
    const recordedOnly = !simple && t % 7 === 3;
    const attempts = Array.from({ length: nAttempts }, (_, i) => {
      const recorded = recordedOnly && i % 2 === 0;
      const pass = tests.filter(() => rand() < 0.6).map((x) => x.name);
      const fail = tests.map((x) => x.name).filter((n) => !pass.includes(n));
      return {
        id: `a${i + 1}`,
        model: `m${i % 4}`,
        agent: '',
        dir: '',
        recordedResults: recorded
          ? [{ imported: true as const, source: 'swebench-report', file: `reports/${id}-${i}.json`, resolved: fail.length === 0, failToPass: { success: pass, failure: fail } }]
          : [],
      };
    });
    const source = SOURCES[t % SOURCES.length];
    out.push({
      id,
      title: id,
      revision: 1,
      repo: { name: 'x/y', kind: 'image' },
      environment: { image: 'i', workdir: '/repo', limits: { memoryMb: 1, cpus: 1, pids: 1 }, timeoutSec: 1 },
      specs,
      tests,
      verifier: { command: 'true', parser: 'pytest' },
      notes: [],
      ...(source ? { source } : {}),
      dir: `tasks/${id}`,
      files: { task: '', request: '', testPatch: '' },
      attempts,
    });
    if (!simple && t % 11 === 5) continue; // no verifier results at all: recorded ones or none
    const perAttempt: VerifierVerdicts[string]['attempts'] = {};
    for (const a of attempts) {
      if (a.recordedResults.length > 0) continue;
      if (!simple && rand() < 0.1) continue;
      const skill = rand();
      const sv: Record<string, SpecVerdict> = {};
      for (const s of specs) sv[s.id] = rand() < 0.07 ? 'unknown' : rand() < skill ? 'pass' : 'fail';
      perAttempt[a.id] = { source: 'run', runId: `r-${a.id}`, status: 'failed', specs: sv, tests: {}, revision: 1 };
    }
    verdicts[id] = { attempts: perAttempt, flags: [] };

    // Labels on a third of the tasks: up to three curators, some cells twice, a revision making some stale, an
    // adjudication, an undo.
    if (t % 3 !== 0 || nSpecs === 0 || nAttempts === 0) continue;
    let revision = 1;
    const curators = simple ? 1 : int(1, 3);
    for (let k = 0; k < int(2, 12); k++) {
      const a = attempts[int(0, nAttempts - 1)] as { id: string };
      const s = specs[int(0, nSpecs - 1)] as { id: string };
      const curator = CURATORS[int(0, curators - 1)] as string;
      const e = event(id, revision, 'label', { attempt: a.id, spec: s.id, verdict: VERDICTS[int(0, simple ? 1 : 2)], evidence: [] }, curator);
      if (!simple && rand() < 0.1) event(id, revision, 'undo', { event: e }, curator);
      if (!simple && rand() < 0.08) {
        event(id, revision + 1, 'revision', { from: revision, changedSpecs: [s.id] }, 'alice');
        revision++;
      }
      if (!simple && curators > 1 && rand() < 0.15) event(id, revision, 'adjudicate', { target: 'label', attempt: a.id, spec: s.id, verdict: VERDICTS[int(0, 2)] }, 'alice');
    }
  }
  return { tasks: out, verdicts, events };
}
