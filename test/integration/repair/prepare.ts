// The example dataset made ready for a repair in a UI test: a copy with its repository built beside it, the
// false-negative task verified on revision 1 in real containers, and the curator's labels saying the claude-code
// attempt satisfies B4 and B5. Takes the project root explicitly: the in-host suite runs bundled elsewhere.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FN_TASK = 'total-command';
export const FN_ATTEMPT = 'claude-code-sonnet-4-5';
export const TEST_FILE = 'tests/test_cli.py';
export const PINNED = `    assert proc.stderr == "error: log.txt:3: cannot parse 'abc'\\n"`;
export const LOOSENED = '    assert re.search(r"log\\.txt\\D+3\\b", proc.stderr)';

/** A copy of examples/ in `parent` (or a new temp folder) with the repository built; returns the dataset folder. */
export function exampleDataset(projectRoot: string, parent?: string): string {
  const dir = path.join(parent ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sw-repair-ui-')), 'examples');
  fs.cpSync(path.join(projectRoot, 'examples'), dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}repos${path.sep}`) && !src.endsWith(`${path.sep}repos`) });
  execFileSync('sh', [path.join(dir, 'build-repos.sh')], { stdio: 'pipe' });
  return path.join(dir, 'dataset');
}

/**
 * Runs gold, empty and every attempt of the false-negative task in containers, then labels the false negative, both
 * through the built CLI (dist/cli.js): the in-host suite is bundled and cannot carry the engine adapter's natives.
 */
export function verifyAndLabel(projectRoot: string, root: string, node = process.execPath): void {
  const cli = path.join(projectRoot, 'dist', 'cli.js');
  const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  execFileSync(node, [cli, 'verify', root, FN_TASK, '--concurrency', '2'], { stdio: 'pipe', env, timeout: 240_000 });
  for (const spec of ['B4', 'B5']) {
    execFileSync(node, [cli, 'label', root, FN_TASK, '--attempt', FN_ATTEMPT, '--spec', spec, '--verdict', 'satisfied', '--note', 'reports the file and the line, as asked', '--evidence', 'test:TB3', '--curator', 'alice'], { stdio: 'pipe', env });
  }
}

/** The good repair as a reply: the test file with TB3 loosened, read from the base commit and the test patch (`summary`: the model's own words instead of the default). */
export function goodReply(root: string, applyPatch: (patch: string, base: string) => string, o: { summary?: string } = {}): string {
  const task = JSON.parse(fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'task.json'), 'utf8')) as { repo: { path: string; baseCommit: string } };
  const repo = path.resolve(root, task.repo.path);
  const base = execFileSync('git', ['-C', repo, 'show', `${task.repo.baseCommit}:${TEST_FILE}`], { encoding: 'utf8' });
  const current = applyPatch(fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'tests.patch'), 'utf8'), base);
  const E = { attempt: null, step: null, test: null, run: null, line: null, stream: null, patch: null, file: null, hunk: null, spec: null };
  return JSON.stringify({
    refusal: null,
    target: 'tests',
    summary: o.summary ?? 'Loosen TB3 to what B5 asks: the report names the file and the 1-based line number',
    rationale: 'TB3 pins one exact stderr wording that neither the request nor B5 states; the claude-code attempt reports "log.txt, line 3" and fails only because of the wording.',
    request: null,
    specs: null,
    specTestMap: null,
    testFiles: [{ path: TEST_FILE, content: current.replace(PINNED, LOOSENED), diff: null }],
    evidence: [{ ...E, kind: 'test', test: 'TB3', why: 'TB3 compares stderr with one exact string' }],
  });
}
