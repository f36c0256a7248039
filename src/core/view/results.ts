// The verifier's results in the task view: the test x column and spec x column matrices (gold, empty, every attempt)
// from a task's verifier results (our stored runs, else imported ones), and the read-only log of one run with the
// line where a test's result appears.
import type { CandidateTask } from '../model';
import type { AttemptVerifierResult, TaskVerifierResults } from '../review/verdicts';
import { EMPTY_PROBE, GOLD_PROBE } from '../model';
import type { VerifierRunRecord } from '../verify/runResult';
import type { ResultsView } from '../../protocol/messages';

const GRADED = new Set(['passed', 'failed']);

/** Columns of the results: the gold patch (when the task has one or it was run), the empty patch, every attempt. */
export function resultColumns(task: CandidateTask, results: TaskVerifierResults): string[] {
  const cols: string[] = [];
  if (task.files.goldPatch || results.attempts[GOLD_PROBE]) cols.push(GOLD_PROBE);
  cols.push(EMPTY_PROBE);
  for (const a of task.attempts) cols.push(a.id);
  return cols;
}

function cellOf(r: AttemptVerifierResult, testName: string): string | undefined {
  // A run that never got graded (did not apply, timed out, invalid...) says why in every cell: not a row of MISSING,
  // and not the statuses an untrusted log claimed (an `invalid` run may hold forged PASSED lines).
  if (r.source === 'run' && !GRADED.has(r.status)) return r.status;
  return r.tests[testName];
}

/**
 * The results matrices of a task; undefined when nothing was verified or imported for it (the task view then shows
 * no Results tab).
 */
export function resultsView(task: CandidateTask, results: TaskVerifierResults): ResultsView | undefined {
  if (Object.keys(results.attempts).length === 0) return undefined;
  const columns = resultColumns(task, results);
  const idOfTest = new Map(task.tests.map((t) => [t.name, t.id]));
  const tests: ResultsView['tests'] = {};
  for (const t of task.tests) {
    const row: Record<string, string> = {};
    for (const c of columns) {
      const r = results.attempts[c];
      const v = r ? cellOf(r, t.name) : undefined;
      if (v !== undefined) row[c] = v;
    }
    tests[t.id] = row;
  }
  const specs: ResultsView['specs'] = {};
  for (const s of task.specs) {
    const row: ResultsView['specs'][string] = {};
    for (const c of columns) {
      const v = results.attempts[c]?.specs[s.id];
      if (v !== undefined) row[c] = v;
    }
    specs[s.id] = row;
  }
  const runs: ResultsView['runs'] = {};
  for (const c of columns) {
    const r = results.attempts[c];
    if (!r) continue;
    runs[c] = {
      runId: r.runId,
      status: r.status,
      stale: r.stale === true,
      ...(r.resolved !== undefined ? { resolved: r.resolved } : {}),
      source: r.source,
      ...(r.staleReasons && r.staleReasons.length > 0 ? { staleReasons: [...r.staleReasons] } : {}),
    };
  }
  const flags: ResultsView['flags'] = results.flags.map((f) => {
    const testId = f.test !== undefined ? (idOfTest.get(f.test) ?? f.test) : undefined;
    return {
      kind: f.kind,
      message: f.message,
      ...(testId !== undefined ? { testId } : {}),
      ...(f.spec !== undefined ? { specId: f.spec } : {}),
      ...(f.attempt !== undefined ? { column: f.attempt } : {}),
    };
  });
  return { columns, tests, specs, runs, flags };
}

/** A column's short verdict for the attempts region, from our own run (imported verdicts are shown already). */
export function runVerdict(r: AttemptVerifierResult | undefined): string | undefined {
  if (!r || r.source !== 'run') return undefined;
  const what = r.status === 'passed' ? 'resolved' : r.status === 'failed' ? 'unresolved' : r.status.replace(/_/g, ' ');
  return `${what} (verifier${r.stale ? ', stale' : ''})`;
}

// ---- the log of a run ---------------------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g;
const STATUS_WORDS = '(?:PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface TestLine {
  /** 0-based line in the text searched. */
  line: number;
  /** `failure`: the header of the test's failure report; `result`: a line stating its status; `mention`: any line naming it. */
  how: 'failure' | 'result' | 'mention';
}

/**
 * Where a test's result appears in a test runner's output: for a failing test the header of its failure report
 * (`____ test_x ____`, where the traceback is), else the line stating its status (pytest's `-rA` summary
 * `PASSED path::test_x` or the verbose `path::test_x PASSED`), else any line naming it. Undefined when the log never
 * names the test.
 */
export function findTestLine(text: string, testName: string, opts: { failing?: boolean; fromLine?: number } = {}): TestLine | undefined {
  const lines = text.split('\n').map((l) => l.replace(ANSI, '').replace(/\r$/, ''));
  const from = opts.fromLine ?? 0;
  const name = testName.trim();
  if (name === '') return undefined;
  const short = name.includes('::') ? name.slice(name.lastIndexOf('::') + 2) : name;
  // pytest titles a failure with the test's name inside its class: `Class.test_x` for `path::Class::test_x`.
  const parts = name.split('::');
  const titled = parts.length > 2 ? parts.slice(1).join('.') : short;
  const n = escapeRe(name);
  const end = '(?=\\s|$)';
  const summary = new RegExp(`^${STATUS_WORDS} ${n}${end}`);
  const verbose = new RegExp(`^${n} ${STATUS_WORDS}${end}`);
  const failure = new RegExp(`^_{3,} (?:${escapeRe(titled)}|${escapeRe(short)}) _{3,}$`);
  const find = (re: RegExp): number => {
    for (let i = from; i < lines.length; i++) if (re.test(lines[i] as string)) return i;
    return -1;
  };
  if (opts.failing) {
    const f = find(failure);
    if (f >= 0) return { line: f, how: 'failure' };
  }
  const s = find(summary);
  if (s >= 0) return { line: s, how: 'result' };
  const v = find(verbose);
  if (v >= 0) return { line: v, how: 'result' };
  const mentionOf = (needle: string): number => {
    for (let i = from; i < lines.length; i++) if ((lines[i] as string).includes(needle)) return i;
    return -1;
  };
  const m = mentionOf(name);
  if (m >= 0) return { line: m, how: 'mention' };
  if (short !== name && short.length >= 4) {
    const ms = mentionOf(short);
    if (ms >= 0) return { line: ms, how: 'mention' };
  }
  return undefined;
}

export interface RunLogDocument {
  text: string;
  /** 0-based line where the tests' stdout starts in `text`. */
  stdoutLine: number;
  /** How many lines of `text` are stdout (0: none, or no run). */
  stdoutLines: number;
  /** 0-based line where stderr starts, when there is any. */
  stderrLine?: number;
  stderrLines: number;
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? '?' : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The text of a run's log as shown in the editor: a short header (what ran, the status and why, how the patches
 * applied), the driver's report, the tests' stdout, then stderr.
 */
export function runLogDocument(r: VerifierRunRecord, stdout: string, stderr: string): RunLogDocument {
  const head = [
    `# SpecWeave verifier run ${r.runId}`,
    `# task ${r.taskId} (revision ${r.taskRevision}), ${r.attemptId === GOLD_PROBE ? 'gold patch' : r.attemptId === EMPTY_PROBE ? 'empty patch' : `attempt ${r.attemptId}`}${r.repeat > 1 ? `, repeat ${r.repeat}` : ''}`,
    `# status ${r.status}${r.resolved ? ' (resolved)' : ''}: ${r.reason.replace(/\s*\n\s*/g, ' ')}`,
    `# image ${r.image}${r.imageId ? ` (${r.imageId.slice(0, 19)})` : ''}, started ${r.timings.startedAt}, took ${seconds(r.timings.totalMs)}, exit code ${r.exitCode ?? 'none'}`,
    `# patches: tests ${r.apply.test.method}, ${r.attemptId === EMPTY_PROBE ? 'none' : `attempt ${r.apply.attempt.method}`}`,
    `# stdout ${r.stdout.totalBytes} bytes${r.stdout.cutBytes ? ` (${r.stdout.cutBytes} cut in the middle)` : ''}, stderr ${r.stderr.totalBytes} bytes${r.stderr.cutBytes ? ` (${r.stderr.cutBytes} cut)` : ''}`,
  ];
  const lines: string[] = [...head];
  const report = r.driverReport.trimEnd();
  if (report) lines.push('', '---- patches (driver report) ----', ...report.split('\n'));
  lines.push('', '---- stdout ----');
  const stdoutLine = lines.length;
  const out = stdout.replace(/\n$/, '');
  const err = stderr.replace(/\n$/, '');
  const body = [lines.join('\n'), out];
  const tail = ['', '---- stderr ----', err || '(empty)'].join('\n');
  // An empty stdout still takes one (empty) line of the text; it is not a line to cite.
  const stdoutLines = out === '' ? 0 : out.split('\n').length;
  const stderrLine = stdoutLine + Math.max(1, stdoutLines) + 2;
  return { text: `${body.join('\n')}\n${tail}\n`, stdoutLine, stdoutLines, ...(err ? { stderrLine, stderrLines: err.split('\n').length } : { stderrLines: 0 }) };
}
