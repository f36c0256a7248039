// SWE-bench-style images keep the tests' Python in a conda environment named `testbed` that their eval scripts
// activate (`source /opt/miniconda3/bin/activate; conda activate testbed`): the verifier runs the task's command inside
// it where the image has one. No conda can be installed offline, so the image built here has conda's layout and
// activation interface (`bin/activate` defining a `conda` shell function, `envs/testbed/bin` first on the PATH once
// activated) with a python3 of its own in the environment; an image without that layout runs the command as it is.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import { FIXED_CALC, addTask, buildDataset } from '../../fixtures/verify/dataset';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';

const TAG = `specweave-test-conda:${process.pid}`;

// conda's activate script, reduced to what eval scripts use: it defines `conda`, whose `activate NAME` puts the
// environment's bin first on the PATH and names it in CONDA_DEFAULT_ENV.
const ACTIVATE = `conda() {
  if [ "$1" = activate ] && [ -d "/opt/miniconda3/envs/$2" ]; then
    PATH="/opt/miniconda3/envs/$2/bin:$PATH"; CONDA_DEFAULT_ENV="$2"; export PATH CONDA_DEFAULT_ENV; return 0
  fi
  echo "conda: no environment $2" >&2; return 1
}
`;
// The environment's python: the system's, telling the tests where it runs from.
const ENV_PYTHON = `#!/bin/sh
SPECWEAVE_ENV_PYTHON=testbed exec /usr/bin/python3 "$@"
`;
// A test that passes only when run by the environment's python.
const ENV_TEST = `import os


def test_runs_in_testbed():
    assert os.environ.get("SPECWEAVE_ENV_PYTHON") == "testbed"
    assert os.environ.get("CONDA_DEFAULT_ENV") == "testbed"
`;

let engine: Engine;
let ds: BuiltDataset;
let service: VerifierService;
let tasks: Map<string, CandidateTask>;

before(async () => {
  engine = await requireEngine();
  const ctx = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-conda-img-'));
  fs.writeFileSync(path.join(ctx, 'activate'), ACTIVATE);
  fs.writeFileSync(path.join(ctx, 'python3'), ENV_PYTHON);
  fs.writeFileSync(
    path.join(ctx, 'Dockerfile'),
    [
      'FROM specweave-base:bookworm',
      'COPY activate /opt/miniconda3/bin/activate',
      'COPY python3 /opt/miniconda3/envs/testbed/bin/python3',
      'RUN chmod 755 /opt/miniconda3/envs/testbed/bin/python3 && chmod 644 /opt/miniconda3/bin/activate',
      '',
    ].join('\n'),
  );
  const built = spawnSync('docker', ['build', '-q', '-t', TAG, ctx], { encoding: 'utf8' });
  fs.rmSync(ctx, { recursive: true, force: true });
  assert.equal(built.status, 0, built.stderr);

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-conda-it-'));
  const envTests = [
    { id: 'T1', name: 'tests/test_env.py::test_runs_in_testbed', kind: 'fail_to_pass' as const, specs: ['S1'] },
  ];
  const fixture = (id: string, image?: string) => ({
    id,
    ...(image ? { image } : {}),
    // As SWE-bench's commands are written: a bare `python3 -m pytest`, no activation of its own.
    command: 'python3 -m pytest -rA -p no:cacheprovider tests/test_env.py',
    testFiles: { 'tests/test_env.py': ENV_TEST },
    specs: [{ id: 'S1', text: 'runs in the image environment', category: 'compatibility' }],
    tests: envTests,
    attempts: [{ id: 'a1', files: { 'calc.py': FIXED_CALC } }],
  });
  ds = buildDataset(root, [fixture('conda', TAG)]);
  addTask(ds, fixture('plain'));
  const dataset = loadDataset(root);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  tasks = new Map(dataset.tasks.map((t) => [t.id, t]));
  service = new VerifierService({ datasetRoot: root, engine });
});

after(async () => {
  if (engine) await assertNoOwnedContainers(engine);
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
  if (engine) await (await engine.docker()).getImage(TAG).remove({ force: true }).catch(() => undefined);
});

test("an image with a conda testbed environment: the command runs inside it, and the driver's report says so", async () => {
  const r = await service.verify({ task: tasks.get('conda') as CandidateTask, attemptId: 'a1', force: true });
  assert.equal(r.status, 'passed', r.reason);
  assert.equal(r.grade.tests['tests/test_env.py::test_runs_in_testbed'], 'PASSED');
  assert.match(r.driverReport, /@@SPECWEAVE env conda testbed \(\/opt\/miniconda3\)/);
});

test('an image without one: the command runs as it is (the same test fails there)', async () => {
  const r = await service.verify({ task: tasks.get('plain') as CandidateTask, attemptId: 'a1', force: true });
  assert.equal(r.status, 'failed', r.reason);
  assert.equal(r.grade.tests['tests/test_env.py::test_runs_in_testbed'], 'FAILED');
  assert.doesNotMatch(r.driverReport, /env conda/);
});
