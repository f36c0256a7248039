// One benchmark row as the importer needs it, whatever benchmark wrote it, and the field reader the row shapes share:
// strings, test lists in every encoding the benchmarks use (lists, JSON strings, Python reprs), problems with the
// row's file, line and field.
import type { Problem, ResultParser } from '../model';
import { parsePyLiteral } from './pyLiteral';

export type InstanceFlavor =
  | 'swe-bench'
  | 'swe-smith'
  | 'swe-rebench'
  | 'swe-bench-pro'
  | 'multi-swe-bench'
  | 'swe-bench-live'
  | 'swe-polybench'
  | 'r2e-gym'
  | 'scale-swe';

/** The test command a row carries, and where in the row it was found. */
export interface RowCommand {
  /** Shell lines, run in order. */
  command: string;
  /** The row field(s) it came from, for the report. */
  from: string;
  /** The test patch's files are appended (SWE-rebench V1's string `test_cmd`, as its harness appends them). */
  appendTargets?: boolean;
}

export interface InstanceRow {
  instanceId: string;
  /** `owner/name` for SWE-bench rows; SWE-smith uses its mirror's name. */
  repo: string;
  baseCommit?: string;
  /** The gold patch (SWE-bench); for SWE-smith rows the patch that introduces the bug. */
  patch?: string;
  testPatch?: string;
  problemStatement: string;
  hintsText?: string;
  /** SWE-bench Pro's `requirements` and `interface`: part of the request, as the producer writes them. */
  requirements?: string;
  interface?: string;
  createdAt?: string;
  version?: string;
  environmentSetupCommit?: string;
  difficulty?: string;
  failToPass: string[];
  passToPass: string[];
  imageName?: string;
  /** Where the image holds the repository, when not the manifest's default (`/testbed`). */
  workdir?: string;
  command?: RowCommand;
  /** The row's own log parser as it names it (`parse_log_gotest`), or SWE-bench-Live's Python source. */
  logParser?: string;
  /** A parser the benchmark is known to grade this row with (by its repository or language). */
  parser?: ResultParser;
  /** Why the benchmark's way of reading this row's output is not one SpecWeave has. */
  noParser?: string;
  /** The task's language, lower case, when the row or its benchmark says. */
  language?: string;
  /** What `{tests}` and a row's run script are given instead of the test patch's files (SWE-bench Pro). */
  testTargets?: string[];
  /** Where the benchmark keeps the test command when the row has none (said when no command is known). */
  commandHint?: string;
  /** Row fields kept in the task's `source` as they are. */
  extraSource?: Record<string, unknown>;
  /** What the task's notes should say about the row (fields not used, and why). */
  notes?: string[];
  flavor: InstanceFlavor;
  file: string;
  line: number;
}

/** Reads one row's fields, reporting problems with the row's file, line and (once known) instance id. */
export class RowFields {
  instanceId?: string;

  constructor(
    readonly v: Record<string, unknown>,
    readonly file: string,
    readonly line: number,
    private readonly problems: Problem[],
  ) {}

  has(name: string): boolean {
    return this.v[name] !== undefined && this.v[name] !== null;
  }

  problem(field: string, message: string, severity: Problem['severity'] = 'error'): void {
    this.problems.push({ severity, file: this.file, line: this.line, field, message: this.instanceId ? `${this.instanceId}: ${message}` : message });
  }

  /** A string field; numbers become strings, anything else is a warning and ignored. */
  str(name: string, from: Record<string, unknown> = this.v, label = name): string | undefined {
    const x = from[name];
    if (x === undefined || x === null) return undefined;
    if (typeof x === 'string') return x;
    if (typeof x === 'number') return String(x);
    this.problem(label, `expected a string, found ${Array.isArray(x) ? 'a list' : typeof x}; the field is ignored`, 'warning');
    return undefined;
  }

  /** A non-empty trimmed string, or undefined. */
  text(name: string, from?: Record<string, unknown>, label?: string): string | undefined {
    const s = this.str(name, from, label);
    return s !== undefined && s.trim() ? s : undefined;
  }

  /** Shell lines from a string or a list of strings, in order. */
  lines(name: string, from: Record<string, unknown> = this.v, label = name): string[] | undefined {
    const x = from[name];
    if (x === undefined || x === null) return undefined;
    if (typeof x === 'string') return x.trim() ? [x.trim()] : [];
    if (Array.isArray(x) && x.every((c) => typeof c === 'string')) return (x as string[]).map((c) => c.trim()).filter(Boolean);
    this.problem(label, `${label} must be a command or a list of commands; the field is ignored`, 'warning');
    return undefined;
  }

  /**
   * A list of test ids: a real list, a JSON-encoded one, or a Python repr (`"['a', 'b']"`, SWE-bench Pro and
   * SWE-PolyBench). Undefined when present but unreadable (an error: the row is skipped); [] with a warning when absent.
   */
  tests(name: string, label = name, what = 'tests'): string[] | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) {
      this.problem(label, `no ${label}: the task gets no ${what}`, 'warning');
      return [];
    }
    const list = decodeList(x);
    if (list === undefined) {
      this.problem(
        label,
        typeof x === 'string'
          ? `${label} is a string but not a JSON-encoded list (nor a Python list literal); the row is skipped`
          : `${label} must be a list of test ids (or a JSON- or Python-encoded one); the row is skipped`,
      );
      return undefined;
    }
    return list;
  }

  /** An optional list of test ids kept as provenance (SWE-rebench's FAIL_TO_FAIL): undefined when absent or unreadable. */
  optionalTests(name: string): string[] | undefined {
    const x = this.v[name];
    if (x === undefined || x === null) return undefined;
    const list = decodeList(x);
    if (list === undefined) this.problem(name, `${name} is not a list of test ids; it is not kept`, 'warning');
    return list;
  }
}

/** A list of strings as benchmarks encode it: a list, a JSON string, or a Python literal string. */
export function decodeList(x: unknown): string[] | undefined {
  let list: unknown = x;
  if (typeof x === 'string') {
    const s = x.trim();
    if (s === '') return [];
    try {
      list = JSON.parse(s);
    } catch {
      const py = parsePyLiteral(s);
      if (!py.ok || s.slice(py.end).trim() !== '') return undefined;
      list = py.value;
    }
  }
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) return undefined;
  return list as string[];
}
