import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Spec, TestCase } from '../../../src/core/model';
import type { EditResult, SpecOp } from '../../../src/core/specs/edit';
import { changedSpecsBetween, editSpecs, nextSpecId } from '../../../src/core/specs/edit';
import { SPEC_CATEGORIES } from '../../../src/core/specs/categories';

const specs: Spec[] = [
  { id: 'B1', text: 'Parses a total line.', category: 'parsing-representation', dependsOn: [] },
  { id: 'B2', text: 'Sums the durations.', category: 'computation-algorithms', dependsOn: ['B1'] },
  { id: 'B3', text: 'Reports bad lines.', category: 'error-handling', dependsOn: ['B1'] },
];
const tests: TestCase[] = [
  { id: 'T1', name: 'tests/test_a.py::test_parse', kind: 'fail_to_pass', specs: ['B1'] },
  { id: 'T2', name: 'tests/test_a.py::test_sum', kind: 'fail_to_pass', specs: ['B2'] },
  { id: 'T3', name: 'tests/test_a.py::test_bad', kind: 'pass_to_pass', specs: ['B3', 'B1'] },
  { id: 'T4', name: 'tests/test_b.py::test_same', kind: 'pass_to_pass', specs: [] },
  { id: 'T5', name: 'tests/test_b.py::test_same', kind: 'pass_to_pass', specs: [] },
];

function ok(r: EditResult): Extract<EditResult, { ok: true }> {
  if (!r.ok) assert.fail(r.errors.map((e) => `${e.code}: ${e.message}`).join('\n'));
  return r;
}
function errs(r: EditResult): string[] {
  assert.equal(r.ok, false, 'expected the edit to be refused');
  return r.ok ? [] : r.errors.map((e) => `${e.code}: ${e.message}`);
}
const edit = (op: SpecOp, opts = {}) => editSpecs(specs, tests, op, opts);
const mapOf = (ts: TestCase[]) => Object.fromEntries(ts.map((t) => [t.id, [...t.specs].sort()]));

test('add takes the next id in the task style, maps tests by id or full name, and leaves the input alone', () => {
  const before = JSON.stringify([specs, tests]);
  const r = ok(edit({ op: 'add', text: 'Prints the total in seconds.', category: 'interface-io-contracts', tests: ['T2', 'tests/test_a.py::test_bad'], dependsOn: ['B2'] }));
  assert.equal(JSON.stringify([specs, tests]), before);
  assert.deepEqual(r.created, ['B4']);
  assert.deepEqual(r.specs.at(-1), { id: 'B4', text: 'Prints the total in seconds.', category: 'interface-io-contracts', dependsOn: ['B2'] });
  assert.deepEqual(mapOf(r.tests).T2, ['B2', 'B4']);
  assert.deepEqual(mapOf(r.tests).T3, ['B1', 'B3', 'B4']);
  assert.deepEqual(r.changedSpecs, ['B4']);
});

test('new ids: S1 for a task with none, the dominant prefix otherwise, never a taken one', () => {
  assert.equal(nextSpecId([]), 'S1');
  assert.equal(nextSpecId(specs), 'B4');
  assert.equal(nextSpecId([...specs, { id: 'B9', text: 'x', category: 'other', dependsOn: [] }]), 'B10');
  assert.equal(nextSpecId([{ id: 'login-rule', text: 'x', category: 'other', dependsOn: [] }]), 'S1');
});

test('edit changes text, category and dependsOn; the changed spec is named', () => {
  const r = ok(edit({ op: 'edit', spec: 'B2', text: 'Sums every duration, in order.', category: 'data-transformation', dependsOn: [] }));
  assert.deepEqual(r.specs[1], { id: 'B2', text: 'Sums every duration, in order.', category: 'data-transformation', dependsOn: [] });
  assert.deepEqual(r.changedSpecs, ['B2']);
});

test('each bad input is refused with a message naming what was wrong', () => {
  assert.match(errs(edit({ op: 'add', text: '   ', category: 'other' })).join(), /empty_text: the text of spec B4 is empty/);
  assert.match(errs(edit({ op: 'add', text: '  sums the   DURATIONS. ', category: 'other' })).join(), /duplicate_text: spec B4 would have the same text as B2/);
  assert.match(errs(edit({ op: 'edit', spec: 'B7', text: 'x' })).join(), /unknown_spec: the task has no spec "B7"/);
  assert.match(errs(edit({ op: 'map', spec: 'B1', mode: 'add', tests: ['T9'] })).join(), /unknown_test: the task has no test "T9"/);
  assert.match(errs(edit({ op: 'map', spec: 'B1', mode: 'add', tests: ['tests/test_b.py::test_same'] })).join(), /ambiguous_test: "tests\/test_b.py::test_same" is the name of 2 tests \(T4, T5\)/);
  assert.match(errs(edit({ op: 'depends', spec: 'B1', dependsOn: ['B3'] })).join(), /cycle: dependsOn would make a cycle: B1 -> B3 -> B1/);
  assert.match(errs(edit({ op: 'depends', spec: 'B2', dependsOn: ['B2'] })).join(), /self_dependency: spec B2 cannot depend on itself/);
  assert.match(errs(edit({ op: 'depends', spec: 'B2', dependsOn: ['B8'] })).join(), /unknown_spec: spec B2 depends on "B8"/);
  assert.match(errs(edit({ op: 'add', text: 'New.', category: 'security' })).join(), /unknown_category: category "security" of spec B4 is not in the taxonomy/);
  assert.match(errs(edit({ op: 'add', text: 'New.', category: 'Not Kebab' }, { allowCategory: true })).join(), /invalid_category/);
  assert.match(errs(edit({ op: 'reorder', order: ['B2', 'B1'] })).join(), /leaves out B3/);
  assert.match(errs(edit({ op: 'map', spec: 'B1', mode: 'add', tests: ['T1'] })).join(), /no_change/);
  assert.match(errs(editSpecs(specs, tests, { op: 'drop' } as unknown as SpecOp)).join(), /invalid_op: unknown operation "drop"/);
});

test('a new category is accepted with allowCategory; an existing one outside the taxonomy is kept with a warning', () => {
  assert.equal(ok(edit({ op: 'add', text: 'New.', category: 'security' }, { allowCategory: true })).specs.at(-1)?.category, 'security');
  const odd: Spec[] = [...specs, { id: 'B4', text: 'Legacy.', category: 'legacy-behaviour', dependsOn: [] }];
  const r = ok(editSpecs(odd, tests, { op: 'edit', spec: 'B4', text: 'Legacy, reworded.' }));
  assert.equal(r.specs[3]?.category, 'legacy-behaviour');
  assert.match(r.warnings.join(), /B4 has category "legacy-behaviour", which is not in the taxonomy; kept as it is/);
  assert.ok(SPEC_CATEGORIES.includes('error-handling') && SPEC_CATEGORIES.includes('state-consistency'));
});

test('split keeps the id (and so the labels) on the first part and adds the others after it', () => {
  const r = ok(edit({ op: 'split', spec: 'B3', parts: [{ text: 'Reports the file of a bad line.' }, { text: 'Reports the line number.', tests: ['T3'] }] }));
  assert.deepEqual(r.specs.map((s) => s.id), ['B1', 'B2', 'B3', 'B4']);
  assert.equal(r.specs[2]?.text, 'Reports the file of a bad line.');
  assert.deepEqual(r.specs[3], { id: 'B4', text: 'Reports the line number.', category: 'error-handling', dependsOn: ['B1'] });
  assert.deepEqual(mapOf(r.tests).T3, ['B1', 'B3', 'B4']);
  assert.deepEqual(r.created, ['B4']);
  assert.deepEqual(r.changedSpecs, ['B3', 'B4']);
  assert.match(errs(edit({ op: 'split', spec: 'B3', parts: [{ text: 'only one' }] })).join(), /two parts or more/);
});

test('merge keeps the first id, moves tests and dependants to it, and deletes the others', () => {
  const r = ok(edit({ op: 'merge', specs: ['B1', 'B3'], text: 'Parses lines and reports bad ones.' }));
  assert.deepEqual(r.specs.map((s) => s.id), ['B1', 'B2']);
  assert.deepEqual(r.specs[0]?.dependsOn, []);
  assert.deepEqual(mapOf(r.tests).T3, ['B1']);
  assert.deepEqual(r.deleted, ['B3']);
  assert.deepEqual(r.changedSpecs, ['B1', 'B3']);
  const r2 = ok(edit({ op: 'merge', specs: ['B2', 'B1'], text: 'Parses and sums.' }));
  assert.deepEqual(r2.specs.find((s) => s.id === 'B3')?.dependsOn, ['B2'], 'a dependant of a merged spec depends on the result');
  assert.deepEqual(r2.specs.find((s) => s.id === 'B2')?.dependsOn, [], 'no self dependency after the merge');
});

test('delete removes the spec from tests and dependsOn; those specs count as changed', () => {
  const r = ok(edit({ op: 'delete', spec: 'B1' }));
  assert.deepEqual(r.specs.map((s) => [s.id, s.dependsOn]), [['B2', []], ['B3', []]]);
  assert.deepEqual(mapOf(r.tests).T1, []);
  assert.deepEqual(r.deleted, ['B1']);
  assert.deepEqual(r.changedSpecs, ['B1', 'B2', 'B3']);
});

test('reorder changes only the order: nothing becomes stale', () => {
  const r = ok(edit({ op: 'reorder', order: ['B3', 'B1', 'B2'] }));
  assert.deepEqual(r.specs.map((s) => s.id), ['B3', 'B1', 'B2']);
  assert.deepEqual(r.changedSpecs, []);
});

test('map replaces, adds or removes a set of tests; toggle flips one cell', () => {
  assert.deepEqual(mapOf(ok(edit({ op: 'map', spec: 'B1', mode: 'replace', tests: ['T2', 'T4'] })).tests), { T1: [], T2: ['B1', 'B2'], T3: ['B3'], T4: ['B1'], T5: [] });
  assert.deepEqual(mapOf(ok(edit({ op: 'map', spec: 'B1', mode: 'remove', tests: ['T3'] })).tests).T3, ['B3']);
  const on = ok(edit({ op: 'toggle', spec: 'B2', test: 'tests/test_a.py::test_parse' }));
  assert.deepEqual(mapOf(on.tests).T1, ['B1', 'B2']);
  assert.deepEqual(on.changedSpecs, ['B2']);
  assert.deepEqual(mapOf(ok(editSpecs(on.specs, on.tests, { op: 'toggle', spec: 'B2', test: 'T1' })).tests).T1, ['B1']);
});

test('changedSpecsBetween sees tests, dependsOn order aside, and deleted specs', () => {
  const after = { specs: [{ ...specs[0]!, dependsOn: [] }, { ...specs[1]! }], tests: tests.map((t) => ({ ...t, specs: t.id === 'T2' ? [] : t.specs })) };
  assert.deepEqual(changedSpecsBetween({ specs, tests }, after), ['B2', 'B3']);
});

test('an operation of the wrong shape (a hostile request) is refused naming the field, never thrown', () => {
  const bad = (op: unknown) => errs(editSpecs(specs, tests, op as SpecOp)).join();
  assert.match(bad(null), /operation: expected an object/);
  assert.match(bad({ op: 'add', category: 'other' }), /add\.text: expected a string/);
  assert.match(bad({ op: 'edit', spec: 'B1', dependsOn: 'B2' }), /edit\.dependsOn: expected a list of strings/);
  assert.match(bad({ op: 'split', spec: 'B1', parts: [{ text: 'a' }, { text: 3 }] }), /split\.parts\[1\]\.text/);
  assert.match(bad({ op: 'map', spec: 'B1', mode: 'swap', tests: [] }), /map\.mode: expected replace, add or remove/);
  assert.match(bad({ op: 'toggle', spec: 'B1' }), /toggle\.test: expected a string/);
  assert.match(bad({ op: 'add', text: 'x', category: 'other', at: 1.5 }), /add\.at: expected an integer/);
});
