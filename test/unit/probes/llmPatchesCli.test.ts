// How `specweave probe --alternatives/--variants` prints a report: the counts, each rejected alternative's failing
// tests with their specs (or "test beyond the specs") and log lines, each variant per spec; the model's text (a
// summary, a patch reason, a log line) is hostile and reaches the terminal inert.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLlmProbeReport } from '../../../src/cli/probe';
import type { AlternativesReport, VariantsReport } from '../../../src/core/probes/llmPatches';

const evil = 'x\x1b]0;pwned\x07\u202e\r';
const llm = { model: 'gpt-4o-mini', answeredBy: 'gpt-4o-mini', promptVersion: 'v', promptHash: 'h', costSource: 'price-table', tries: 1, costUsd: 0.0015 };
const base = { format: 1 as const, taskRevision: 1, createdAt: new Date(0).toISOString(), gold: { status: 'passed', reason: '' }, llm };

test('an alternatives report: the rejection with its test, specs and log lines; a test beyond the specs said so; hostile text inert', () => {
  const r: AlternativesReport = {
    ...base,
    kind: 'alternatives',
    taskId: 'total-command',
    requested: 3,
    counts: { rejected: 2, accepted: 0, did_not_apply: 1, timed_out: 0, out_of_memory: 0, error: 0 },
    invalid: [{ index: 3, reason: `patches[3]: it touches test file(s) tests/${evil}.py` }],
    alternatives: [
      {
        id: 'alt-0123456789',
        summary: `other words ${evil}`,
        files: ['durations/cli.py'],
        notes: [],
        outcome: 'rejected',
        status: 'failed',
        reason: '',
        failingTests: [{ test: 'TB3', name: 'tests/test_cli.py::test_total_reports_bad_line_location', kind: 'fail_to_pass', status: 'FAILED', specs: ['B4', 'B5'], log: [{ line: 42, text: `E   assert ${evil}` }] }],
        specs: ['B4', 'B5'],
        beyondSpecs: [],
        patch: '',
      },
      {
        id: 'alt-abcdefabcd',
        summary: 'print usage too',
        files: ['durations/cli.py'],
        notes: [],
        outcome: 'rejected',
        status: 'failed',
        reason: '',
        failingTests: [{ test: 'PB4', name: 'tests/test_cli.py::test_unknown_command_is_usage_error', kind: 'pass_to_pass', status: 'FAILED', specs: [], log: [] }],
        specs: [],
        beyondSpecs: ['PB4'],
        patch: '',
      },
      { id: 'alt-ffffffffff', summary: 'against other code', files: [], notes: [], outcome: 'did_not_apply', status: 'apply_failed', reason: 'the attempt patch did not apply', failingTests: [], specs: [], beyondSpecs: [], patch: '' },
    ],
  };
  const text = formatLlmProbeReport(r, 'probes/total-command/alternatives.json');
  assert.match(text, /alternatives: rejected 2 \(false-negative evidence\) {2}accepted 0 {2}did not apply 1/);
  assert.match(text, /failing TB3 tests\/test_cli\.py::test_total_reports_bad_line_location \(FAILED\) checks B4, B5/);
  assert.match(text, /log 42: E {3}assert x/);
  assert.match(text, /failing PB4 .*: test beyond the specs \(it maps to no spec\)/);
  assert.match(text, /did not apply alt-ffffffffff: against other code: the attempt patch did not apply/);
  assert.match(text, /report: probes\/total-command\/alternatives\.json/);
  for (const c of ['\x1b', '\x07', '\r', '\u202e']) assert.ok(!text.includes(c), JSON.stringify(c));
});

test('a variants report: per spec counts, the survivor named with its spec', () => {
  const r: VariantsReport = {
    ...base,
    kind: 'variants',
    taskId: 'format-precision',
    requested: ['A1', 'A2'],
    counts: { killed: 1, survived: 1, did_not_apply: 0, timed_out: 0, out_of_memory: 0, error: 0 },
    invalid: [],
    specs: [
      { spec: 'A1', variants: 1, killed: 1, survived: 0, other: 0, untested: false },
      { spec: 'A2', variants: 1, killed: 0, survived: 1, other: 0, untested: false },
    ],
    variants: [
      { id: 'var-A1-0000000000', spec: 'A1', summary: 'default m', files: [], notes: [], outcome: 'killed', status: 'failed', reason: '', failingTests: [{ test: 'TA9', name: 'x', kind: 'fail_to_pass', status: 'FAILED', specs: ['A1'], log: [] }], killedForSpecs: ['A1'], patch: '' },
      { id: 'var-A2-1111111111', spec: 'A2', summary: `half even ${evil}`, files: [], notes: [], outcome: 'survived', status: 'passed', reason: '', failingTests: [], killedForSpecs: [], patch: '' },
    ],
  };
  const text = formatLlmProbeReport(r, undefined);
  assert.match(text, /variants: survived 1 \(false-positive evidence\) {2}killed 1/);
  assert.match(text, /spec A2: 1 variant\(s\), survived 1, killed 0/);
  assert.match(text, /survived var-A2-1111111111 \(violates A2\): half even x/);
  assert.match(text, /killed var-A1-0000000000 \(violates A1\): default m by TA9/);
  for (const c of ['\x1b', '\x07', '\r', '\u202e']) assert.ok(!text.includes(c), JSON.stringify(c));
});
