// Matching the task's test names to the reported ones (issue 9, item 21): a loose match (a prefix where one side is
// visibly cut, or the same name with other separators) counts only when it is unique both ways: one reported name
// for the test, and one test for the reported name. Otherwise the tests are MISSING.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestCase } from '../../../src/core/model';
import { gradeTests } from '../../../src/core/verify/grading';

const t = (name: string, kind: TestCase['kind'] = 'fail_to_pass'): TestCase => ({ id: name, name, kind, specs: [] });

test('a reported name cut short with "..." that two listed tests start with counts for neither', () => {
  const g = gradeTests([t('tests/test_x.py::test_with_a_rather_long_name'), t('tests/test_x.py::test_with_a_rather_long_name_too')], {
    'tests/test_x.py::test_with_a_rather_long_na...': 'PASSED',
  });
  assert.deepEqual(g.tests, {
    'tests/test_x.py::test_with_a_rather_long_name': 'MISSING',
    'tests/test_x.py::test_with_a_rather_long_name_too': 'MISSING',
  });
  assert.equal(g.resolved, false);
  assert.deepEqual(
    g.looseMatches.map((m) => [m.test, m.how, m.reported]),
    [
      ['tests/test_x.py::test_with_a_rather_long_name', 'ambiguous', ['tests/test_x.py::test_with_a_rather_long_na...']],
      ['tests/test_x.py::test_with_a_rather_long_name_too', 'ambiguous', ['tests/test_x.py::test_with_a_rather_long_na...']],
    ],
  );
});

test('a cut reported name that only one listed test starts with matches it', () => {
  const g = gradeTests([t('tests/test_x.py::test_with_a_rather_long_name'), t('tests/test_x.py::test_other', 'pass_to_pass')], {
    'tests/test_x.py::test_with_a_rather_long_na...': 'PASSED',
    'tests/test_x.py::test_other': 'PASSED',
  });
  assert.equal(g.resolved, true);
  assert.deepEqual(g.looseMatches.map((m) => m.how), ['prefix']);
});

test('a truncated listed id that several reported tests start with is MISSING, whatever their statuses', () => {
  // SWE-bench's whitespace split leaves `test_p[a` in datasets for both `test_p[a b]` and `test_p[a c]`.
  const both = gradeTests([t('t.py::test_p[a')], { 't.py::test_p[a b]': 'PASSED', 't.py::test_p[a c]': 'PASSED' });
  assert.deepEqual(both.tests, { 't.py::test_p[a': 'MISSING' });
  assert.deepEqual(both.looseMatches[0]?.reported, ['t.py::test_p[a b]', 't.py::test_p[a c]']);
  const one = gradeTests([t('t.py::test_p[a')], { 't.py::test_p[a b]': 'FAILED', 't.py::test_q[a c]': 'PASSED' });
  assert.deepEqual(one.tests, { 't.py::test_p[a': 'FAILED' });
});

test('a reported name two listed tests could claim (one exactly, one by prefix) is not given to the loose one', () => {
  const g = gradeTests([t('t.py::test_p[a b]'), t('t.py::test_p[a', 'pass_to_pass')], { 't.py::test_p[a b]': 'PASSED' });
  assert.deepEqual(g.tests, { 't.py::test_p[a b]': 'PASSED', 't.py::test_p[a': 'MISSING' });
  const nested = gradeTests([t('t.py::test_p[a'), t('t.py::test_p[a b')], { 't.py::test_p[a b c]': 'PASSED' });
  assert.deepEqual(nested.tests, { 't.py::test_p[a': 'MISSING', 't.py::test_p[a b': 'MISSING' });
});

test('normalised names (JUnit classname.name) match only when unique both ways too', () => {
  const g = gradeTests([t('tests/a.py::K::t'), t('tests/a/K.py::t')], { 'tests.a.K.t': 'PASSED' });
  assert.deepEqual(g.tests, { 'tests/a.py::K::t': 'MISSING', 'tests/a/K.py::t': 'MISSING' });
  const ok = gradeTests([t('tests/a.py::K::t')], { 'tests.a.K.t': 'PASSED' });
  assert.deepEqual(ok.tests, { 'tests/a.py::K::t': 'PASSED' });
});
