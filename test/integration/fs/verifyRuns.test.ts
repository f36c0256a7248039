// `specweave verify` in real containers on a dataset whose runs/ (or a task's run folder) is a symlink out of it: no
// run record or log is written outside, the command says why and exits 1. Before datasetPaths, the records were
// written through the symlink and verify exited 0.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Engine } from '../../../src/adapters/docker/engine';
import { FIXED_CALC, buildDataset } from '../../fixtures/verify/dataset';
import { tmpDir } from '../../unit/helpers/tmp';
import { assertNoOwnedContainers, requireEngine } from '../verify/engineGuard';
import { cli, outside, tree } from './helpers';

let engine: Engine;
before(async () => {
  engine = await requireEngine();
});
after(async () => {
  await assertNoOwnedContainers(engine);
});

for (const link of ['runs', 'runs/plain'] as const) {
  test(`verify writes no run through ${link}/ symlinked out of the dataset`, () => {
    const root = path.join(tmpDir('sw-verify-links-'), 'ds');
    buildDataset(root, [{ id: 'plain', attempts: [{ id: 'good', files: { 'calc.py': FIXED_CALC } }] }]);
    const out = outside();
    fs.mkdirSync(path.join(root, path.dirname(link)), { recursive: true });
    fs.symlinkSync(out.dir, path.join(root, link));
    const r = cli(['verify', root, 'plain', '--attempt', 'good']);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, new RegExp(`plain good: ${link.replace('/', '\\/')}: is a symlink; SpecWeave writes nothing through a symlink`));
    assert.deepEqual(tree(out.dir), {}, 'nothing was written outside the dataset');
  });
}
