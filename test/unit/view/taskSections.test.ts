// Task-view sections by contribution: merged over the base model in order, one error policy (a failed section shows
// its error in its place, logged once), and no section can change what the base builder set.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskViewModel } from '../../../src/protocol/messages';
import type { TaskViewSection } from '../../../src/vscode/taskSections';
import { SectionMerger } from '../../../src/vscode/taskSections';

const base = (): TaskViewModel =>
  ({
    protocol: 1,
    taskId: 't1',
    title: 't1',
    revision: 1,
    status: 'in_review',
    repo: 'r',
    image: 'i',
    trusted: true,
    request: [],
    specs: [],
    tests: [],
    columns: [{ id: 'a1' }, { id: 'a2' }],
    notices: ['base notice'],
  }) as unknown as TaskViewModel;

test('sections merge in order; verdicts go to their columns; the base status stays', () => {
  const sections: TaskViewSection[] = [
    { name: 'verifier results', contribute: () => ({ columnVerdicts: { a2: 'resolved' } }) },
    { name: 'repair', contribute: () => undefined },
    { name: 'review', contribute: () => ({ review: { status: 'approved' } as unknown as NonNullable<TaskViewModel['review']> }) },
  ];
  const m = new SectionMerger(sections, () => undefined).merge('t1', base());
  assert.equal(m.status, 'in_review', 'a section does not overwrite the status');
  assert.deepEqual(m.columns, [{ id: 'a1' }, { id: 'a2', verdict: 'resolved' }]);
  assert.ok(m.review);
  assert.deepEqual(m.notices, ['base notice']);
});

test('a failing section shows its error in its place and is logged once; the others still show', () => {
  const logs: string[] = [];
  const sections: TaskViewSection[] = [
    {
      name: 'verifier results',
      contribute: () => {
        throw new Error('runs/t1 is unreadable');
      },
    },
    { name: 'review', contribute: () => ({ review: {} as NonNullable<TaskViewModel['review']> }) },
  ];
  const merger = new SectionMerger(sections, (l) => logs.push(l));
  const m1 = merger.merge('t1', base());
  const m2 = merger.merge('t1', base());
  assert.deepEqual(m1.notices, ['base notice', 'The verifier results of this task could not be shown: runs/t1 is unreadable']);
  assert.deepEqual(m2.notices, m1.notices);
  assert.ok(m1.review);
  assert.equal(logs.length, 1, 'logged once for the same task and error');
  assert.match(logs[0] ?? '', /t1: the verifier results could not be shown: Error: runs\/t1 is unreadable/);
});
