// Probe reports of one hand-made task, typed by the core's report types (what `specweave probe` writes), for the
// reader's unit tests and the Probes tab's webview test. `evil` puts hostile text in every field a curator reads.
import type { CheatReport } from '../../../src/core/probes/cheatReport';
import type { FullSuiteReport } from '../../../src/core/probes/fullSuite';
import type { AlternativesReport, LlmCallRecord, VariantsReport } from '../../../src/core/probes/llmPatches';
import type { MutationReport } from '../../../src/core/probes/mutantReport';

export const TASK_ID = 'format-precision';
export const PROBE_TASK = {
  id: TASK_ID,
  tests: [
    { id: 'T1', name: 'tests/test_fmt.py::test_minutes', kind: 'fail_to_pass' as const, specs: ['A1', 'A2'] },
    { id: 'T2', name: 'tests/test_fmt.py::test_default', kind: 'fail_to_pass' as const, specs: ['A1'] },
    { id: 'P1', name: 'tests/test_parse.py::test_units', kind: 'pass_to_pass' as const, specs: [] },
  ],
};
export const GOLD_PATCH = 'diff --git a/fmt.py b/fmt.py\n--- a/fmt.py\n+++ b/fmt.py\n@@ -1,1 +1,2 @@\n x = 1\n+if size < step: break\n';
export const MUTANT_PATCH = GOLD_PATCH.replace('if size < step: break', 'if False: break');
const LLM: LlmCallRecord = { model: 'm', answeredBy: 'm', promptVersion: '1', promptHash: 'h', costSource: 'none', tries: 1 };
const head = { format: 1 as const, taskId: TASK_ID, taskRevision: 1, createdAt: '2026-12-01T10:00:00.000Z', gold: { status: 'passed', reason: '' } };

export function mutantsReport(evil = ''): MutationReport {
  const m = { column: 5, status: 'passed', reason: '', failingTests: [], killedForSpecs: [] };
  return {
    ...head,
    generated: 3,
    ran: 3,
    counts: { killed: 1, survived: 1, did_not_apply: 0, timed_out: 1, out_of_memory: 0, error: 0 },
    score: 0.5,
    specs: [
      { spec: 'A1', killed: 1, survived: 0, untested: false },
      { spec: 'A2', killed: 0, survived: 1, untested: false },
    ],
    mutants: [
      { ...m, id: 'comparison-0000000001', operator: 'comparison', file: 'fmt.py', line: 7, before: 'a < b', after: 'a <= b', outcome: 'killed', status: 'failed', failingTests: ['tests/test_fmt.py::test_minutes'], killedForSpecs: ['A1'] },
      { ...m, id: 'guard-drop-0000000002', operator: 'guard-drop', file: `fmt${evil}.py`, line: 12, before: `if size < step: break${evil}`, after: 'if False: break', outcome: 'survived', patch: MUTANT_PATCH },
      { ...m, id: 'boolean-0000000003', operator: 'boolean', file: 'fmt.py', line: 3, before: 'True', after: 'False', outcome: 'timed_out', status: 'timeout' },
    ],
    skipped: [],
    unsupportedFiles: [],
  };
}

export function cheatsReport(evil = ''): CheatReport {
  const e = { files: ['conftest.py'], failingTests: [] };
  return {
    ...head,
    counts: { stopped: 2, passed: 1, did_not_apply: 0, timed_out: 0, error: 0 },
    defects: ['fake-passed-from-library'],
    exploits: [
      { ...e, id: 'edit-tests', title: 'edits the tests', outcome: 'stopped', stoppedBy: 'grading', status: 'failed', reason: '', flags: [] },
      { ...e, id: 'conftest-force-pass', title: 'forces a pass', outcome: 'stopped', stoppedBy: 'flags', status: 'passed', reason: '', flags: [{ kind: 'attempt_edits_test_plugins', message: 'x' }] },
      {
        ...e,
        id: 'fake-passed-from-library',
        title: `prints a fake session from the library${evil}`,
        outcome: 'passed',
        status: 'passed',
        reason: `resolved${evil}`,
        flags: [{ kind: 'attempt_edits_tests', message: 'y' }],
        patch: 'diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1,2 @@\n x\n+# specweave-cheat-probe\n',
      },
    ],
    skipped: [],
  };
}

export function alternativesReport(evil = ''): AlternativesReport {
  const a = { files: ['fmt.py'], notes: [], status: 'failed', reason: '', patch: GOLD_PATCH.replace('break', 'return') };
  return {
    ...head,
    kind: 'alternatives',
    llm: LLM,
    invalid: [],
    requested: 2,
    counts: { rejected: 1, accepted: 1, did_not_apply: 0, timed_out: 0, out_of_memory: 0, error: 0 },
    alternatives: [
      {
        ...a,
        id: 'alt-0000000001',
        summary: `reports the line as "line 3"${evil}`,
        outcome: 'rejected',
        failingTests: [
          { test: 'T1', name: 'tests/test_fmt.py::test_minutes', kind: 'fail_to_pass', status: 'FAILED', specs: ['A1', 'A2'], log: [] },
          { test: 'X9', name: `tests/test_fmt.py::test_extra${evil}`, kind: 'fail_to_pass', status: 'FAILED', specs: [], log: [] },
        ],
        specs: ['A1', 'A2'],
        beyondSpecs: [`tests/test_fmt.py::test_extra${evil}`],
      },
      { ...a, id: 'alt-0000000002', summary: 'another loop', outcome: 'accepted', status: 'passed', failingTests: [], specs: [], beyondSpecs: [] },
    ],
  };
}

export function variantsReport(evil = ''): VariantsReport {
  const v = { files: ['fmt.py'], notes: [], reason: '', failingTests: [], killedForSpecs: [], patch: GOLD_PATCH.replace('step', 'step + 1') };
  return {
    ...head,
    kind: 'variants',
    llm: LLM,
    invalid: [],
    requested: ['A1', 'A2'],
    counts: { killed: 1, survived: 1, did_not_apply: 0, timed_out: 0, out_of_memory: 0, error: 0 },
    specs: [],
    variants: [
      { ...v, id: 'var-A1-0000000001', spec: 'A1', summary: 'default minutes', outcome: 'killed', status: 'failed' },
      { ...v, id: 'var-A2-0000000002', spec: 'A2', summary: `rounds halves to even${evil}`, outcome: 'survived', status: 'passed' },
    ],
  };
}

export function fullSuiteReport(evil = ''): FullSuiteReport {
  const col = { status: 'passed', reason: '', reported: 10, failing: [] };
  return {
    ...head,
    command: 'python3 -m pytest -rA -p no:cacheprovider',
    derived: true,
    note: 'derived',
    gold: { ...col, attemptId: 'gold' },
    noise: ['tests/test_env.py::test_network'],
    attempts: [
      { ...col, attemptId: 'a1', breaks: [`tests/test_parse.py::test_single_units${evil}`] },
      { ...col, attemptId: 'a2', status: 'error', reason: 'infrastructure', breaks: null },
    ],
  };
}
