// Gold mutants on hand-written patches: each operator, what is never mutated (removed lines, strings, comments),
// patches whose mutants could not be valid skipped with a reason, stable ids, and a capped pick that stays diverse.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyFilePatch, parsePatch } from '../../../src/core/patch';
import type { Mutant } from '../../../src/core/probes/mutants';
import { goldMutants, pickMutants } from '../../../src/core/probes/mutants';

/** A one-hunk patch of `file` replacing `old` (base lines) by `added`, with `ctx` lines of context before. */
function patchOf(file: string, ctx: string[], old: string[], added: string[]): { patch: string; base: string } {
  const header = `@@ -1,${ctx.length + old.length} +1,${ctx.length + added.length} @@`;
  const body = [...ctx.map((l) => ` ${l}`), ...old.map((l) => `-${l}`), ...added.map((l) => `+${l}`)];
  return {
    patch: [`diff --git a/${file} b/${file}`, `--- a/${file}`, `+++ b/${file}`, header, ...body, ''].join('\n'),
    base: [...ctx, ...old, ''].join('\n'),
  };
}

function mutate(added: string[], ctx: string[] = ['def f(x, y):'], file = 'pkg/m.py'): Mutant[] {
  const { patch, base } = patchOf(file, ctx, ['    pass'], added);
  const r = goldMutants(patch, new Map([[file, base]]));
  assert.deepEqual(r.skipped, []);
  return r.mutants;
}

const afters = (ms: Mutant[], op: string) => ms.filter((m) => m.operator === op).map((m) => m.after.trim());

test('comparison flips: each ordering operator at its boundary, == and != negated; shifts and arrows left alone', () => {
  const ms = mutate(['    return x < y, x <= y, x > y, x >= y, x == y, x != y, x << 2, x >> 1']);
  assert.deepEqual(afters(ms, 'comparison'), [
    'return x <= y, x <= y, x > y, x >= y, x == y, x != y, x << 2, x >> 1',
    'return x < y, x < y, x > y, x >= y, x == y, x != y, x << 2, x >> 1',
    'return x < y, x <= y, x >= y, x >= y, x == y, x != y, x << 2, x >> 1',
    'return x < y, x <= y, x > y, x > y, x == y, x != y, x << 2, x >> 1',
    'return x < y, x <= y, x > y, x >= y, x != y, x != y, x << 2, x >> 1',
    'return x < y, x <= y, x > y, x >= y, x == y, x == y, x << 2, x >> 1',
  ]);
  assert.deepEqual(afters(mutate(['def g(a) -> int:']), 'comparison'), []);
});

test('off-by-one: integer literals one more and one less (zero only up), floats and names left alone', () => {
  const ms = mutate(['    return x[0] + 10 + 1.5 + x2']);
  assert.deepEqual(afters(ms, 'off-by-one'), ['return x[1] + 10 + 1.5 + x2', 'return x[0] + 11 + 1.5 + x2', 'return x[0] + 9 + 1.5 + x2']);
});

test('term off-by-one: `step // 2` made one more and one less, a `- 1` dropped; a term followed by `*` is not cut', () => {
  const ms = mutate(['    r = (x + y // 2) // y * y', '    return r - 1']);
  assert.deepEqual(afters(ms, 'term-off-by-one'), ['r = (x + y // 2 + 1) // y * y', 'r = (x + y // 2 - 1) // y * y', 'return r']);
  // A unary minus is not a `- 1` term.
  assert.deepEqual(afters(mutate(['    return f(-1)']), 'term-off-by-one'), []);
});

test('guard drop: an if whose body raises or returns becomes `if False:`, on its line or the next; other ifs stay', () => {
  const ms = mutate(['    if x not in y:', '        raise ValueError(x)', '    if x: return 1', '    if y:', '        x = 2', '    for a in y:', '        if a < 0: break']);
  assert.deepEqual(afters(ms, 'guard-drop'), ['if False:', 'if False: return 1', 'if False: break']);
});

test('not dropped, rounding changed, defaults changed, booleans and and/or swapped', () => {
  const ms = mutate(['    if not x and y is not None or x not in y:', '        return round(x / y), True'], ['import math', 'def f(x, y):']);
  assert.deepEqual(afters(ms, 'not-drop'), [
    'if x and y is not None or x not in y:',
    'if not x and y is None or x not in y:',
    'if not x and y is not None or x in y:',
  ]);
  assert.deepEqual(afters(ms, 'rounding'), ['return int(x / y), True', 'return math.floor(x / y), True']);
  assert.deepEqual(afters(ms, 'boolean'), ['return round(x / y), False']);
  assert.deepEqual(afters(ms, 'and-or'), ['if not x or y is not None or x not in y:', 'if not x and y is not None and x not in y:']);
  // Without `import math`, round( is only made int(.
  assert.deepEqual(afters(mutate(['    return round(x)']), 'rounding'), ['return int(x)']);
  const d = mutate(['def g(a, unit="s", n=None, flag=True):', '    p.add_argument("--u", default="s", help="x")'], []);
  assert.deepEqual(afters(d, 'default-value'), ['def g(a, unit=None, n=None, flag=True):', 'def g(a, unit="s", n=0, flag=True):', 'p.add_argument("--u", default=None, help="x")']);
});

test('strings, comments and docstrings are never mutated, nor removed or context lines', () => {
  const ms = mutate(['    """x < 1 and True', '    still in the docstring: 2 == 3', '    """', '    s = "a < b" + f"{x == 1}"  # y > 2', '    return s']);
  assert.deepEqual(ms, []);
  const { patch, base } = patchOf('m.py', ['if x < 1:'], ['    return 2 == 3'], ['    return 0']);
  const r = goldMutants(patch, new Map([['m.py', base]]));
  assert.deepEqual(r.mutants.map((m) => m.after), ['    return 1']);
});

test('every mutant is the gold patch with one added line changed in place, and applies to the base', () => {
  const file = 'pkg/m.py';
  const { patch, base } = patchOf(file, ['def f(x, y):'], ['    pass'], ['    if x < y:', '        return 1', '    return 0']);
  const { mutants } = goldMutants(patch, new Map([[file, base]]));
  assert.ok(mutants.length >= 4);
  for (const m of mutants) {
    const a = patch.split('\n');
    const b = m.patch.split('\n');
    assert.equal(a.length, b.length);
    const diff = a.map((l, i) => [l, b[i]] as const).filter(([x, y]) => x !== y);
    assert.deepEqual(diff, [[`+${m.before}`, `+${m.after}`]]);
    const parsed = parsePatch(m.patch);
    assert.deepEqual(parsed.problems, []);
    const applied = applyFilePatch(base, parsed.files[0]!);
    assert.ok(applied.ok && applied.text.includes(m.after), m.id);
    assert.equal(m.file, file);
    assert.equal(m.line, 1 + 1 + ['    if x < y:', '        return 1', '    return 0'].indexOf(m.before));
  }
});

test('CRLF patches keep their line ends; a patch beginning with a BOM keeps it', () => {
  const { patch, base } = patchOf('m.py', ['def f(x):'], ['    pass'], ['    return x < 1']);
  const crlf = `\ufeff${patch.replace(/\n/g, '\r\n')}`;
  const { mutants } = goldMutants(crlf, new Map([['m.py', base.replace(/\n/g, '\r\n')]]));
  assert.ok(mutants.length > 0);
  for (const m of mutants) {
    assert.ok(m.patch.startsWith('\ufeff'));
    assert.equal(m.patch.split('\r\n').length, crlf.split('\r\n').length, m.id);
    assert.ok(!m.after.includes('\r'));
  }
});

test('a file whose mutants could not be valid is skipped with the reason: a lying hunk header, a base it does not match', () => {
  const { patch, base } = patchOf('m.py', ['def f(x):'], ['    pass'], ['    return x < 1']);
  const lying = patch.replace('@@ -1,2 +1,2 @@', '@@ -1,2 +1,3 @@');
  const a = goldMutants(lying, new Map([['m.py', base]]));
  assert.deepEqual(a.mutants, []);
  assert.equal(a.skipped.length, 1);
  assert.match(a.skipped[0]!.reason, /hunk header .* disagrees with its body/);
  const b = goldMutants(patch, new Map([['m.py', 'something else entirely\n']]));
  assert.deepEqual(b.mutants, []);
  assert.match(b.skipped[0]!.reason, /does not apply to the base file/);
  // Without a base (a repository in an image), the in-place mutants are made.
  assert.ok(goldMutants(patch).mutants.length > 0);
});

test('files no operator table covers are listed, not mutated; binary and deleted files are ignored', () => {
  const js = patchOf('web/app.js', ['x'], ['y'], ['if (a < b) return 1;']);
  const r = goldMutants(js.patch);
  assert.deepEqual(r.mutants, []);
  assert.deepEqual(r.unsupportedFiles, ['web/app.js']);
});

test('ids are stable across runs and unique; they change with the line they mutate', () => {
  const { patch, base } = patchOf('m.py', ['def f(x):'], ['    pass'], ['    if x < 10:', '        return True', '    return x == 0']);
  const one = goldMutants(patch, new Map([['m.py', base]])).mutants;
  const two = goldMutants(patch, new Map([['m.py', base]])).mutants;
  assert.deepEqual(one.map((m) => m.id), two.map((m) => m.id));
  assert.equal(new Set(one.map((m) => m.id)).size, one.length);
  for (const m of one) assert.match(m.id, new RegExp(`^${m.operator}-[0-9a-f]{10}$`));
  // One more context line above moves every line down by one: every id changes.
  const moved = patchOf('m.py', ['import os', 'def f(x):'], ['    pass'], ['    if x < 10:', '        return True', '    return x == 0']);
  const three = goldMutants(moved.patch, new Map([['m.py', moved.base]])).mutants;
  assert.equal(three.length, one.length);
  assert.ok(three.every((m) => !one.some((o) => o.id === m.id)));
});

test('--mutants N picks round-robin across operators in table order, deterministically', () => {
  const { patch, base } = patchOf('m.py', ['def f(x, y):'], ['    pass'], [
    '    if x < y and x > 0:',
    '        return round(x + 1), True',
    '    return x == 2',
  ]);
  const all = goldMutants(patch, new Map([['m.py', base]])).mutants;
  const ops = [...new Set(all.map((m) => m.operator))];
  assert.ok(ops.length >= 6, ops.join(','));
  const five = pickMutants(all, 5);
  assert.equal(five.length, 5);
  assert.equal(new Set(five.map((m) => m.operator)).size, 5, 'five different operators');
  assert.deepEqual(five.map((m) => m.operator), ['comparison', 'off-by-one', 'term-off-by-one', 'guard-drop', 'rounding']);
  assert.deepEqual(pickMutants(all, 5), five);
  const more = pickMutants(all, ops.length + 2);
  assert.equal(new Set(more.map((m) => m.operator)).size, ops.length, 'every operator before any repeats');
  assert.equal(pickMutants(all, 1000).length, all.length);
  assert.deepEqual(pickMutants(all, 0), []);
});

test('an added last line without a newline ("\\ No newline at end of file") is mutated in place and still applies', () => {
  const patch = ['--- a/m.py', '+++ b/m.py', '@@ -1,2 +1,2 @@', ' def f(x):', '-    pass', '\\ No newline at end of file', '+    return x < 1', '\\ No newline at end of file', ''].join('\n');
  const base = 'def f(x):\n    pass';
  const { mutants, skipped } = goldMutants(patch, new Map([['m.py', base]]));
  assert.deepEqual(skipped, []);
  assert.deepEqual(mutants.map((m) => m.after), ['    return x <= 1', '    return x < 2', '    return x < 0']);
  for (const m of mutants) {
    const applied = applyFilePatch(base, parsePatch(m.patch).files[0]!);
    assert.ok(applied.ok);
    assert.equal(applied.text, `def f(x):\n${m.after}`);
  }
});
