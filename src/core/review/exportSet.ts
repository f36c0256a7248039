// The curated set: approved tasks only, with specs, tests, gold patch and provenance, plus a manifest of SHA-256
// sums. Everything here is a function of the dataset and the review log: no clock, sorted keys, sorted files, so the
// same log gives byte-identical output.
import { createHash } from 'node:crypto';
import type { CandidateTask, LabelOutcome } from '../model';
import { taskToJson } from '../serialize';
import type { TaskDraft } from '../serialize';
import type { ConsensusPolicy } from './consensus';
import type { ReviewState } from './reducer';
import type { TaskAssessment } from './taskReview';
import { assessTask } from './taskReview';
import type { VerifierVerdicts } from './verdicts';

export const EXPORT_FORMATS = ['specweave', 'swebench'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_MANIFEST = 'manifest.json';

/** The texts of a task's files, read by the caller. */
export interface TaskTexts {
  request: string;
  testPatch: string;
  goldPatch?: string;
}

export interface ExportInput {
  datasetName: string;
  format: ExportFormat;
  policy?: ConsensusPolicy;
  tasks: readonly CandidateTask[];
  state: ReviewState;
  verdicts?: VerifierVerdicts;
  /** Texts of the approved tasks' files, by task id. */
  texts: ReadonlyMap<string, TaskTexts>;
}

export interface ExportFile {
  /** Relative to the output folder, `/`-separated. */
  path: string;
  content: string;
}

export interface ExportPlan {
  files: ExportFile[];
  /** Ids of the exported tasks. */
  tasks: string[];
}

/** Tasks whose current status is approved, in id order. */
export function approvedTasks(tasks: readonly CandidateTask[], state: ReviewState): CandidateTask[] {
  return tasks.filter((t) => state.tasks.get(t.id)?.status === 'approved').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** JSON with every object's keys sorted, two-space indented, with a final newline. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) + '\n';
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) if (o[k] !== undefined) out[k] = sortKeys(o[k]);
  return out;
}

/** Who approved, when, under which waivers, on which verifier runs, with what the review found. */
export function provenanceOf(a: TaskAssessment): Record<string, unknown> {
  const st = a.state;
  const approval = st.approval;
  const outcomes: Record<string, Record<string, { verdict?: string; outcome: LabelOutcome; verifier: string }>> = {};
  for (const c of a.cells) {
    (outcomes[c.attempt] ??= {})[c.spec] = { ...(c.final !== undefined ? { verdict: c.final } : {}), outcome: c.outcome, verifier: c.verifier };
  }
  const runs = (approval?.runs ?? []).map((r) => {
    const v = a.verifier.attempts[r.attempt];
    const same = v && v.runId === r.run;
    return {
      attempt: r.attempt,
      run: r.run,
      ...(same ? { source: v.source, status: v.status, ...(v.resolved !== undefined ? { resolved: v.resolved } : {}), ...(v.imageId ? { imageId: v.imageId } : {}) } : {}),
    };
  });
  const curators = new Set<string>([...st.labels.keys(), ...st.scores.keys(), ...st.submitted.keys()]);
  return {
    task: a.task.id,
    revision: a.task.revision,
    approval: approval
      ? {
          by: approval.curator,
          at: approval.time,
          event: approval.event,
          waivers: approval.waivers,
          ...(approval.note !== undefined ? { note: approval.note } : {}),
          policy: approval.policy ?? a.policy,
        }
      : null,
    verifierRuns: runs,
    curators: [...curators].sort(),
    scores: a.scores.final,
    outcomes,
    suggestions: a.flags.filter((s) => s.decision).map((s) => ({ id: s.id, kind: s.kind, decision: s.decision?.decision, by: s.decision?.curator })),
    reviewEvents: st.events.length,
    ...(a.task.source !== undefined ? { source: a.task.source } : {}),
  };
}

function draftOf(t: CandidateTask): TaskDraft {
  const repo: TaskDraft['repo'] =
    t.repo.kind === 'git'
      ? { name: t.repo.name, path: t.repo.path, baseCommit: t.repo.baseCommit }
      : { name: t.repo.name, inImage: true, ...(t.repo.baseCommit !== undefined ? { baseCommit: t.repo.baseCommit } : {}) };
  return {
    id: t.id,
    title: t.title,
    revision: t.revision,
    repo,
    environment: { ...t.environment, limits: { ...t.environment.limits } },
    verifier: t.verifier,
    specs: t.specs.map((s) => ({ id: s.id, text: s.text, category: s.category, ...(s.dependsOn.length > 0 ? { dependsOn: s.dependsOn } : {}) })),
    tests: t.tests.map((x) => ({ id: x.id, name: x.name, kind: x.kind, ...(x.specs.length > 0 ? { specs: x.specs } : {}) })),
    ...(t.notes.length > 0 ? { notes: t.notes } : {}),
    ...(t.source !== undefined ? { source: t.source } : {}),
  };
}

function str(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : fallback;
}

/** A SWE-bench row (lists, not JSON-encoded strings, for FAIL_TO_PASS / PASS_TO_PASS) plus the specs. */
export function swebenchRow(t: CandidateTask, texts: TaskTexts, a: TaskAssessment): Record<string, unknown> {
  const src = t.source ?? {};
  const testsOf = (spec: string) => t.tests.filter((x) => x.specs.includes(spec)).map((x) => x.name);
  return {
    instance_id: str(src.instance_id, t.id),
    repo: t.repo.name,
    base_commit: t.repo.baseCommit ?? str(src.base_commit),
    patch: texts.goldPatch ?? '',
    test_patch: texts.testPatch,
    problem_statement: texts.request,
    hints_text: str(src.hints_text),
    created_at: str(src.created_at),
    version: str(src.version),
    environment_setup_commit: str(src.environment_setup_commit),
    FAIL_TO_PASS: t.tests.filter((x) => x.kind === 'fail_to_pass').map((x) => x.name),
    PASS_TO_PASS: t.tests.filter((x) => x.kind === 'pass_to_pass').map((x) => x.name),
    specs: t.specs.map((s) => ({ id: s.id, text: s.text, category: s.category, depends_on: s.dependsOn, tests: testsOf(s.id) })),
    ...(a.scores.final.difficulty !== undefined ? { difficulty: a.scores.final.difficulty } : {}),
    specweave_task_id: t.id,
    specweave_revision: t.revision,
  };
}

/** Every file of the curated set, sorted by path, the manifest last. */
export function planExport(input: ExportInput): ExportPlan {
  const policy = input.policy ?? 'adjudicate';
  const approved = approvedTasks(input.tasks, input.state);
  const files: ExportFile[] = [];
  const provenance: Record<string, unknown> = {};
  const rows: string[] = [];
  for (const t of approved) {
    const texts = input.texts.get(t.id);
    if (!texts) throw new Error(`no file texts given for approved task ${t.id}`);
    const a = assessTask({ task: t, state: input.state, ...(input.verdicts?.[t.id] ? { verifier: input.verdicts[t.id] } : {}), policy });
    const prov = provenanceOf(a);
    if (input.format === 'specweave') {
      const dir = `tasks/${t.id}`;
      files.push({ path: `${dir}/task.json`, content: taskToJson(draftOf(t)) });
      files.push({ path: `${dir}/request.md`, content: texts.request });
      files.push({ path: `${dir}/tests.patch`, content: texts.testPatch });
      if (texts.goldPatch !== undefined) files.push({ path: `${dir}/gold.patch`, content: texts.goldPatch });
      files.push({ path: `${dir}/provenance.json`, content: sortedJson(prov) });
    } else {
      rows.push(JSON.stringify(sortKeys(swebenchRow(t, texts, a))));
      provenance[t.id] = prov;
    }
  }
  if (input.format === 'specweave') {
    files.push({
      path: 'specweave.json',
      content: sortedJson({ format: 1, name: input.datasetName, description: `Curated set of ${input.datasetName}: ${approved.length} approved task(s).` }),
    });
  } else {
    files.push({ path: 'tasks.jsonl', content: rows.map((r) => r + '\n').join('') });
    files.push({ path: 'provenance.json', content: sortedJson({ tasks: provenance }) });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const last = input.state.events[input.state.events.length - 1];
  const manifest = {
    kind: 'specweave-curated-set',
    version: 1,
    dataset: input.datasetName,
    format: input.format,
    policy,
    tasks: approved.map((t) => t.id),
    reviewLog: { events: input.state.events.length, ...(last ? { lastEvent: last.id, lastTime: last.time } : {}) },
    files: files.map((f) => ({ path: f.path, bytes: Buffer.byteLength(f.content, 'utf8'), sha256: sha256Hex(f.content) })),
  };
  files.push({ path: EXPORT_MANIFEST, content: sortedJson(manifest) });
  return { files, tasks: approved.map((t) => t.id) };
}
