// Deep validation of a dataset: the fast load plus every file's content (patches, request, trajectories).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Dataset, Problem } from '../core/model';
import { notAPatch, parsePatch } from '../core/patch';
import { SYMLINK_OUT_MESSAGE } from '../core/paths';
import { DatasetFileError, openDataset, readDatasetText, repoPath, resolveDatasetPath } from '../adapters/fs/datasetLoader';
import { symlinksOut } from '../adapters/fs/datasetPaths';
import { summarizeTrajectory } from '../adapters/fs/trajectoryReader';

export interface ValidationReport {
  dataset: Dataset;
  problems: Problem[];
}

/**
 * Loads `root` with every check: all problems, sorted by file and line. Never changes anything on disk. A folder
 * without specweave.json throws NotADatasetError.
 */
export async function validateDataset(root: string, opts: { signal?: AbortSignal } = {}): Promise<ValidationReport> {
  const dataset = openDataset(root, { deep: true });
  const problems = [...dataset.problems];
  const read = (rel: string): string | undefined => {
    try {
      return readDatasetText(dataset.root, rel);
    } catch (e) {
      if (e instanceof DatasetFileError) return undefined; // the loader already reported missing or unsafe files
      throw e;
    }
  };
  const checkPatch = (rel: string) => {
    const text = read(rel);
    if (text === undefined) return;
    const bad = notAPatch(text, rel);
    if (bad) problems.push(bad);
    else problems.push(...parsePatch(text, rel).problems);
  };
  for (const task of dataset.tasks) {
    opts.signal?.throwIfAborted();
    const request = read(task.files.request);
    if (request !== undefined && request.trim().length === 0) {
      problems.push({ severity: 'warning', file: task.files.request, message: 'the request is empty' });
    }
    checkPatch(task.files.testPatch);
    if (task.files.goldPatch) checkPatch(task.files.goldPatch);
    if (task.specs.length === 0) {
      problems.push({ severity: 'warning', file: task.files.task, field: 'specs', message: 'the task has no specs yet' });
    }
    if (task.repo.kind === 'git') {
      const abs = repoPath(dataset.root, task.repo);
      if (!fs.existsSync(path.join(abs, '.git')) && !fs.existsSync(path.join(abs, 'HEAD'))) {
        problems.push({
          severity: 'warning',
          file: task.files.task,
          field: 'repo.path',
          message: `no git repository at ${abs}: diffs against base files and verifier runs need it`,
        });
      }
    }
    if (task.environment.dockerfile) {
      const rel = `${task.dir}/${task.environment.dockerfile}`;
      try {
        resolveDatasetPath(dataset.root, rel);
      } catch (e) {
        if (!(e instanceof DatasetFileError)) throw e;
        problems.push({ severity: 'error', file: task.files.task, field: 'environment.dockerfile', message: e.message });
      }
    }
    for (const a of task.attempts) {
      if (a.patchFile) checkPatch(a.patchFile);
      if (a.trajectoryFile) {
        let abs: string;
        try {
          abs = resolveDatasetPath(dataset.root, a.trajectoryFile);
        } catch (e) {
          if (!(e instanceof DatasetFileError)) throw e;
          continue;
        }
        const r = await summarizeTrajectory(abs, { fileLabel: a.trajectoryFile, datasetRoot: dataset.root, ...(opts.signal ? { signal: opts.signal } : {}) });
        if (!r.ok) problems.push(r.problem);
        else problems.push(...r.problems);
      }
    }
  }
  // Every symlink that leads out, wherever it is (runs/, curation/, a task's own files): nothing follows it.
  for (const rel of symlinksOut(dataset.root, opts.signal ? { signal: opts.signal } : {})) {
    problems.push({ severity: 'error', file: rel, message: SYMLINK_OUT_MESSAGE });
  }
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    // The same symlink is found by the listing, the reader and the walk: say it once (the most specific message).
    const key = p.message.startsWith(SYMLINK_OUT_MESSAGE) ? `${p.file}|symlink` : `${p.file}|${p.line ?? ''}|${p.field ?? ''}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : (x.line ?? 0) - (y.line ?? 0)));
  return { dataset, problems: unique };
}
