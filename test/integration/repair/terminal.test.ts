// A model reply and a server error full of terminal escapes (title change, OSC 52 clipboard write, screen clear,
// carriage-return overwrite, C1 CSI, bidi override) reach the curator's terminal inert through `specweave repair`:
// the real loopback server, the real CLI process, its real stdout and stderr.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { FN_TASK, TEST_FILE, copyExample, currentTestFile, reply } from './exampleCopy';
import { FakeOpenAI } from './fakeOpenAI';
import { cliArgs } from '../../unit/helpers/cli';

const HOSTILE = '\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[H\x9b31m\u202eevil\u202c real\rFAKE\x7f';
// eslint-disable-next-line no-control-regex
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
let fake: FakeOpenAI;
let base = '';

before(async () => {
  fake = new FakeOpenAI();
  base = await fake.start();
});
after(() => fake.stop());

function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...cliArgs(), ...args], {
      env: { ...process.env, OPENAI_API_KEY: 'sk-test-SPECWEAVE-FAKE-KEY-terminal-0d1e', OPENAI_BASE_URL: base, SPECWEAVE_MODEL: 'gpt-4o-mini' },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function assertInert(text: string, what: string): void {
  const m = RAW.exec(text);
  assert.equal(m, null, m ? `${what}: raw U+${(m[0].codePointAt(0) ?? 0).toString(16)} near ${JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 20))}` : '');
}

describe('a hostile model on the terminal', () => {
  it('its suggestion (summary, rationale, evidence, diff) and its error messages are printed inert', async () => {
    const root = copyExample();
    const text = currentTestFile(root).replace('import', `# ${HOSTILE}\nimport`);
    fake.push({
      kind: 'answer',
      content: JSON.stringify(
        reply({
          summary: `Loosen TB3 ${HOSTILE}`,
          rationale: `Because ${HOSTILE}\nand more ${HOSTILE}`,
          testFiles: [{ path: TEST_FILE, content: text, diff: null }],
          evidence: [{ kind: 'test', attempt: null, step: null, test: 'TB3', run: null, line: null, stream: null, patch: null, file: null, hunk: null, spec: null, why: `pins ${HOSTILE}` }],
        }),
      ),
    });
    const ok = await cli(['repair', root, FN_TASK, '--curator', 'alice']);
    assert.equal(ok.status, 0, ok.stderr);
    assertInert(ok.stdout, 'repair stdout');
    assertInert(ok.stderr, 'repair stderr');
    assert.match(ok.stdout, /Loosen TB3 \\x1b\]0;pwned\\x07/);
    assert.match(ok.stdout, /^\+# \\x1b\]0;pwned/m);
    fake.push({ kind: 'error', status: 400, message: `bad ${HOSTILE}` });
    const bad = await cli(['repair', root, FN_TASK, '--curator', 'alice']);
    assert.equal(bad.status, 1);
    assertInert(bad.stdout, 'failed repair stdout');
    assertInert(bad.stderr, 'failed repair stderr');
    assert.match(bad.stderr, /bad \\x1b\]0;pwned\\x07/);
  });
});
