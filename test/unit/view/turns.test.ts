import { test } from 'node:test';
import assert from 'node:assert/strict';
import { turnsOf } from '../../../src/core/view/turns';
import { prepareStep, StepIndex } from '../../../src/core/view/steps';
import type { StepKindView } from '../../../src/protocol/messages';

const u = undefined;

test('a thought, its action and the observation answering it are one turn; system and user stand alone', () => {
  const kinds: StepKindView[] = ['system', 'user', 'thought', 'action', 'observation', 'thought', 'action', 'observation'];
  assert.deepEqual(turnsOf(kinds), [u, u, 1, 1, 1, 2, 2, 2]);
});

test('parallel tool calls and their results are one turn; the next call after a result opens a new one', () => {
  const kinds: StepKindView[] = ['user', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'tool_call', 'tool_result'];
  assert.deepEqual(turnsOf(kinds), [u, 1, 1, 1, 1, 2, 2]);
});

test('an action straight after an action stays in the turn; one after an observation starts the next', () => {
  assert.deepEqual(turnsOf(['action', 'action', 'observation', 'action']), [1, 1, 1, 2]);
  assert.deepEqual(turnsOf(['action', 'thought', 'observation', 'observation', 'thought']), [1, 1, 1, 1, 2]);
});

test('a user or submission step closes the turn; an observation nothing asked for stands alone', () => {
  assert.deepEqual(turnsOf(['observation', 'thought', 'user', 'observation', 'action', 'submission', 'observation']), [u, 1, u, u, 2, u, u]);
  assert.deepEqual(turnsOf(['thought', 'user', 'thought']), [1, u, 2]);
  assert.deepEqual(turnsOf([]), []);
});

test('pages carry each step\'s turn of the whole trajectory, also under a kind filter', () => {
  const kinds: StepKindView[] = ['system', 'user', 'thought', 'action', 'observation', 'thought', 'action', 'observation', 'submission'];
  const idx = new StepIndex(kinds.map((kind, index) => prepareStep({ index, kind, text: `s${index}` })));
  assert.deepEqual(idx.page(0, 100).steps.map((s) => s.turn), [u, u, 1, 1, 1, 2, 2, 2, u]);
  assert.equal('turn' in (idx.page(0, 1).steps[0] ?? {}), false, 'a step that stands alone has no turn field');
  assert.deepEqual(idx.page(0, 100, ['observation']).steps.map((s) => [s.index, s.turn]), [[4, 1], [7, 2]]);
});
