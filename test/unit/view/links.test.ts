// Deep links: a task, an attempt's step, a hunk and a log line make a query and read back the same; a link that
// names half a place says what is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkQuery, parseLinkQuery } from '../../../src/core/view/links';
import type { LinkTarget } from '../../../src/core/view/links';

const round = (t: LinkTarget) => {
  const r = parseLinkQuery(linkQuery(t));
  assert.ok(r.ok, JSON.stringify(r));
  return r.target;
};

test('every kind of link reads back as it was made', () => {
  const targets: LinkTarget[] = [
    { task: 'django__django-11099' },
    { task: 't', attempt: 'a 1&b' },
    { task: 't', attempt: 'a1', step: 14 },
    { task: 't', evidence: { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'src/x y.py', hunk: 2 } },
    { task: 't', evidence: { kind: 'diff_hunk', patch: 'gold', file: 'a.py', hunk: 0 } },
    { task: 't', evidence: { kind: 'log_line', run: 'r-1', line: 40 } },
    { task: 't', evidence: { kind: 'log_line', run: 'r-1', line: 3, stream: 'stderr' } },
  ];
  for (const t of targets) assert.deepEqual(round(t), t);
  assert.equal(linkQuery({ task: 't', evidence: { kind: 'log_line', run: 'r', line: 3, stream: 'stderr' } }), 'task=t&run=r&line=3&stream=stderr');
});

test('half a place is refused with what is missing', () => {
  const bad = (q: string, re: RegExp) => {
    const r = parseLinkQuery(q);
    assert.equal(r.ok, false, q);
    assert.match((r as { message: string }).message, re);
  };
  bad('attempt=a1', /names no task/);
  bad('task=t&file=a.py', /no hunk number/);
  bad('task=t&hunk=1', /no file/);
  bad('task=t&file=a.py&hunk=1', /not the attempt/);
  bad('task=t&patch=evil&file=a.py&hunk=1', /not attempt, gold or tests/);
  bad('task=t&run=r', /no line/);
  bad('task=t&run=r&line=0', /no line/);
  bad('task=t&line=3', /no run/);
  bad('task=t&run=r&line=3&stream=x', /not stdout or stderr/);
  bad('task=t&attempt=a&step=-1', /not a number/);
});
