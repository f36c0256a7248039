// The task view's Probes section (src/vscode/probes/probeSection.ts) over a real folder: it contributes what the
// reports on disk say, from memory on every push, and when the dataset's watcher says probes/TASK/ changed (a CLI
// probe run writing mutants.json) it fires for that task and the next push shows the new report.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { CandidateTask } from '../../../src/core/model';
import type { TaskViewModel } from '../../../src/protocol/messages';
import type { DatasetChange } from '../../../src/vscode/datasetService';
import { Emitter } from '../../../src/vscode/emitter';
import { ProbeSection } from '../../../src/vscode/probes/probeSection';
import { SectionMerger } from '../../../src/vscode/taskSections';
import { tmpDir } from '../helpers/tmp';
import { PROBE_TASK, TASK_ID, mutantsReport } from '../probes/probeReportFixtures';

function setup() {
  const root = tmpDir('sw-probe-section-');
  const changes = new Emitter<DatasetChange>();
  const task = PROBE_TASK as unknown as CandidateTask;
  const section = new ProbeSection({ root, task: (id) => (id === TASK_ID ? task : undefined), onDidChange: changes.event });
  const fired: Array<readonly string[] | undefined> = [];
  section.onDidChange((ids) => fired.push(ids));
  return { root, changes, section, fired };
}

const base = { taskId: TASK_ID, notices: [] } as unknown as TaskViewModel;

test('not probed yet, then a CLI probe run writes mutants.json: the watcher event refreshes the section for that task', () => {
  const { root, changes, section, fired } = setup();
  const merger = new SectionMerger([section], () => {});
  assert.equal(merger.merge(TASK_ID, base).probes?.mutants.state, 'missing');

  fs.mkdirSync(path.join(root, 'probes', TASK_ID), { recursive: true });
  fs.writeFileSync(path.join(root, 'probes', TASK_ID, 'mutants.json'), JSON.stringify(mutantsReport()));
  // Until the watcher says so, a push shows what was read (from memory, not disk).
  assert.equal(merger.merge(TASK_ID, base).probes?.mutants.state, 'missing');

  changes.fire({ kind: 'probes', taskIds: [TASK_ID] });
  assert.deepEqual(fired, [[TASK_ID]]);
  const m = merger.merge(TASK_ID, base).probes?.mutants;
  assert.equal(m?.state, 'ok');
  assert.equal(m?.state === 'ok' && m.survivors[0]?.operator, 'guard-drop');

  // A report broken on disk shows its error in the section's place; the view still builds.
  fs.writeFileSync(path.join(root, 'probes', TASK_ID, 'mutants.json'), '{"taskId": ');
  changes.fire({ kind: 'probes', taskIds: [TASK_ID] });
  const broken = merger.merge(TASK_ID, base).probes?.mutants;
  assert.equal(broken?.state, 'error');
  assert.match(broken?.state === 'error' ? broken.message : '', /^probes\/format-precision\/mutants\.json:1: malformed JSON/);

  // The probes/ folder itself changed (a new folder arrives as one event): every task's section is read again.
  fs.writeFileSync(path.join(root, 'probes', TASK_ID, 'mutants.json'), JSON.stringify(mutantsReport()));
  changes.fire({ kind: 'probes', taskIds: 'all' });
  assert.equal(fired.at(-1), undefined);
  assert.equal(merger.merge(TASK_ID, base).probes?.mutants.state, 'ok');

  changes.fire({ kind: 'closed' });
  assert.equal(fired.at(-1), undefined);
  assert.equal(section.contribute('another-task'), undefined);
  section.dispose();
});
