// The candidates list's "unconfirmed findings" filter and its sort by findings: tasks whose current findings include
// candidates nobody accepted or dismissed, most first; a stored filter keeps the choice across a reload.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { EMPTY_FILTER, filterAndSort, isFiltered, sanitizeFilter, taskRow } from '../../../src/core/view/candidates';
import { reviewDataset } from '../review/helpers';

describe('candidates by unconfirmed findings', () => {
  const tasks = loadDataset(reviewDataset()).tasks;
  const counts: Record<string, number> = { t1: 1, t2: 0, t3: 3 };
  const rows = tasks.map((t) => taskRow(t, 'candidate', undefined, counts[t.id] ?? 0));

  it('the filter keeps tasks with unconfirmed findings; the sort puts the most first', () => {
    assert.deepEqual(
      filterAndSort(rows, { ...EMPTY_FILTER, unconfirmedFindings: true }).map((r) => r.id),
      ['t1', 't3'],
    );
    assert.deepEqual(
      filterAndSort(rows, EMPTY_FILTER, 'findings').map((r) => [r.id, r.unconfirmedFindings]),
      [
        ['t3', 3],
        ['t1', 1],
        ['t2', 0],
      ],
    );
    assert.equal(isFiltered({ ...EMPTY_FILTER, unconfirmedFindings: true }), true);
    assert.equal(isFiltered(EMPTY_FILTER), false);
  });

  it('a stored filter keeps the choice; anything else is not it', () => {
    assert.equal(sanitizeFilter({ unconfirmedFindings: true }).unconfirmedFindings, true);
    assert.equal(sanitizeFilter({ unconfirmedFindings: 'yes' }).unconfirmedFindings, undefined);
  });
});
