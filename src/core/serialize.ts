// Writes dataset files the way people like to read and diff them: stable key order, one short item per line.
import type { Limits, RecordedResult, ResultParser, TestKind } from './model';

/** A task as an importer or the repair agent produces it, before it is written to disk. */
export interface TaskDraft {
  id: string;
  title: string;
  revision?: number;
  repo: { name: string; path: string; baseCommit: string } | { name: string; inImage: true; baseCommit?: string };
  environment?: { image?: string; workdir?: string; timeoutSec?: number; limits?: Partial<Limits>; dockerfile?: string };
  verifier: { command: string; parser?: ResultParser; junitPath?: string; unpackTo?: string; goldCommand?: string };
  specs: Array<{ id: string; text: string; category: string; dependsOn?: string[] }>;
  tests: Array<{ id: string; name: string; kind: TestKind; specs?: string[] }>;
  notes?: string[];
  source?: Record<string, unknown>;
}

export interface AttemptDraft {
  model: string;
  agent?: string;
  run?: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  claimed?: { status?: string; summary?: string };
  patch?: string;
  trajectory?: string;
  recordedResults?: RecordedResult[];
}

const TASK_KEYS = ['id', 'title', 'revision', 'repo', 'environment', 'verifier', 'specs', 'tests', 'notes', 'source'];
const ATTEMPT_KEYS = ['model', 'agent', 'run', 'costUsd', 'tokens', 'claimed', 'patch', 'trajectory', 'recordedResults'];

export function taskToJson(task: TaskDraft): string {
  return formatJson(ordered(task as unknown as Record<string, unknown>, TASK_KEYS)) + '\n';
}

export function attemptToJson(attempt: AttemptDraft): string {
  return formatJson(ordered(attempt as unknown as Record<string, unknown>, ATTEMPT_KEYS)) + '\n';
}

function ordered(obj: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj).sort()) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/**
 * JSON with two-space indentation where a container that fits in `width` columns stays on one line, so a list
 * of tests diffs as one line per test.
 */
export function formatJson(value: unknown, width = 118): string {
  return fmt(value, '', width);
}

function fmt(value: unknown, indent: string, width: number): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) return 'null';
  if (value === null || typeof value !== 'object') return flat;
  if (indent.length + flat.length <= width && !containsLongContainer(value)) return spaced(value);
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + fmt(v, inner, width)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${fmt(v, inner, width)}`).join(',\n')}\n${indent}}`;
}

/** Nested objects inside arrays of objects stay readable only when short; keep deep nesting multi-line. */
function containsLongContainer(value: object): boolean {
  const depth = (v: unknown): number =>
    v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v as object).map(depth)) : 0;
  return depth(value) > 2;
}

/** One-line JSON with a space after `:` and `,` outside strings, for readability. */
function spaced(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(spaced).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${spaced(v)}`).join(', ')} }`.replace('{  }', '{}');
}
