// A run that could not be stored must not run: the runs folder is checked before the engine is contacted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { RunsFolderError, VerifierService, checkRunsWritable } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import { FIXED_CALC, buildDataset } from '../../fixtures/verify/dataset';

test('runs/ is a file: verify refuses before contacting the engine, naming the folder', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-runs-folder-'));
  try {
    buildDataset(root, [{ id: 'calc', attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }] }]);
    checkRunsWritable(root);
    assert.ok(!fs.existsSync(path.join(root, 'runs')), 'the check writes nothing');
    fs.writeFileSync(path.join(root, 'runs'), 'not a folder');
    const task = loadDataset(root).tasks[0];
    assert.ok(task);
    // An engine that is not there: reaching it would say so instead.
    const service = new VerifierService({ datasetRoot: root, engine: { env: { DOCKER_HOST: 'unix:///nonexistent.sock' } } });
    await assert.rejects(service.verify({ task, attemptId: 'good' }), (e: unknown) => {
      assert.ok(e instanceof RunsFolderError, String(e));
      assert.equal(e.message, `the runs folder ${path.join(root, 'runs')} cannot be written (not a folder): nothing was run`);
      return true;
    });
    assert.throws(() => checkRunsWritable(path.join(root, 'missing')), /the runs folder .*missing\/runs cannot be written \(the dataset folder does not exist\)/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
