// Everything the repair agent and the accept step read about one task: its files as written, the base texts of its
// test files from the task's clone (`git show <baseCommit>:<path>`), the test files as the test patch leaves them,
// the curation state, the verifier results with the output of the runs they rest on, and the trajectories.
import * as fs from 'node:fs';
import type { CandidateTask, TrajectoryStep } from '../core/model';
import { parseRecordJson } from '../core/json';
import { parsePatch } from '../core/patch';
import type { CurrentTaskTexts } from '../core/repair/revision';
import { splitPatch, testFilesAfterPatch } from '../core/repair/revision';
import type { TaskAssessment } from '../core/review/taskReview';
import { assessTask } from '../core/review/taskReview';
import type { TaskVerifierResults } from '../core/review/verdicts';
import { taskState } from '../core/review/reducer';
import type { CurationStore } from './curationStore';
import { readDatasetText, readDatasetTextIfExists, repoPath, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { gitShow } from '../adapters/fs/git';
import { listRuns, readRunLog } from '../adapters/fs/runStore';
import { readTrajectory } from '../adapters/fs/trajectoryReader';

export class RepairContextError extends Error {}

export interface RepairContext {
  task: CandidateTask;
  texts: CurrentTaskTexts & { taskJsonText: string; goldPatch?: string };
  attemptPatches: Map<string, string>;
  /** Base-commit texts of the test patch's files (undefined: not in the base commit). */
  baseFiles: Map<string, string | undefined>;
  assessment: TaskAssessment;
  verifier?: TaskVerifierResults;
  runLogs: Map<string, { runId: string; text: string }>;
  trajectories: Map<string, TrajectoryStep[]>;
  /** Things that could not be read; the prompt goes without them. */
  notes: string[];
}

/** Reads a base file of the task's repository; undefined when the base commit has no such file. */
export async function baseFile(root: string, task: CandidateTask, relPath: string): Promise<string | undefined> {
  if (task.repo.kind !== 'git') throw new RepairContextError(`task ${task.id}: its repository lives in the image ${task.environment.image}; the repair agent needs a local git clone to read the base files`);
  const r = await gitShow(repoPath(root, task.repo), task.repo.baseCommit, relPath);
  if (r.ok) return r.text;
  if (r.kind === 'no-path') return undefined;
  throw new RepairContextError(`task ${task.id}: cannot read ${relPath} at the base commit: ${r.message}`);
}

/** Base texts of every file the test patch touches (and of `extra` paths). */
export async function baseFilesFor(root: string, task: CandidateTask, testPatch: string, extra: string[] = []): Promise<Map<string, string | undefined>> {
  const paths = new Set<string>(extra);
  for (const f of parsePatch(testPatch).files) {
    if (f.oldPath) paths.add(f.oldPath);
    if (f.newPath) paths.add(f.newPath);
  }
  const out = new Map<string, string | undefined>();
  for (const p of paths) out.set(p, await baseFile(root, task, p));
  return out;
}

export interface ContextOptions {
  /** Read trajectories (default true); files larger than this many bytes are skipped. */
  trajectories?: boolean;
  maxTrajectoryBytes?: number;
  signal?: AbortSignal;
  /**
   * Read the base texts of the test patch's files from the clone (default true). Accepting a change of task.json or
   * request.md alone needs none, so a task whose repository lives in an image (a SWE-bench row) can take it.
   */
  baseFiles?: boolean;
}

export async function loadRepairContext(store: CurationStore, taskId: string, o: ContextOptions = {}): Promise<RepairContext> {
  store.refresh();
  const task = store.task(taskId);
  if (!task) throw new RepairContextError(`the dataset has no task "${taskId}"`);
  const root = store.root;
  const notes: string[] = [];
  const taskJsonText = readDatasetText(root, task.files.task);
  const parsedTask = parseRecordJson(taskJsonText);
  if (!parsedTask.ok) throw new RepairContextError(`${task.files.task}: ${parsedTask.message}`);
  const taskJson = parsedTask.value as Record<string, unknown>;
  const request = readDatasetText(root, task.files.request);
  const testPatch = readDatasetTextIfExists(root, task.files.testPatch) ?? '';
  const goldPatch = task.files.goldPatch ? readDatasetTextIfExists(root, task.files.goldPatch) : undefined;
  const attemptPatches = new Map<string, string>();
  for (const a of task.attempts) {
    if (!a.patchFile) continue;
    const t = readDatasetTextIfExists(root, a.patchFile);
    if (t !== undefined) attemptPatches.set(a.id, t);
  }
  const baseFiles = o.baseFiles === false ? new Map<string, string | undefined>() : await baseFilesFor(root, task, testPatch);
  // Keep only text files of the patch, in patch order.
  const testFiles = new Map<string, string | undefined>();
  if (o.baseFiles !== false) {
    const after = testFilesAfterPatch(testPatch, baseFiles);
    notes.push(...after.problems);
    for (const part of splitPatch(testPatch)) if (after.files.has(part.path)) testFiles.set(part.path, after.files.get(part.path));
  }

  const verifier = store.verifier(taskId);
  const assessment = assessTask({ task, state: taskState(store.state, taskId), ...(verifier ? { verifier } : {}), policy: store.policy });
  const runLogs = new Map<string, { runId: string; text: string }>();
  for (const [attemptId, v] of Object.entries(assessment.verifier.attempts)) {
    if (v.source !== 'run') continue;
    const rec = listRuns(root, taskId, attemptId).find((r) => r.runId === v.runId);
    if (!rec) continue;
    try {
      runLogs.set(attemptId, { runId: rec.runId, text: readRunLog(root, rec, 'stdout') });
    } catch (e) {
      notes.push(`the output of run ${rec.runId} cannot be read: ${(e as Error).message}`);
    }
  }
  const trajectories = new Map<string, TrajectoryStep[]>();
  if (o.trajectories !== false) {
    const max = o.maxTrajectoryBytes ?? 200 * 1024 * 1024;
    for (const a of task.attempts) {
      if (!a.trajectoryFile) continue;
      try {
        const abs = resolveDatasetPath(root, a.trajectoryFile);
        if (fs.statSync(abs).size > max) {
          notes.push(`${a.trajectoryFile} is larger than ${Math.round(max / 1048576)} MB; its steps are left out`);
          continue;
        }
        const r = await readTrajectory(abs, { fileLabel: a.trajectoryFile, datasetRoot: root, ...(o.signal ? { signal: o.signal } : {}) });
        if (r.ok) {
          trajectories.set(a.id, r.trajectory.steps);
          for (const p of r.problems) if (p.severity === 'error') notes.push(`${p.file}: ${p.message}`);
        } else notes.push(`${a.trajectoryFile}: ${r.problem.message}`);
      } catch (e) {
        if (o.signal?.aborted) throw e;
        notes.push(`${a.trajectoryFile}: ${(e as Error).message}`);
      }
    }
  }
  return {
    task,
    texts: { taskJson, taskJsonText, request, testPatch, testFiles, ...(goldPatch !== undefined ? { goldPatch } : {}) },
    attemptPatches,
    baseFiles,
    assessment,
    ...(verifier ? { verifier } : {}),
    runLogs,
    trajectories,
    notes,
  };
}
