// Setting the image a task runs in (environment.image in its task.json), for a task whose task.json names none: the one edit,
// made in the file's own text (jsonc-parser's modify keeps the curator's formatting and every other field), written
// atomically inside the dataset (writeFileAtomicIn refuses a task.json symlinked out of it).
import { applyEdits, modify } from 'jsonc-parser';
import { TASK_FILE } from '../core/dataset';
import { parseJson, stripBom } from '../core/json';
import type { CandidateTask } from '../core/model';
import { readBytes, writeFileAtomicIn } from '../adapters/fs/datasetPaths';

/** A Docker image reference (`name[:tag][@sha256:digest]`, with an optional registry host): what `docker run` takes. */
const IMAGE_REF =
  /^(?:(?:localhost|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?::[0-9]{1,5})?\/|[A-Za-z0-9-]+:[0-9]{1,5}\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$/;

/** Why `ref` is no image reference, or undefined when it is one. */
export function imageRefProblem(ref: string): string | undefined {
  if (ref.trim() === '') return 'an image reference is needed, e.g. python:3.11-slim or specweave-base:bookworm';
  if (ref.length > 255) return 'an image reference is at most 255 characters';
  if (!IMAGE_REF.test(ref)) return `"${ref}" is not an image reference (name[:tag][@sha256:digest], lower-case name)`;
  return undefined;
}

export class SetImageError extends Error {}

/** Writes `image` as environment.image of the task's task.json; returns the file written (relative to the dataset). */
export function setTaskImage(root: string, task: Pick<CandidateTask, 'id' | 'dir'>, image: string): string {
  const problem = imageRefProblem(image);
  if (problem) throw new SetImageError(problem);
  const rel = `${task.dir}/${TASK_FILE}`;
  let raw: string;
  try {
    raw = readBytes(root, rel).toString('utf8');
  } catch (e) {
    throw new SetImageError(`${rel}: cannot read it: ${e instanceof Error ? e.message : String(e)}`);
  }
  const text = stripBom(raw);
  const parsed = parseJson(text, rel);
  if (!parsed.ok) throw new SetImageError(`${rel}: ${parsed.problem.message}; fix the file first`);
  const value = parsed.value as { environment?: unknown };
  if (value.environment !== undefined && (typeof value.environment !== 'object' || value.environment === null || Array.isArray(value.environment))) {
    throw new SetImageError(`${rel}: environment is not an object; fix the file first`);
  }
  // Only a missing image is set here: changing one a task already names is an edit of its environment, made in the
  // file (or a new revision), not a quick fix.
  const own = (value.environment as { image?: unknown } | undefined)?.image;
  if (typeof own === 'string' && own.trim() !== '') throw new SetImageError(`${rel}: the task names the image ${own} already; edit environment.image there to change it`);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n( +|\t)"/.exec(text)?.[1] ?? '  ';
  const edited = applyEdits(text, modify(text, ['environment', 'image'], image, { formattingOptions: { insertSpaces: indent !== '\t', tabSize: indent === '\t' ? 1 : indent.length, eol } }));
  writeFileAtomicIn(root, rel, raw === text ? edited : `\uFEFF${edited}`);
  return rel;
}
