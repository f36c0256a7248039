// The trial's trajectory file as runTrial writes it: whole before the trial, then only what changed after each step
// (in place), whole again at the end. After every write the file is the whole document of the history so far
// (a tail that came out shorter leaves only trailing spaces), it reads back through the importer, and the end's
// write carries the patch.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { TrajectoryFile } from '../../../src/app/solverTrial';
import type { ModelReply } from '../../../src/core/solver/agent';
import { DEFAULT_LIMITS, SolverRun, SUBMIT_SENTINEL, TrajectoryText, trajectoryDocument } from '../../../src/core/solver/agent';
import { normalizeTrajectoryText } from '../../../src/core/trajectory/normalize';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-trajfile-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const rel = 'tasks/t/attempts/a/trajectory.traj.json';
const tool = (command: string, n: number, costUsd = 0.01): ModelReply => ({ text: `THOUGHT: ${n} «é»`, toolCalls: [{ id: `call_${n}`, name: 'bash', arguments: JSON.stringify({ command }) }], costUsd, promptTokens: 100, completionTokens: 20 });

function setup(): { run: SolverRun; file: TrajectoryFile; onDisk: () => string; expected: (submission?: string) => string } {
  const run = new SolverRun({ request: 'Fix it.', workdir: '/repo' }, DEFAULT_LIMITS, () => 1_000_000);
  const file = new TrajectoryFile(root, rel, new TrajectoryText(run), 'scripted/m');
  return {
    run,
    file,
    onDisk: () => fs.readFileSync(path.join(root, rel), 'utf8'),
    expected: (submission = '') => JSON.stringify(trajectoryDocument(run, { model: 'scripted/m', submission })),
  };
}

/** The file's text is the document's, followed by nothing but the padding spaces and the newline. */
function assertIsDocument(text: string, doc: string, when: string): void {
  assert.ok(text.startsWith(doc), `${when}: the file starts with the document`);
  assert.match(text.slice(doc.length), /^ *\n$/, `${when}: only spaces and a newline after it`);
}

describe('the trajectory file', () => {
  it('is the whole document after every step, and after the end with the patch', async () => {
    const { run, file, onDisk, expected } = setup();
    file.writeWhole('');
    assert.equal(onDisk(), `${expected()}\n`);
    const outputs = ['f.py\n', 'x'.repeat(10_000), 'é\u0000\u001b[31m\ud800', ''];
    for (let i = 0; i < 12; i++) {
      run.next();
      run.onReply(i === 11 ? tool(`echo ${SUBMIT_SENTINEL}`, i) : tool(`cat f${i}.py`, i));
      await file.appendStep();
      assertIsDocument(onDisk(), expected(), `after reply ${i}`);
      run.next();
      run.onOutput(0, i === 11 ? `${SUBMIT_SENTINEL}\n` : (outputs[i % outputs.length] as string));
      await file.appendStep();
      assertIsDocument(onDisk(), expected(), `after output ${i}`);
    }
    assert.equal(run.exit?.exitStatus, 'Submitted');
    const patch = 'diff --git a/f.py b/f.py\n+é\n';
    file.writeWhole(patch);
    assert.equal(onDisk(), `${expected(patch)}\n`);
    const r = normalizeTrajectoryText(onDisk(), 'trajectory.traj.json');
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.trajectory.summary.format, 'mini-swe-agent');
    assert.equal(r.trajectory.summary.exitStatus, 'Submitted', 'info, after the messages, is read');
    assert.equal(r.trajectory.summary.submission, patch);
    assert.equal(r.trajectory.summary.model, 'scripted/m');
  });

  it('a tail that comes out shorter leaves no bytes of the old one', async () => {
    const { run, file, onDisk, expected } = setup();
    file.writeWhole('');
    run.next();
    run.onReply(tool('ls', 1, 0.1));
    run.next();
    // The cost is in the tail: long, then short, with no message between.
    run.stats.costUsd = 0.30000000000000004;
    await file.appendStep();
    assertIsDocument(onDisk(), expected(), 'long cost');
    run.stats.costUsd = 1;
    await file.appendStep();
    assertIsDocument(onDisk(), expected(), 'short cost');
    assert.match(onDisk(), / {10,}\n$/, 'padded with spaces');
    assert.deepEqual(JSON.parse(onDisk()), JSON.parse(expected()));
    run.onOutput(0, 'a.py\n');
    await file.appendStep();
    assertIsDocument(onDisk(), expected(), 'a message after the padding');
  });
});
