// Untrusted text never reaches the terminal raw: a dataset whose titles, specs, request, test names, attempt fields,
// notes, review-log entries, stored suggestion and folder names hold terminal escapes (title change, OSC 52 clipboard
// write, screen clear, C1 CSI, carriage-return overwrite, DEL) and bidirectional overrides and isolates, run through
// every command in-process with stdout and stderr captured. No raw control or bidi character may come out; the
// escapes show as visible text (`\x1b`, `\u202e`), and a name with a newline stays on its line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { newSuggestionId, saveSuggestion } from '../../src/adapters/fs/repairStore';
import { printJson, setOutput, table, termSafe } from '../../src/cli/output';
import { runCli } from '../../src/cli/run';
import { formatRun } from '../../src/cli/verify';
import type { VerifierRunRecord } from '../../src/core/verify/runResult';
import { tmpDir } from './helpers/tmp';

const OSC_TITLE = '\x1b]0;pwned-title\x07';
const OSC52 = '\x1b]52;c;cHduZWQ=\x07';
const CLEAR = '\x1b[2J\x1b[H';
const C1_CSI = '\x9b31m';
const BIDI = '\u202egnp.exe\u202c';
const ISOLATE = '\u2066iso\u2069';
const CR = 'real\rFAKE';
const HOSTILE = `${OSC_TITLE}${OSC52}${CLEAR}${C1_CSI}${BIDI}${ISOLATE}${CR}\x7f\u200e\u200f\u061c\x00\x08`;
/** The review log refuses NUL in notes and reasons (and says so); everything else goes in. */
const NOTE = HOSTILE.replace('\x00', '');

/** Any character a terminal would act on: C0 but tab and newline (so \r too), DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function assertInert(text: string, what: string): void {
  const m = RAW.exec(text);
  if (m) {
    const cp = (m[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0');
    assert.fail(`${what}: a raw U+${cp} reached the terminal near ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}`);
  }
}

async function run(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  setOutput({ stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  try {
    const code = await runCli(args);
    return { code, stdout, stderr };
  } finally {
    setOutput(undefined);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Runs a command, asserts nothing raw came out on either stream, and returns what it printed. */
async function inert(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await run(args, env);
  assertInert(r.stdout, `${args[0]} stdout`);
  assertInert(r.stderr, `${args[0]} stderr`);
  return r;
}

const BAD_TASK_FOLDER = `bad${OSC_TITLE}\nname${BIDI}`;
const BAD_ATTEMPT_FOLDER = `a${BIDI}\n2`;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function hostileDataset(): string {
  const root = path.join(tmpDir('sw-term-'), 'ds');
  write(path.join(root, 'specweave.json'), JSON.stringify({ format: 1, name: `hostile${HOSTILE}`, defaults: { image: 'specweave-base:bookworm' } }));
  const t = path.join(root, 'tasks', 'evil');
  write(
    path.join(t, 'task.json'),
    JSON.stringify({
      id: 'evil',
      title: `Evil ${HOSTILE} title\nsecond line`,
      repo: { name: `evil/${HOSTILE}`, path: 'repos/evil', baseCommit: 'a'.repeat(40) },
      verifier: { command: `pytest -rA ${HOSTILE}`, parser: 'pytest' },
      specs: [{ id: 'S1', category: 'other', text: `Spec ${HOSTILE}\nline two` }],
      tests: [
        { id: 'T1', name: `tests/test_evil.py::test_x[${HOSTILE}]`, kind: 'fail_to_pass', specs: ['S1'] },
        { id: 'T2', name: 'tests/test_evil.py::test_y', kind: 'pass_to_pass' },
      ],
      notes: [`note ${HOSTILE}`],
    }),
  );
  write(path.join(t, 'request.md'), `# Request ${HOSTILE}\n\nThe body ${HOSTILE}\r\nends here.\n`);
  const patch = (file: string) => `diff --git a/${file} b/${file}\nnew file mode 100644\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,2 @@\n+# ${HOSTILE}\n+x = 1\n`;
  write(path.join(t, 'tests.patch'), patch('tests/test_evil.py'));
  write(path.join(t, 'gold.patch'), patch('evil.py'));
  write(path.join(t, 'attempts', 'a1', 'attempt.json'), JSON.stringify({ model: `model${HOSTILE}`, agent: `agent${HOSTILE}`, claimed: { status: `claimed${HOSTILE}` } }));
  write(path.join(t, 'attempts', 'a1', 'patch.diff'), patch('evil.py'));
  write(path.join(t, 'attempts', BAD_ATTEMPT_FOLDER, 'attempt.json'), JSON.stringify({ model: 'm' }));
  write(path.join(root, 'tasks', BAD_TASK_FOLDER, 'task.json'), JSON.stringify({ id: 'bad' }));
  return root;
}

/** A stored suggestion whose every model-written text is hostile (as a reply from a hostile endpoint would be). */
function hostileSuggestion(root: string): string {
  const id = newSuggestionId();
  saveSuggestion(root, {
    record: {
      format: 1,
      id,
      task: 'evil',
      revision: 1,
      createdAt: new Date().toISOString(),
      curator: 'alice',
      status: 'ready',
      requestedTarget: 'tests',
      target: 'tests',
      summary: `Summary ${HOSTILE}\nsecond line`,
      rationale: `Rationale ${HOSTILE}\nmore ${HOSTILE}`,
      evidence: [{ kind: 'test', test: 'T1', why: `because ${HOSTILE}` }],
      llm: { baseUrl: `http://x/${HOSTILE}`, model: `m${HOSTILE}`, temperature: 0, maxTokens: 32000, maxReplyTokens: 8000, timeoutSec: 5, tries: [], costSource: 'unknown', durationMs: 1 },
      prompt: { file: 'prompt.md', estimatedTokens: 1, budgetTokens: 1, sections: [], focus: { attempts: [], tests: [], specs: [], steering: [] } },
      rounds: [{ messages: [], reply: HOSTILE }],
      taskFingerprint: { taskJson: '', request: '', testPatch: '' },
      timings: { contextMs: 0, promptMs: 0, totalMs: 0 },
    },
    files: [{ role: 'test', path: 'tests/test_evil.py', current: '# old\n', proposed: `# ${HOSTILE}\n`, diff: `--- a/tests/test_evil.py\n+++ b/tests/test_evil.py\n@@ -1 +1 @@\n-# old\n+# ${HOSTILE}\n` }],
    promptDoc: `# Prompt\n\n${HOSTILE}\n`,
  });
  return id;
}

describe('untrusted text on the terminal', () => {
  it('termSafe escapes control and bidi characters visibly; lines stay lines; blocks keep tabs and newlines', () => {
    assert.equal(termSafe(`a${OSC_TITLE}b`), 'a\\x1b]0;pwned-title\\x07b');
    assert.equal(termSafe('x\u202ey\u2066z\u200e\u061c'), 'x\\u202ey\\u2066z\\u200e\\u061c');
    assert.equal(termSafe(`${C1_CSI}\x7f\x00`), '\\x9b31m\\x7f\\x00');
    assert.equal(termSafe('one\ntwo\tthree\rfour'), 'one\\ntwo\\tthree\\rfour');
    assert.equal(termSafe('one\ntwo\tthree\rfour\r\nfive', 'block'), 'one\ntwo\tthree\\rfour\nfive');
    assert.equal(termSafe('plain text, ünïcödé, 日本語 and emoji 🙂'), 'plain text, ünïcödé, 日本語 and emoji 🙂');
    // A table cell with a newline stays in its row.
    assert.equal(table(['A', 'B'], [[`x\ny`, 1]]), 'A     B\nx\\ny  1\n');
  });

  it('--json escapes C1 and bidi characters as \\u escapes: still valid JSON, the same value, inert on a terminal', async () => {
    let printed = '';
    setOutput({ stdout: (t) => (printed += t), stderr: () => undefined });
    try {
      printJson({ s: HOSTILE, [`k${BIDI}`]: 1 });
    } finally {
      setOutput(undefined);
    }
    assertInert(printed, 'printJson');
    assert.deepEqual(JSON.parse(printed), { s: HOSTILE, [`k${BIDI}`]: 1 });
    assert.match(printed, /\\u202e/);
    assert.match(printed, /\\u009b/);
  });

  it('validate, list and show print hostile texts and folder names escaped, each name on one line', async () => {
    const ds = hostileDataset();
    const v = await inert(['validate', ds]);
    assert.equal(v.code, 1);
    const badLine = v.stdout.split('\n').find((l) => l.includes('tasks/bad\\x1b]0;pwned-title\\x07\\nname\\u202egnp.exe\\u202c'));
    assert.ok(badLine, v.stdout);
    assert.ok(v.stdout.split('\n').some((l) => l.includes('attempts/a\\u202egnp.exe\\u202c\\n2')), v.stdout);
    const vj = await inert(['validate', ds, '--json']);
    const parsed = JSON.parse(vj.stdout) as { name: string; problems: Array<{ file: string }> };
    assert.equal(parsed.name, `hostile${HOSTILE}`);
    assert.ok(parsed.problems.some((p) => p.file.includes(BAD_TASK_FOLDER)));

    const l = await inert(['list', ds]);
    assert.equal(l.code, 1, 'the bad task folder is an error (docs/cli.md: list exits 1 when the dataset has one)');
    const row = l.stdout.split('\n').find((x) => x.startsWith('evil '));
    assert.ok(row?.includes('Evil \\x1b]0;pwned-title\\x07\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\\x1b[H\\x9b31m\\u202egnp.exe\\u202c\\u2066iso\\u2069real\\rFAKE'), l.stdout);
    assert.ok(row?.endsWith('title\\nsecond line'), 'the title stays on its row');
    assert.ok(l.stderr.includes('tasks/bad\\x1b]0;pwned-title\\x07\\nname'), l.stderr);
    const lj = await inert(['list', ds, '--json']);
    assert.equal((JSON.parse(lj.stdout) as Array<{ title: string }>)[0]?.title, `Evil ${HOSTILE} title\nsecond line`);

    const s = await inert(['show', ds, 'evil']);
    assert.equal(s.code, 1, `the task has an error (its bad attempt folder), so show exits 1: ${s.stderr}`);
    assert.ok(s.stdout.split('\n')[0]?.startsWith('evil  Evil \\x1b]0;pwned-title\\x07'), s.stdout);
    assert.ok(s.stdout.includes('The body \\x1b]0;pwned-title'), 'the request is shown, escaped');
    assert.ok(s.stdout.includes('ends here.'));
    for (const shown of ['note \\x1b]0;', 'pytest -rA \\x1b]0;', 'model\\x1b]0;', 'agent\\x1b]0;', 'tests/test_evil.py::test_x[\\x1b]0;', 'Spec \\x1b]0;']) {
      assert.ok(s.stdout.includes(shown), `show prints ${shown}`);
    }
    const sj = await inert(['show', ds, 'evil', '--json']);
    assert.equal((JSON.parse(sj.stdout) as { request: string }).request, `# Request ${HOSTILE}\n\nThe body ${HOSTILE}\r\nends here.\n`);
    const missing = await inert(['show', ds, `nope${CLEAR}`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no task "nope\\x1b\[2J\\x1b\[H"/);
    const unknown = await inert([`frob${OSC52}`]);
    assert.equal(unknown.code, 2);
  });

  it('the recording commands, log, stats and export print notes, reasons and names escaped', async () => {
    const ds = hostileDataset();
    const who = ['--curator', 'alice'];
    const lab = await inert(['label', ds, 'evil', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'violated', '--note', NOTE, ...who]);
    assert.equal(lab.code, 0, lab.stderr);
    const labJson = await inert(['label', ds, 'evil', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'unsure', '--note', NOTE, '--json', ...who]);
    assert.equal((JSON.parse(labJson.stdout) as { event: { payload: { note: string } } }).event.payload.note, NOTE);
    const eventId = (JSON.parse(labJson.stdout) as { event: { id: string } }).event.id;
    assert.equal((await inert(['score', ds, 'evil', '--underspecified', '1', '--fn-severity', '0', '--fp-severity', '2', '--other', NOTE, '--note', NOTE, ...who])).code, 0);
    const st = await inert(['status', ds, 'evil', 'flagged', '--note', NOTE, ...who]);
    assert.equal(st.code, 0, st.stderr);
    assert.equal((await inert(['submit', ds, 'evil', '--note', NOTE, ...who])).code, 0);
    const ap = await inert(['approve', ds, 'evil', '--note', NOTE, '--waive', 'every-cell-labelled', '--reason', NOTE, ...who]);
    assert.ok(ap.code === 0 || ap.code === 1);
    const undo = await inert(['undo', ds, eventId, '--note', NOTE, ...who]);
    assert.equal(undo.code, 0, undo.stderr);
    const rej = await inert(['reject', ds, 'evil', '--reason', NOTE, ...who]);
    assert.ok(rej.code === 0 || rej.code === 1);
    const badCurator = await inert(['label', ds, 'evil', '--attempt', 'a1', '--spec', 'S1', '--verdict', 'violated', '--curator', `eve${CLEAR}`]);
    assert.equal(badCurator.code, 2);
    const unknownTask = await inert(['status', ds, `t${OSC52}`, 'in_review', ...who]);
    assert.equal(unknownTask.code, 1);

    const log = await inert(['log', ds]);
    assert.equal(log.code, 0);
    assert.ok(log.stdout.includes('\\x1b]0;pwned-title'), log.stdout);
    assert.ok(log.stdout.split('\n').length >= 6);
    const logJson = await inert(['log', ds, 'evil', '--json']);
    assert.ok((JSON.parse(logJson.stdout) as Array<{ summary: string }>).length >= 6);
    const stats = await inert(['stats', ds]);
    assert.equal(stats.code, 0);
    assert.ok(stats.stdout.includes('model\\x1b]0;pwned-title'), stats.stdout);
    JSON.parse((await inert(['stats', ds, '--json'])).stdout);
    const outDir = path.join(tmpDir(), `out${OSC_TITLE}`);
    const ex = await inert(['export', ds, '--out', outDir]);
    assert.equal(ex.code, 0, ex.stderr);
    assert.ok(ex.stdout.includes('out\\x1b]0;pwned-title\\x07'), ex.stdout);
  });

  it('import prints instance ids, files and reasons escaped', async () => {
    const dir = tmpDir();
    const rows = [
      { repo: `acme/${OSC_TITLE}`, instance_id: `acme__w-1${CLEAR}`, base_commit: '1'.repeat(40), patch: 'diff --git a/w.py b/w.py\n--- a/w.py\n+++ b/w.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n', test_patch: 'diff --git a/tests/test_w.py b/tests/test_w.py\n--- a/tests/test_w.py\n+++ b/tests/test_w.py\n@@ -1 +1,2 @@\n def test_old():\n+    pass\n', problem_statement: HOSTILE, FAIL_TO_PASS: [`tests/test_w.py::test_new${BIDI}`], PASS_TO_PASS: [] },
      { repo: 'acme/ok', instance_id: 'acme__ok-2', base_commit: '2'.repeat(40), patch: 'diff --git a/o.py b/o.py\n--- a/o.py\n+++ b/o.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n', test_patch: 'diff --git a/tests/test_o.py b/tests/test_o.py\n--- a/tests/test_o.py\n+++ b/tests/test_o.py\n@@ -1 +1,2 @@\n def test_old():\n+    pass\n', problem_statement: `fine ${HOSTILE}`, FAIL_TO_PASS: [`tests/test_o.py::test_new[${OSC52}]`], PASS_TO_PASS: [] },
    ];
    const file = path.join(dir, `rows${BIDI}.jsonl`);
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + `\n{"instance_id": "broken${OSC_TITLE}", \n`);
    const r = await inert(['import', 'swebench', '--instances', file, '--out', path.join(dir, 'ds')]);
    assert.ok(r.stdout.includes('rows\\u202egnp.exe\\u202c.jsonl'), r.stdout);
    JSON.parse((await inert(['import', 'swebench', '--instances', file, '--out', path.join(dir, 'ds2'), '--json'])).stdout);
  });

  it('repair show prints a hostile stored suggestion (summary, rationale, evidence, diff, prompt) escaped', async () => {
    const ds = hostileDataset();
    const id = hostileSuggestion(ds);
    const list = await inert(['repair', 'show', ds, 'evil']);
    assert.ok(list.stdout.includes('Summary \\x1b]0;pwned-title\\x07'), list.stdout);
    assert.equal(list.stdout.trimEnd().split('\n').length, 1, 'one suggestion, one line');
    const one = await inert(['repair', 'show', ds, 'evil', id]);
    assert.equal(one.code, 0, one.stderr);
    for (const shown of ['Rationale \\x1b]0;', 'because \\x1b]0;', '+# \\x1b]0;', 'more \\x1b]0;']) assert.ok(one.stdout.includes(shown), `${shown} in ${one.stdout}`);
    const prompt = await inert(['repair', 'show', ds, 'evil', id, '--prompt']);
    assert.ok(prompt.stdout.includes('\\x1b]52;c;cHduZWQ=\\x07'));
    const j = await inert(['repair', 'show', ds, 'evil', id, '--json']);
    assert.equal((JSON.parse(j.stdout) as { suggestion: { summary: string } }).suggestion.summary, `Summary ${HOSTILE}\nsecond line`);
  });

  it('repair and verify print a hostile endpoint or engine address escaped when they fail', async () => {
    const ds = hostileDataset();
    const rep = await inert(['repair', ds, 'evil', '--curator', 'alice', '--base-url', `http://127.0.0.1:9/v1${OSC_TITLE}`, '--timeout', '2'], { OPENAI_API_KEY: undefined });
    assert.equal(rep.code, 1, rep.stderr);
    const ver = await inert(['verify', ds, '--host', `unix:///nonexistent/${OSC52}.sock`]);
    assert.equal(ver.code, 1, ver.stderr);
    assert.ok(ver.stderr.includes('\\x1b]52;c;'), ver.stderr);
  });

  it("verify's result lines escape the run's reason, ids and flags", () => {
    const grade = { failToPass: { success: [], failure: ['x'], missing: [], skipped: [] }, passToPass: { success: [], failure: [], missing: [], skipped: [] } };
    const rec = { taskId: 'evil', attemptId: 'a1', repeat: 1, status: 'failed', grade, apply: { attempt: { method: 'git-apply' } }, reused: false, timings: { totalMs: 1200 }, reason: `FAILED ${HOSTILE}\nsecond` } as unknown as VerifierRunRecord;
    const text = formatRun(rec, { task: [], attempts: { a1: [{ kind: 'attempt_edits_tests', attemptId: 'a1', message: `edits ${HOSTILE}` } as never] } });
    assertInert(text, 'formatRun');
    assert.equal(text.split('\n').length, 4, 'the line, the reason, the flag and the end');
  });
});
