// A fresh copy of the example dataset with its repository beside it (as `../repos/durations`), and the replies a
// model would give for the example's false negative (total-command: TB3 pins an exact stderr string).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testFilesAfterPatch } from '../../../src/core/repair/revision';
import type { SuggestionReply } from '../../../src/core/repair/suggestion';
import { buildExampleRepo } from '../../unit/helpers/exampleRuns';
import { tmpDir } from '../../unit/helpers/tmp';

export const EXAMPLES = path.resolve(__dirname, '../../../examples');
export const FN_TASK = 'total-command';
export const FN_ATTEMPT = 'claude-code-sonnet-4-5';
export const TEST_FILE = 'tests/test_cli.py';
export const PINNED = `    assert proc.stderr == "error: log.txt:3: cannot parse 'abc'\\n"`;
export const LOOSENED = '    assert re.search(r"log\\.txt\\D+3\\b", proc.stderr)';

/** A new folder holding `ds/` (the example dataset) and `repos/durations` (its repository). */
export function copyExample(): string {
  const repo = buildExampleRepo();
  const top = tmpDir('sw-repair-');
  fs.cpSync(path.join(EXAMPLES, 'dataset'), path.join(top, 'ds'), { recursive: true });
  fs.cpSync(repo, path.join(top, 'repos', 'durations'), { recursive: true });
  return path.join(top, 'ds');
}

/** tests/test_cli.py of total-command as its test patch leaves it. */
export function currentTestFile(root: string): string {
  const task = JSON.parse(fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'task.json'), 'utf8')) as { repo: { baseCommit: string } };
  const base = execFileSync('git', ['-C', path.join(root, '..', 'repos', 'durations'), 'show', `${task.repo.baseCommit}:${TEST_FILE}`], { encoding: 'utf8' });
  const patch = fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'tests.patch'), 'utf8');
  const r = testFilesAfterPatch(patch, new Map([[TEST_FILE, base]]));
  const text = r.files.get(TEST_FILE);
  if (text === undefined) throw new Error(`the test patch does not give ${TEST_FILE}: ${r.problems.join('; ')}`);
  return text;
}

export function reply(over: Partial<SuggestionReply>): SuggestionReply {
  return {
    refusal: null,
    target: 'tests',
    summary: 'Loosen TB3 to what the request asks: the report names the file and the 1-based line number',
    rationale:
      'B5 only asks that each invalid line is reported with the file name and its line number; TB3 compares stderr with one exact wording the request never states, so the claude-code attempt, which prints "durations: log.txt, line 3: cannot parse", fails although it satisfies B4 and B5.',
    request: null,
    specs: null,
    specTestMap: null,
    testFiles: null,
    evidence: [
      { kind: 'test', attempt: null, step: null, test: 'TB3', run: null, line: null, stream: null, patch: null, file: null, hunk: null, spec: null, why: 'TB3 pins the exact stderr text' },
      { kind: 'spec', attempt: null, step: null, test: null, run: null, line: null, stream: null, patch: null, file: null, hunk: null, spec: 'B5', why: 'B5 asks for the file name and line number only' },
    ],
    ...over,
  };
}

/** The good repair, as the whole new test file. */
export function goodReplyWhole(root: string): string {
  const text = currentTestFile(root).replace(PINNED, LOOSENED);
  return JSON.stringify(reply({ testFiles: [{ path: TEST_FILE, content: text, diff: null }] }));
}

/** The good repair, as a unified diff of the test file. */
export function goodReplyDiff(root: string): string {
  const lines = currentTestFile(root).split('\n');
  const i = lines.indexOf(PINNED);
  if (i < 0) throw new Error('the pinned assertion is not in the test file');
  const ctx = lines.slice(i - 3, i);
  const after = lines.slice(i + 1, i + 3);
  const diff = [`--- a/${TEST_FILE}`, `+++ b/${TEST_FILE}`, `@@ -${i - 2},6 +${i - 2},6 @@`, ...ctx.map((l) => ` ${l}`), `-${PINNED}`, `+${LOOSENED}`, ...after.map((l) => ` ${l}`), ''].join('\n');
  return JSON.stringify(reply({ testFiles: [{ path: TEST_FILE, content: null, diff }] }));
}

/** Every file under `dir` (recursively) whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) out.push(p);
    }
  };
  walk(dir);
  return out;
}
