// The review agent's findings inside a real extension host: a `review.findings` event written into the log of the
// dataset copy (as the agent writes it, by another process) reaches the task view model as a suggestion, never a
// label; accepting it (the request the `y` key sends, exactly as the webview sends it) records the curator's own
// label with the finding as evidence, read back from curation/events.jsonl.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatEventLine } from '../../../src/core/review/events';
import type { ReviewEvent } from '../../../src/core/review/events';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import { curatorDatasetDone, openCuratorDataset, until } from './helpers';

const CURATOR = 'Findings Tester';
const FINDINGS_ID = 'INHOSTFINDINGS01';

function events(root: string): Array<{ id: string; kind: string; curator: string; payload: Record<string, unknown> }> {
  return fs
    .readFileSync(path.join(root, 'curation/events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; kind: string; curator: string; payload: Record<string, unknown> });
}

describe('review agent findings', () => {
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    ({ a, root } = await openCuratorDataset(CURATOR));
  });

  after(async () => {
    await curatorDatasetDone();
  });

  it('a finding in the log shows as a suggestion; accepting it records your label with the finding as evidence', async () => {
    const patch = fs.readFileSync(path.join(root, 'tasks/t1/attempts/a1/patch.diff'));
    const event = {
      id: FINDINGS_ID,
      time: new Date().toISOString(),
      curator: 'review-agent',
      task: 't1',
      revision: 1,
      kind: 'review.findings',
      payload: {
        attempt: 'a1',
        patchHash: createHash('sha256').update(patch).digest('hex'),
        model: 'gpt-review',
        promptVersion: 'review-1',
        promptHash: 'ab'.repeat(32),
        findings: [{ spec: 'S2', judgment: 'violated', confidence: 0.9, rationale: 'The comma is missing.', candidate: 'false_positive', citations: [{ kind: 'test', test: 'T1' }] }],
        dropped: [],
      },
    } as ReviewEvent;
    fs.mkdirSync(path.join(root, 'curation'), { recursive: true });
    fs.appendFileSync(path.join(root, 'curation/events.jsonl'), `${formatEventLine(event)}\n`);

    await vscode.commands.executeCommand('specweave.task.open', 't1');
    await until('the t1 session', () => a.panels.sessionOf('t1'));
    const f = await until('the finding in the view model', () => a.panels.model('t1', new Map()).review?.findings?.[0], 15_000);
    assert.deepEqual([f.attempt, f.spec, f.findings, f.judgment, f.candidate, f.acceptedByYou], ['a1', 'S2', FINDINGS_ID, 'violated', 'false_positive', false]);
    const cell = () => a.panels.model('t1', new Map()).review?.cells.find((c) => c.attempt === 'a1' && c.spec === 'S2');
    assert.equal(cell()?.mine, undefined, 'a finding is never a label');
    assert.deepEqual(cell()?.others, []);

    const session = a.panels.sessionOf('t1');
    assert.ok(session);
    await session.receive({ type: 'request', id: 7001, method: 'acceptFinding', params: { findings: FINDINGS_ID, spec: 'S2' } });
    const label = events(root).at(-1);
    assert.equal(label?.kind, 'label', 'on disk by the time the request is answered');
    assert.equal(label?.curator, CURATOR);
    assert.deepEqual(label?.payload, { attempt: 'a1', spec: 'S2', verdict: 'violated', evidence: [{ kind: 'finding', findings: FINDINGS_ID, spec: 'S2' }, { kind: 'test', test: 'T1' }] });
    await until('your label in the view model', () => cell()?.mine?.verdict === 'violated');
    assert.deepEqual(cell()?.mine?.evidence[0], { kind: 'finding', findings: FINDINGS_ID, spec: 'S2' });
    assert.equal(a.panels.model('t1', new Map()).review?.findings?.[0]?.acceptedByYou, true);
  });
});
