// `specweave solve` end to end: a model on the test server that answers with bash tool calls fixes the calc bug and
// submits; the CLI lands the trial as an attempt, verifies it through the queue and says it passed; a model that
// never gives a command ends FormatError. No container is left behind and the key never reaches the output.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { SUBMIT_SENTINEL } from '../../../src/core/solver/agent';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { buildDataset } from '../../fixtures/verify/dataset';
import { FakeOpenAI } from '../repair/fakeOpenAI';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';
import { cliArgs } from '../../unit/helpers/cli';

const ROOT = path.resolve(__dirname, '../../..');
const KEY = 'sk-test-SOLVE-7c1e9a';
let engine: Engine;
let ds: BuiltDataset;
let fake: FakeOpenAI;
let base = '';

before(async () => {
  engine = await requireEngine();
  ds = buildDataset(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-solve-cli-')), [{ id: 'calc' }]);
  fake = new FakeOpenAI();
  base = await fake.start();
});

after(async () => {
  fake?.stop();
  if (engine) await assertNoOwnedContainers(engine);
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...cliArgs(), ...args], { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const tool = (n: number, command: string) => ({ kind: 'answer' as const, content: `THOUGHT: ${n}`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], usage: { prompt_tokens: 200, completion_tokens: 20 } });

test('specweave solve: a tool-calling model fixes the bug, the trial lands as an attempt and the verifier passes it', async () => {
  fake.requests.length = 0;
  fake.push(tool(1, "sed -i 's/return a - b/return a + b/' calc.py"));
  fake.push(tool(2, `echo ${SUBMIT_SENTINEL}`));
  const r = await cli(['solve', ds.root, 'calc', '--model', 'gpt-4o-mini', '--base-url', base, '--json']);
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const trial = lines[0] as Record<string, unknown>;
  assert.equal(trial.exitStatus, 'Submitted');
  assert.equal(trial.verdict, 'passed');
  assert.equal(trial.steps, 2);
  assert.ok(typeof trial.costUsd === 'number' && trial.costUsd > 0, 'the cost is counted from the price table');
  assert.ok(fs.existsSync(path.join(ds.root, 'tasks', 'calc', 'attempts', String(trial.attemptId), 'attempt.json')));
  assert.equal(fake.requests.length, 2);
  const tools = (fake.requests[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools;
  assert.equal(tools?.[0]?.function.name, 'bash');
  const second = (fake.requests[1]?.body as { messages: Array<Record<string, unknown>> }).messages;
  assert.equal(second[second.length - 1]?.role, 'tool', 'the command\'s output went back as the tool result');
  assert.ok(!`${r.stdout}${r.stderr}`.includes(KEY));
});

test('specweave solve: a model that never gives a command ends FormatError after three replies', async () => {
  fake.requests.length = 0;
  for (let i = 0; i < 3; i++) fake.push({ kind: 'answer', content: 'I would rather talk about it.' });
  const r = await cli(['solve', ds.root, 'calc', '--model', 'gpt-4o-mini', '--base-url', base]);
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /FormatError after 3 step\(s\)/);
  assert.match(r.stdout, /verifier: no patch/);
  assert.equal(fake.requests.length, 3);
});
