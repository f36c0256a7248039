// Building the review agent's prompts for 16 attempts x 10 specs, each attempt with a 5 MB trajectory (steps already
// read, as the app hands them to the core), a 20 KB patch and a 2,000-line stdout: buildReviewPrompt for all 16,
// side by side in one run with the floor of touching every step's text once (its length and one regex scan), and
// with the check of a 10-finding reply per attempt. Goal: the 16 prompts under 200 ms in all.
//
//   node --import tsx bench/reviewPrompt.bench.ts [--mb 5] [--attempts 16] [--runs 9]
import { cpus, loadavg } from 'node:os';
import { buildReviewPrompt } from '../src/core/findings/prompt';
import { checkReview } from '../src/core/findings/reply';
import type { TrajectoryStep } from '../src/core/model';

const args = process.argv.slice(2);
const arg = (name: string, d: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const MB = arg('--mb', 5);
const ATTEMPTS = arg('--attempts', 16);
const RUNS = arg('--runs', 9);

const specs = Array.from({ length: 10 }, (_, i) => ({ id: `S${i + 1}`, text: `Spec ${i + 1}: compute_value returns the documented value in mode ${i}.`, category: 'computation-algorithms', dependsOn: i > 0 ? [`S${i}`] : [] }));
const tests = Array.from({ length: 40 }, (_, i) => ({ id: `T${i + 1}`, name: `tests/test_mod.py::test_case_${i}`, kind: (i < 10 ? 'fail_to_pass' : 'pass_to_pass') as 'fail_to_pass' | 'pass_to_pass', specs: [`S${(i % 10) + 1}`] }));
const task = { id: 'bench-task', revision: 1, specs, tests };
const request = Array.from({ length: 60 }, (_, i) => `Sentence ${i + 1} says what compute_value must return in mode ${i % 10}.`).join(' ');

function steps(bytes: number, seed: number): TrajectoryStep[] {
  const out: TrajectoryStep[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = i % 3 === 2 ? `OBSERVATION:\n${`line ${seed}-${i}: value = compute_value(${i})\n`.repeat(i % 50 === 0 ? 400 : 60)}` : `Thought ${i}: I will look at compute_value in mode ${i % 10} and run the tests again.`;
    out.push({ index: i, kind: i % 3 === 2 ? 'tool_result' : i % 3 === 1 ? 'tool_call' : 'thought', text, ...(i % 3 === 1 ? { toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: `python3 -m pytest -q tests/test_mod.py -k case_${i}` }) }] } : {}) });
    size += text.length;
  }
  return out;
}
function patch(kb: number, seed: number): string {
  const out = ['diff --git a/src/mod.py b/src/mod.py', '--- a/src/mod.py', '+++ b/src/mod.py'];
  for (let h = 0; out.join('\n').length < kb * 1024; h++) {
    out.push(`@@ -${h * 40 + 1},4 +${h * 40 + 1},12 @@ def compute_value_${h}(x):`, '     y = x');
    for (let l = 0; l < 8; l++) out.push(`+    y = adjust(y, ${seed}, ${l})  # step ${l}`);
    out.push('     return y', ' ');
  }
  return `${out.join('\n')}\n`;
}
const stdout = Array.from({ length: 2000 }, (_, i) => (i === 1200 ? 'E       AssertionError: assert 3 == 2' : `tests/test_mod.py::test_case_${i % 40} PASSED`)).join('\n');

const attempts = Array.from({ length: ATTEMPTS }, (_, a) => ({ id: `a${a + 1}`, steps: steps(MB * 1024 * 1024, a), patch: patch(20, a) }));
const run = { id: 'r1', status: 'failed', tests: Object.fromEntries(tests.map((t) => [t.name, 'PASSED'])), stdout };

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
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

let chars = 0;
const build = time(() => {
  chars = 0;
  for (const a of attempts) chars += buildReviewPrompt({ task, attempt: a.id, request, patch: a.patch, run, steps: a.steps }).messages[1]?.content.length ?? 0;
});
const floor = time(() => {
  let n = 0;
  for (const a of attempts) for (const s of a.steps) n += s.text.length + (/\bcompute_value\b/.test(s.text) ? 1 : 0);
  return n;
});
const replyText = (id: string) => JSON.stringify({ refusal: null, findings: specs.map((s, i) => ({ attempt: id, spec: s.id, judgment: 'satisfied', confidence: 0.7, rationale: 'ok', citations: [{ kind: 'trajectory_step', step: i * 30 + 2, file: null, hunk: null, test: null, line: null, sentence: null, quote: null }, { kind: 'diff_hunk', step: null, file: 'src/mod.py', hunk: i, test: null, line: null, sentence: null, quote: `y = adjust(y, ${Number(id.slice(1)) - 1}, 3)` }] })) });
const check = time(() => {
  for (const a of attempts) {
    const r = checkReview(replyText(a.id), { attempt: a.id, attempts: attempts.map((x) => x.id), specs: specs.map((s) => s.id), tests, request, patch: a.patch, run, steps: a.steps });
    if (!r.ok || r.findings.length !== 10) throw new Error(`the bench reply did not check: ${JSON.stringify(r).slice(0, 300)}`);
  }
});

const ms = (x: number) => `${x.toFixed(1)} ms`;
const stepCount = attempts[0]?.steps.length ?? 0;
console.log(`review prompts: ${ATTEMPTS} attempts x ${specs.length} specs, ${MB} MB trajectory each (${stepCount} steps), 20 KB patch, 2,000 stdout lines; median of ${RUNS} runs`);
console.log(`machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`  build all ${ATTEMPTS} prompts           ${ms(median(build)).padStart(10)}  (${(chars / ATTEMPTS / 1024).toFixed(0)} KB of prompt each; goal < 200 ms)`);
console.log(`  floor: touch every step once     ${ms(median(floor)).padStart(10)}  (ratio build/floor ${(median(build) / median(floor)).toFixed(1)})`);
console.log(`  check a 10-finding reply each    ${ms(median(check)).padStart(10)}  (${ms(median(check) / ATTEMPTS)} per reply, citations indexed once per reply)`);
