// Accepting and rejecting a repair suggestion the way the extension host does (RepairDecisions on the open dataset's
// owner), on a copy of the example dataset: no full dataset load during the accept (the owner's one store is used,
// and only the accepted task's folder is read again), the store and the task map at the new revision at once, and a
// curator name the settings refuse is refused here as in curation, naming the setting, with nothing written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { LlmClient } from '../../../src/adapters/llm/client';
import { Redactor } from '../../../src/adapters/llm/redact';
import { requestSuggestion } from '../../../src/app/repairAgent';
import { CurationStore } from '../../../src/app/curationStore';
import { taskState } from '../../../src/core/review/reducer';
import { CURATOR_SETTING, CuratorRefusedError } from '../../../src/vscode/openDataset';
import { RepairDecisions } from '../../../src/vscode/repair/repairDecisions';
import { countFullLoads, ownerOver } from '../../unit/helpers/hostOwner';
import { FN_TASK, copyExample, goodReplyWhole } from './exampleCopy';

/** A model that answers `text` at once (no HTTP): what requestSuggestion needs of a client. */
function fakeClient(text: string): LlmClient {
  const settings = { baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', temperature: 0, maxTokens: 32000, timeoutSec: 5 };
  return {
    settings,
    chat: async (req: { messages: Array<{ role: string; content: string }> }) => ({
      text,
      finishReason: 'stop',
      model: settings.model,
      responseFormat: 'json_schema',
      sent: req.messages,
      tries: [],
      durationMs: 1,
    }),
  } as unknown as LlmClient;
}

async function suggest(root: string): Promise<string> {
  const client = fakeClient(goodReplyWhole(root));
  const r = await requestSuggestion({ store: CurationStore.open(root), taskId: FN_TASK, target: 'tests', curator: 'alice', settings: client.settings, client, redactor: new Redactor() });
  assert.equal(r.record.status, 'ready');
  return r.record.id;
}

const eventsOf = (root: string): string[] => fs.readFileSync(path.join(root, 'curation', 'events.jsonl'), 'utf8').split('\n').filter((l) => l.trim());

describe('repair decisions in the host, on the owner', () => {
  it('an accept loads no whole dataset: the owner store and task map take the new revision from one folder', async () => {
    const root = copyExample();
    const id = await suggest(root);
    const { owner, source } = ownerOver(root);
    const decisions = new RepairDecisions(owner);
    const storeBefore = owner.store;
    const loadsBefore = source.loads.length;
    const { value, fullLoads } = await countFullLoads(root, () => decisions.accept(FN_TASK, id, 'too strict'));
    assert.equal(fullLoads, 0, 'no full dataset load during the accept');
    assert.deepEqual(source.loads.slice(loadsBefore), [{ only: [FN_TASK] }], 'only the accepted task folder is read again');
    assert.equal(owner.store, storeBefore, 'the same store (no second store opened)');
    assert.deepEqual([value.acc.from, value.acc.to, value.curator], [1, 2, 'alice']);
    assert.equal(source.task(FN_TASK)?.revision, 2);
    assert.equal(owner.store?.task(FN_TASK)?.revision, 2, 'the store has the new revision at once');
    assert.equal(taskState(owner.store!.state, FN_TASK).repairs.get(id)?.decision?.decision, 'accepted', 'and the events just appended');
    // Revalidation runs on the same store (a runner that runs nothing here): still no full load.
    const reval = await countFullLoads(root, () =>
      decisions.revalidate({ taskId: FN_TASK, curator: 'alice', suggestionId: id, runner: { run: async (_t, ids) => ids.map((attempt) => ({ attempt, error: 'not run in this test' })) } }),
    );
    assert.equal(reval.fullLoads, 0, 'no full dataset load during revalidation');
    assert.equal(reval.value.record.toRevision, 2);
    owner.dispose();
  });

  for (const [what, act] of [
    ['accept', (d: RepairDecisions, id: string) => d.accept(FN_TASK, id)],
    ['reject', (d: RepairDecisions, id: string) => d.reject(FN_TASK, id, 'no')],
  ] as const) {
    it(`a curator name the settings refuse: ${what} refuses naming ${CURATOR_SETTING}, and records nothing`, async () => {
      const root = copyExample();
      const id = await suggest(root);
      const { owner } = ownerOver(root, { settings: () => ({ curatorName: 'bell\u0007', policy: 'adjudicate' }) });
      assert.equal(owner.curator.ok, false);
      const before = eventsOf(root);
      const taskJson = fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'task.json'), 'utf8');
      await assert.rejects(act(new RepairDecisions(owner), id), (e: unknown) => e instanceof CuratorRefusedError && e.message.includes(CURATOR_SETTING) && /U\+0007/.test(e.message));
      assert.deepEqual(eventsOf(root), before, 'nothing recorded (not under the name "curator")');
      assert.ok(!eventsOf(root).some((l) => l.includes('"curator":"curator"')));
      assert.equal(fs.readFileSync(path.join(root, 'tasks', FN_TASK, 'task.json'), 'utf8'), taskJson, 'no new revision');
      owner.dispose();
    });
  }
});
