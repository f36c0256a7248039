// `specweave import harbor`: Harbor / Terminal-Bench 2 task folders and Harbor job outputs, as a curator sees them
// after the import (tasks, request, environment, verifier, tests and gold patches, attempts, runs, verdicts), and the
// hostile or unexpected folders a user brings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importCommand } from '../../../src/cli/import';
import { setOutput } from '../../../src/cli/output';
import type { HarborImportSummary } from '../../../src/app/importHarbor';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { addedFilesOf } from '../../../src/core/addedFiles';
import { dockerfileWorkdir, memoryMb, trialAttemptIds } from '../../../src/core/import/harbor';
import type { HarborTrial } from '../../../src/core/import/harbor';
import { tmpDir } from '../helpers/tmp';

const ROOT = path.resolve(__dirname, '../../..');
const FX = path.join(ROOT, 'test/fixtures/import/harbor');
const TASKS = path.join(FX, 'tasks');
const JOBS = path.join(FX, 'jobs');

/** Runs the command in this process, capturing what it prints through the CLI's output sink. */
async function inProcess(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  setOutput({ stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  try {
    const code = await importCommand.run(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    setOutput(undefined);
  }
}

async function importJson(...args: string[]): Promise<{ code: number; s: HarborImportSummary; out: string }> {
  const out = path.join(tmpDir(), 'ds');
  const r = await inProcess('harbor', ...args, '--out', out, '--json');
  assert.equal(r.stderr, '');
  return { code: r.code, s: JSON.parse(r.stdout) as HarborImportSummary, out };
}

const read = (...p: string[]) => fs.readFileSync(path.join(...p), 'utf8');

test('a Harbor task folder becomes a task: request, built environment, reward verifier, tests and solve.sh as patches', async () => {
  const { code, s, out } = await importJson(path.join(TASKS, 'count-fix'));
  assert.equal(code, 0, JSON.stringify(s.problems));
  assert.deepEqual(s.problems, []);
  assert.equal(s.tasks.length, 1);
  const t = s.tasks[0];
  assert.ok(t);
  assert.equal(t.id, 'count-fix');
  assert.equal(t.name, 'terminal-bench/count-fix');
  assert.match(t.image ?? '', /^specweave-harbor\/count-fix:[0-9a-f]{12}$/);
  assert.equal(t.dockerfile, 'environment/Dockerfile');
  assert.equal(t.workdir, '/app');
  assert.deepEqual(t.verifier, { command: 'bash /tests/test.sh', parser: 'reward', goldCommand: 'bash /solution/solve.sh' });
  assert.equal(t.gold, true);
  assert.deepEqual(t.tests, { failToPass: 1, passToPass: 0 });

  // What a curator opens: the dataset loads cleanly, the request is instruction.md, the build context was copied.
  const ds = loadDataset(out, { deep: true });
  assert.deepEqual(ds.problems.filter((p) => p.severity === 'error'), []);
  const task = ds.tasks[0];
  assert.ok(task);
  assert.equal(task.title, 'Fix an off-by-one in a small Python module.');
  assert.equal(read(out, task.files.request), read(TASKS, 'count-fix/instruction.md'));
  assert.deepEqual(task.environment.limits, { memoryMb: 512, cpus: 1, diskMb: 10240, pids: 512 });
  assert.equal(task.environment.timeoutSec, 240);
  assert.equal(read(out, task.dir, 'environment/counter.py'), read(TASKS, 'count-fix/environment/counter.py'));
  assert.deepEqual(task.tests.map((x) => [x.name, x.kind]), [['reward', 'fail_to_pass']]);
  assert.equal(task.repo.kind, 'image');

  // The tests and the solution are patches that add exactly the task's files (test.sh and solve.sh executable).
  const tests = addedFilesOf(fs.readFileSync(path.join(out, task.files.testPatch)));
  assert.ok(tests.ok);
  assert.deepEqual(tests.files.map((f) => [f.path, f.executable]), [['tests/test.sh', true], ['tests/test_outputs.py', false]]);
  assert.equal(Buffer.from(tests.files[0]?.content ?? []).toString(), read(TASKS, 'count-fix/tests/test.sh'));
  const gold = addedFilesOf(fs.readFileSync(path.join(out, task.files.goldPatch ?? '')));
  assert.ok(gold.ok);
  assert.deepEqual(gold.files.map((f) => f.path), ['solution/solve.sh']);
  assert.equal(Buffer.from(gold.files[0]?.content ?? []).toString(), read(TASKS, 'count-fix/solution/solve.sh'));
  assert.deepEqual(task.source?.metadata, {
    author_name: 'A. Author', author_email: 'a@example.org', difficulty: 'easy', category: 'debugging', tags: ['python'],
    expert_time_estimate_min: 5, junior_time_estimate_min: 20,
  });
});

test('a folder of tasks and a job: one attempt per trial with its reward, the ATIF copy kept and the native log named', async () => {
  const { code, s, out } = await importJson(TASKS, '--jobs', JOBS);
  assert.equal(code, 0, JSON.stringify(s.problems));
  assert.deepEqual(s.tasks.map((t) => t.id), ['acme__calc-7', 'count-fix', 'fetch-tool']);
  assert.deepEqual(s.jobDirs, [{ dir: JOBS, trials: 5 }]);
  const cf = s.tasks.find((t) => t.id === 'count-fix');
  assert.deepEqual(
    cf?.attempts.map((a) => [a.id, a.agent, a.model, a.run, a.trial, a.verdict.status, a.verdict.reward, a.trajectory?.format]),
    [
      ['claude-code-claude-sonnet-4-5', 'claude-code', 'anthropic/claude-sonnet-4-5', '2026-01-15__10-00-00', 'count-fix__Ab3dE9q', 'resolved', 1, 'atif'],
      ['codex-gpt-5', 'codex', 'openai/gpt-5', '2026-01-15__10-00-00', 'count-fix__Zq81LmP', 'unresolved', 0, 'atif'],
    ],
  );
  // One attempt per trial, even though the trial holds the agent's own log and the ATIF conversion.
  assert.deepEqual(cf?.attempts[0]?.skippedTrajectories, [path.join(JOBS, '2026-01-15__10-00-00/count-fix__Ab3dE9q/agent/claude-code.txt')]);
  // The oracle agent is Harbor's gold probe, not an attempt; a trial of an unknown task is unmatched, never dropped.
  assert.match(s.skipped.find((k) => k.kind === 'trial')?.reason ?? '', /oracle agent .*not a solver attempt: resolved, reward 1/);
  assert.deepEqual(s.unmatched.map((u) => [u.taskName, u.reason]), [['ghost-task', 'no task folder of this name among the TASK_DIRs']]);
  // The job's own result.json is recognised.
  assert.match(s.ignored.find((i) => i.file.endsWith('2026-01-15__10-00-00/result.json'))?.reason ?? '', /job's summary \(5 trial\(s\)\)/);

  const ds = loadDataset(out, { deep: true });
  assert.deepEqual(ds.problems.filter((p) => p.severity === 'error'), []);
  const task = ds.tasks.find((t) => t.id === 'count-fix');
  const claude = task?.attempts.find((a) => a.id === 'claude-code-claude-sonnet-4-5');
  assert.ok(claude);
  assert.equal(claude.agent, 'claude-code 2.0.31');
  assert.equal(claude.costUsd, 0.21);
  assert.deepEqual(claude.tokens, { input: 120000, output: 3000 });
  assert.deepEqual(claude.claimed, { status: 'completed' });
  assert.deepEqual(claude.recordedResults.map((r) => [r.source, r.status, r.resolved, r.detail, r.tests]), [['harbor-trial', 'resolved', true, 'reward 1', { reward: 'PASSED' }]]);
  assert.equal(read(out, claude.patchFile ?? ''), '');
  assert.equal(read(out, claude.trajectoryFile ?? ''), read(JOBS, '2026-01-15__10-00-00/count-fix__Ab3dE9q/agent/trajectory.json'));
  const codex = task?.attempts.find((a) => a.id === 'codex-gpt-5');
  assert.deepEqual(codex?.claimed, { status: 'AgentTimeoutError', summary: 'Agent execution timed out after 120.0 seconds' });
  // The curator is told why the patches are empty and what the oracle trial said.
  assert.ok(task?.notes.some((n) => /record no patch: their patch\.diff is empty/.test(n)));
  assert.ok(task?.notes.some((n) => /count-fix__Or4cle1 ran the oracle agent/.test(n)));

  // A trial whose verifier never ran has an error verdict with Harbor's reason, not a guess.
  const fetch = ds.tasks.find((t) => t.id === 'fetch-tool')?.attempts[0];
  assert.deepEqual(fetch?.recordedResults.map((r) => [r.status, r.resolved]), [['error', undefined]]);
  assert.match(fetch?.recordedResults[0]?.detail ?? '', /the verifier did not run \(RewardFileNotFoundError: No reward file found/);
});

test('older and adapter-made tasks: v1.0 task.toml, memory "2G", a prebuilt image, the SWE-bench row in tests/config.json', async () => {
  const { s, out } = await importJson(TASKS);
  const ds = loadDataset(out);
  const fetch = ds.tasks.find((t) => t.id === 'fetch-tool');
  assert.ok(fetch);
  assert.equal(fetch.environment.image, 'example/fetch-tool:20251031');
  assert.equal(fetch.environment.dockerfile, 'environment/Dockerfile');
  assert.deepEqual(fetch.environment.limits, { memoryMb: 2048, cpus: 2, diskMb: 10240, pids: 512 });
  assert.equal(fetch.environment.timeoutSec, 600);
  assert.equal(fetch.files.goldPatch, undefined);
  const notes = s.tasks.find((t) => t.id === 'fetch-tool')?.notes.join('\n') ?? '';
  // What the verifier cannot give this task is said, not discovered at run time.
  assert.match(notes, /tests\/test\.sh fetches software when it runs .*runs without a network/);
  assert.match(notes, /\[verifier\.env\] \(OPENAI_API_KEY\): .* not passed/);
  assert.doesNotMatch(JSON.stringify(fetch), /\$\{OPENAI_API_KEY\}/);
  assert.match(notes, /no solution\/solve\.sh: the task has no gold probe/);

  const swe = ds.tasks.find((t) => t.id === 'acme__calc-7');
  assert.ok(swe);
  assert.deepEqual(swe.tests.map((t) => [t.name, t.kind]), [['tests/test_ops.py::test_div_float', 'fail_to_pass'], ['tests/test_ops.py::test_div_int', 'pass_to_pass']]);
  assert.deepEqual(swe.repo, { name: 'acme/calc', kind: 'image', baseCommit: '0123456789abcdef0123456789abcdef01234567' });
  assert.equal(swe.environment.workdir, '/testbed');
  assert.equal(swe.environment.limits.memoryMb, 4096);
  assert.equal(swe.source?.swebench_instance_id, 'acme__calc-7');
});

test('the human report names tasks, attempts, verdicts, the skipped and the unmatched, with hostile names made inert', async () => {
  const dir = tmpDir();
  fs.cpSync(path.join(TASKS, 'count-fix'), path.join(dir, 'evil'), { recursive: true });
  const toml = read(dir, 'evil/task.toml').replace('name = "terminal-bench/count-fix"', 'name = "org/evil\\u001b]0;owned\\u0007"').replace('Fix an off-by-one', 'Fix \\u202eit');
  fs.writeFileSync(path.join(dir, 'evil/task.toml'), toml);
  const r = await inProcess('harbor', dir, path.join(TASKS, 'count-fix'), '--jobs', JOBS, '--out', path.join(tmpDir(), 'ds'));
  assert.equal(r.code, 0, r.stdout);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(r.stdout, /[\u001b\u0007\u202e]/);
  assert.match(r.stdout, /^Imported 2 task\(s\), 2 attempt\(s\) into /);
  assert.match(r.stdout, /claude-code-claude-sonnet-4-5 {2}claude-code, model anthropic\/claude-sonnet-4-5; trial count-fix__Ab3dE9q of run 2026-01-15__10-00-00: resolved \(reward 1\)/);
  assert.match(r.stdout, /Not matched \(2\):\n {2}trial of fetch-tool .*\n {2}trial of ghost-task/);
  assert.match(r.stdout, /Skipped \(2\):\n {2}trial .*count-fix__Or4cle1\/result\.json: the oracle agent/);
});

function writeTask(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const MINIMAL = {
  'task.toml': 'version = "1.0"\n[verifier]\ntimeout_sec = 60\n',
  'instruction.md': 'Do it.\r\nKeep CRLF.\r\n',
  'environment/Dockerfile': 'FROM specweave-base:bookworm\nWORKDIR app\n',
  'tests/test.sh': 'echo 1 > /logs/verifier/reward.txt\n',
};

test('broken, partial and foreign folders are refused with the file and line, and the others still import', async () => {
  const root = tmpDir();
  writeTask(path.join(root, 'ok'), MINIMAL);
  writeTask(path.join(root, 'bad-toml'), { ...MINIMAL, 'task.toml': '[verifier]\ntimeout_sec = 60\ntimeout_sec = 70\n' });
  writeTask(path.join(root, 'no-tests'), { 'task.toml': 'version = "1.0"\n', 'instruction.md': 'x\n' });
  writeTask(path.join(root, 'steps'), { ...MINIMAL, 'task.toml': '[[steps]]\nname = "one"\n' });
  writeTask(path.join(root, 'windows'), { ...MINIMAL, 'task.toml': '[environment]\nos = "windows"\n' });
  fs.symlinkSync('/etc/passwd', path.join(root, 'ok', 'tests', 'passwd'));
  const { code, s, out } = await importJson(root);
  assert.equal(code, 1);
  assert.deepEqual(s.tasks.map((t) => t.id), ['ok']);
  const msg = (file: string) => s.problems.filter((p) => p.file.endsWith(file)).map((p) => `${p.severity} ${p.line ?? ''} ${p.message}`);
  assert.deepEqual(msg('bad-toml/task.toml'), ['error 3 the key "timeout_sec" is defined twice; the task is skipped']);
  assert.match(msg('no-tests/tests/test.sh').join(), /needs tests\/test\.sh/);
  assert.match(msg('steps/task.toml').join(), /multi-step Harbor tasks/);
  assert.match(msg('windows/task.toml').join(), /environment os "windows"/);
  // A symlink in tests/ is never followed into the patch.
  assert.match(msg('ok/tests/passwd').join(), /symbolic link \(not followed\); it is left out of the patch/);
  const ds = loadDataset(out);
  const ok = ds.tasks[0];
  assert.ok(ok);
  assert.equal(read(out, ok.files.request), 'Do it.\r\nKeep CRLF.\r\n');
  assert.doesNotMatch(read(out, ok.files.testPatch), /root:/);
  // A relative WORKDIR cannot be known: Terminal-Bench's /app is assumed, and said.
  assert.equal(ok.environment.workdir, '/app');
  assert.ok(ok.notes.some((n) => /WORKDIR app, which cannot be resolved/.test(n)));
  assert.ok(ok.notes.some((n) => /names no working directory; \/app is assumed/.test(n)));
});

test('what is not a Harbor task says what it is; nothing is written and the exit code is 1', async () => {
  const tb1 = writeTask(tmpDir(), { 'task.yaml': 'instruction: |-\n  Say hello.\nauthor_name: x\nparser_name: pytest\n' });
  const a = await importJson(tb1);
  assert.equal(a.code, 1);
  assert.match(a.s.problems.map((p) => p.message).join('\n'), /Terminal-Bench 1 task .*convert it with Harbor's terminal-bench adapter/);
  assert.match(a.s.problems.map((p) => p.message).join('\n'), /no Harbor task could be read; nothing was written/);
  assert.equal(fs.existsSync(path.join(a.out, 'specweave.json')), false);
  const swe = writeTask(tmpDir(), { 'task.yaml': 'instance_id: a__b-1\n', 'tests.json': '{}' });
  assert.match((await importJson(swe)).s.problems[0]?.message ?? '', /specweave import swebench --task-dirs/);
  const text = await inProcess('harbor', tb1, '--out', path.join(tmpDir(), 'x'));
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^Nothing was imported into .*: no Harbor task could be read/);
  assert.doesNotMatch(text.stdout, /Imported 0 task/);
});

test('a broken trial result is named; re-importing keeps existing task folders unless --replace', async () => {
  const jobs = tmpDir();
  fs.cpSync(JOBS, jobs, { recursive: true });
  fs.writeFileSync(path.join(jobs, '2026-01-15__10-00-00/count-fix__Zq81LmP/result.json'), '{"trial_name": ');
  // A result.json too large to hold in memory (sparse: nothing is written) is refused, not read.
  fs.truncateSync(path.join(jobs, '2026-01-15__10-00-00/ghost-task__Xx11yy2/result.json'), 65 * 1024 * 1024);
  const out = path.join(tmpDir(), 'ds');
  const first = await inProcess('harbor', path.join(TASKS, 'count-fix'), '--jobs', jobs, '--out', out, '--json');
  const s = JSON.parse(first.stdout) as HarborImportSummary;
  assert.equal(first.code, 1);
  assert.match(s.problems.find((p) => p.file.endsWith('count-fix__Zq81LmP/result.json'))?.message ?? '', /not JSON .*the trial is skipped/);
  assert.match(s.problems.find((p) => p.file.endsWith('ghost-task__Xx11yy2/result.json'))?.message ?? '', /^68157440 bytes: files over 67108864 bytes are not read; the trial is skipped$/);
  assert.deepEqual(s.tasks[0]?.attempts.map((a) => a.id), ['claude-code-claude-sonnet-4-5']);
  fs.appendFileSync(path.join(out, 'tasks/count-fix/request.md'), 'A curator edit.\n');
  const again = JSON.parse((await inProcess('harbor', path.join(TASKS, 'count-fix'), '--out', out, '--json')).stdout) as HarborImportSummary;
  assert.equal(again.tasks[0]?.status, 'kept');
  assert.match(read(out, 'tasks/count-fix/request.md'), /A curator edit\./);
  const replaced = JSON.parse((await inProcess('harbor', path.join(TASKS, 'count-fix'), '--out', out, '--replace', '--json')).stdout) as HarborImportSummary;
  assert.equal(replaced.tasks[0]?.status, 'replaced');
  assert.doesNotMatch(read(out, 'tasks/count-fix/request.md'), /A curator edit\./);
});

test('usage: import harbor needs a TASK_DIR and --out, and refuses the options of import swebench', async () => {
  assert.match((await inProcess('harbor', '--out', tmpDir())).stderr, /needs at least one TASK_DIR/);
  assert.match((await inProcess('harbor', TASKS)).stderr, /--out DATASET is required/);
  assert.match((await inProcess('harbor', TASKS, '--instances', 'x', '--out', tmpDir())).stderr, /--instances is an option of import swebench/);
  assert.match((await inProcess('swebench', '--instances', 'x', '--jobs', JOBS, '--out', tmpDir())).stderr, /--jobs is an option of import harbor/);
});

test('repeated trials of one agent get -2, -3 in a fixed order; sizes and WORKDIRs as Harbor task files write them', () => {
  const t = (trialName: string, agent = 'claude-code', model = 'anthropic/claude-opus-4-1'): HarborTrial =>
    ({ dir: trialName, resultFile: `${trialName}/result.json`, trialName, taskName: 'x', agent, model, job: 'j', exitStatus: 'completed', warnings: [] }) as HarborTrial;
  const trials = [t('x__c'), t('x__a'), t('x__b', 'codex', 'openai/gpt-5'), t('x__d', 'gold', 'm')];
  const ids = trialAttemptIds(trials);
  assert.deepEqual(trials.map((x) => ids.get(x)), ['claude-code-claude-opus-4-1-2', 'claude-code-claude-opus-4-1', 'codex-gpt-5', 'gold-m']);
  const gold = t('y', 'gold', '');
  assert.equal(trialAttemptIds([gold]).get(gold), 'gold-agent');
  assert.deepEqual(['4G', '512M', '2048', '1.5G', 'lots'].map(memoryMb), [4096, 512, 0, 1536, undefined]);
  assert.deepEqual(dockerfileWorkdir('FROM x\nWORKDIR /app\nWORKDIR /app/src/\n'), { workdir: '/app/src' });
  assert.deepEqual(dockerfileWorkdir('FROM x\nWORKDIR /app\nWORKDIR $HOME\n'), { workdir: '/app', unknown: '$HOME' });
});
