// Building the spec drafter's prompt for a row with a 200 KB test patch (400 test functions across 20 files, the F2P
// tests' hunks in the last file), a 30 KB gold patch and 2,000 test ids: buildDraftPrompt, side by side in one run
// with the floor of reading the patch once (split into lines, which any cap by lines must at least do), and with the
// check of a 30-spec reply citing lines of that patch. Goal: the prompt under 100 ms.
//
//   node --import tsx bench/draftPrompt.bench.ts [--kb 200] [--runs 25]
import { cpus, loadavg } from 'node:os';
import type { TestCase } from '../src/core/model';
import { checkDraft } from '../src/core/specs/draftCheck';
import { buildDraftPrompt } from '../src/core/specs/draftPrompt';

const args = process.argv.slice(2);
const arg = (name: string, d: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const KB = arg('--kb', 200);
const RUNS = arg('--runs', 25);

function testPatch(bytes: number): string {
  const files: string[] = [];
  let size = 0;
  let n = 0;
  for (let f = 0; size < bytes; f++) {
    const body: string[] = [`diff --git a/tests/test_mod${f}.py b/tests/test_mod${f}.py`, `--- a/tests/test_mod${f}.py`, `+++ b/tests/test_mod${f}.py`];
    for (let h = 0; h < 20 && size < bytes; h++, n++) {
      body.push(`@@ -${h * 30 + 1},3 +${h * 30 + 1},24 @@ class TestMod${f}:`, '     pass', `+    def test_case_${n}(self):`);
      for (let l = 0; l < 20; l++) body.push(`+        assert compute_value_${n}(${l}, mode="strict") == expected_table[${l}]  # row ${l}`);
      body.push(' ');
      size = files.join('\n').length + body.join('\n').length;
    }
    files.push(body.join('\n'));
  }
  return `${files.join('\n')}\n`;
}

const patch = testPatch(KB * 1024);
const gold = testPatch(30 * 1024).replace(/tests\/test_/g, 'src/lib_');
const testCount = (patch.match(/def test_case_/g) ?? []).length;
const tests: TestCase[] = Array.from({ length: 2000 }, (_, i) => ({ id: `T${i + 1}`, name: `tests/test_mod${Math.floor(i / 20)}.py::TestMod::test_case_${i % testCount}`, kind: i >= testCount - 5 && i < testCount ? 'fail_to_pass' : 'pass_to_pass', specs: [] }));
const request = Array.from({ length: 200 }, (_, i) => `Sentence ${i} of the issue says what compute_value must return in strict mode.`).join('\n');
const task = { id: 'bench__row-1', tests };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
function time(fn: () => unknown): number[] {
  fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

const lines = patch.split('\n');
const asserts = lines.flatMap((l, i) => (l.includes('assert') ? [i + 1] : []));
const specs = Array.from({ length: 30 }, (_, i) => {
  const line = asserts[Math.floor((i * asserts.length) / 30)] as number;
  return { id: `S${i + 1}`, text: `Spec ${i + 1} holds.`, category: 'computation-and-algorithms', dependsOn: i > 0 ? [`S${i}`] : [], tests: [`T${i + 1}`], citation: { quote: (lines[line - 1] ?? '').slice(1).trim(), source: 'test_patch', line } };
});
const reply = JSON.stringify({ refusal: null, specs });

const floor = time(() => patch.replace(/\r\n/g, '\n').split('\n').length);
const build = time(() => buildDraftPrompt({ task, request, testPatch: patch, goldPatch: gold, budgetTokens: 22_800 }));
const check = time(() => checkDraft(reply, { tests, request, testPatch: patch, goldPatch: gold }));
const p = buildDraftPrompt({ task, request, testPatch: patch, goldPatch: gold, budgetTokens: 22_800 });
const c = checkDraft(reply, { tests, request, testPatch: patch, goldPatch: gold });

console.log(`machine: ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${RUNS} runs each, median`);
console.log(`row: test patch ${(patch.length / 1024).toFixed(0)} KB (${lines.length} lines, ${testCount} test functions), gold ${(gold.length / 1024).toFixed(0)} KB, ${tests.length} test ids`);
console.log(`prompt: ~${p.estimatedTokens} tokens of ${p.budgetTokens}; ${p.parts.map((x) => `${x.id} ${x.linesKept}/${x.lines} lines`).join(', ')}`);
console.log(`| step | median ms | max ms | vs floor |`);
console.log(`| --- | --- | --- | --- |`);
for (const [name, xs] of [['split the patch into lines (floor)', floor], ['buildDraftPrompt', build], ['checkDraft (30 specs citing patch lines)', check]] as const) {
  console.log(`| ${name} | ${median(xs).toFixed(2)} | ${Math.max(...xs).toFixed(2)} | ${(median(xs) / median(floor)).toFixed(1)}x |`);
}
console.log(`goal: prompt under 100 ms -> ${median(build) < 100 ? 'met' : 'NOT met'}; check kept ${c.ok ? c.specs.length : 0}/30 specs`);
