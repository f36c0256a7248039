// JSON Schema validation of the dataset files (schemas in /schema), with problems that name file, line and field.
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import manifestSchema from '../../schema/specweave.schema.json';
import taskSchema from '../../schema/task.schema.json';
import attemptSchema from '../../schema/attempt.schema.json';
import { fieldFromPointer, lineOfPointer } from './json';
import type { Problem } from './model';

export type SchemaKind = 'manifest' | 'task' | 'attempt';

const schemas: Record<SchemaKind, object> = { manifest: manifestSchema, task: taskSchema, attempt: attemptSchema };
// Two compilations per schema: a fast one that stops at the first error (the common, valid case) and one that
// collects every error, used only when the fast one fails.
const compiled = new Map<string, ValidateFunction>();
const ajvs: { first?: Ajv2020; all?: Ajv2020 } = {};

function validator(kind: SchemaKind, allErrors: boolean): ValidateFunction {
  const key = `${kind}:${allErrors}`;
  let v = compiled.get(key);
  if (!v) {
    const which = allErrors ? 'all' : 'first';
    const ajv = (ajvs[which] ??= new Ajv2020({ allErrors, strict: false, unicodeRegExp: false }));
    v = ajv.compile(schemas[kind]);
    compiled.set(key, v);
  }
  return v;
}

/** Validates `value` (parsed from `text`) against a schema; returns no problems when valid. */
export function validateSchema(kind: SchemaKind, value: unknown, text: string, file: string): Problem[] {
  return schemaIssues(kind, value, text, file).map((i) => i.problem);
}

/** A schema problem with the JSON pointer of the field it is about and the schema keyword that failed. */
export interface SchemaIssue {
  problem: Problem;
  pointer: string;
  keyword: string;
}

/** Like validateSchema, with each problem's pointer and keyword, for callers that keep what is valid. */
export function schemaIssues(kind: SchemaKind, value: unknown, text: string, file: string): SchemaIssue[] {
  if (validator(kind, false)(value)) return [];
  const v = validator(kind, true);
  v(value);
  return simplify(v.errors ?? []).map((err) => {
    const problem = toProblem(err, text, file);
    return { problem, pointer: pointerOf(err), keyword: err.keyword };
  });
}

function pointerOf(err: ErrorObject): string {
  if (err.keyword === 'required') return `${err.instancePath}/${(err.params as { missingProperty: string }).missingProperty}`;
  if (err.keyword === 'additionalProperties') return `${err.instancePath}/${(err.params as { additionalProperty: string }).additionalProperty}`;
  return err.instancePath;
}

/** `oneOf` failures produce one error per branch; keep the most useful ones. */
function simplify(errors: ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  const hasSpecific = (path: string) => errors.some((e) => e.instancePath === path && e.keyword !== 'oneOf');
  for (const e of errors) {
    if (e.keyword === 'oneOf' && hasSpecific(e.instancePath)) continue;
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}

function toProblem(err: ErrorObject, text: string, file: string): Problem {
  let pointer = err.instancePath;
  let message: string;
  switch (err.keyword) {
    case 'required':
      pointer = `${pointer}/${(err.params as { missingProperty: string }).missingProperty}`;
      message = 'required field is missing';
      break;
    case 'additionalProperties':
      pointer = `${pointer}/${(err.params as { additionalProperty: string }).additionalProperty}`;
      message = 'unknown field (check its spelling; see docs/format.md)';
      break;
    case 'enum':
      message = `must be one of ${((err.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'const':
      message = `must be ${JSON.stringify((err.params as { allowedValue: unknown }).allowedValue)}`;
      break;
    case 'oneOf':
      message = 'matches none of the allowed shapes (see docs/format.md)';
      break;
    default:
      message = err.message ?? 'is invalid';
  }
  const line = lineOfPointer(text, pointer);
  return { severity: 'error', file, ...(line !== undefined ? { line } : {}), field: fieldFromPointer(pointer), message };
}
