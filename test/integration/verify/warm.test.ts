// Warm mode against the real engine: a container reused for the runs of one task revision, reset between runs. A
// run that leaves things behind (a file in /tmp, one in the home folder, a module and a .pth file in the user's
// site-packages that rewrite `calc.add` in every later Python, a daemon) must not change the verdict or the output
// of the next run in the same container; a run that times out must not poison the next one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Engine } from '../../../src/adapters/docker/engine';
import { listOwned } from '../../../src/adapters/docker/sweep';
import { VerifierService } from '../../../src/adapters/docker/verifyService';
import { WARM_LABEL } from '../../../src/adapters/docker/warm';
import { loadDataset } from '../../../src/adapters/fs/datasetLoader';
import type { CandidateTask } from '../../../src/core/model';
import type { VerifierRunRecord } from '../../../src/core/verify/runResult';
import { FIXED_CALC, buildDataset } from '../../fixtures/verify/dataset';
import type { BuiltDataset } from '../../fixtures/verify/dataset';
import { assertNoOwnedContainers, requireEngine } from './engineGuard';

const TESTS = `import os
from calc import add, mul


def test_mul():
    assert mul(2, 3) == 6


def test_add():
    assert add(2, 3) == 5


def test_nothing_left_behind():
    home = os.path.expanduser("~")
    left = [p for p in ("/tmp/planted", os.path.join(home, "planted"), "/tmp/daemon") if os.path.exists(p)]
    assert left == []
`;

const POISON_MODULE = `import importlib.util
import sys


class _Finder:
    def find_spec(self, name, path=None, target=None):
        if name != "calc":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("calc")
        run = spec.loader.exec_module

        def exec_module(m):
            run(m)
            m.add = lambda a, b: 0

        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, _Finder())
`;

// The fixed calc.py, which on import plants files outside the repository and starts a daemon.
const POISON_CALC = `${FIXED_CALC}
import os as _os, site as _site, subprocess as _sp

_user = _site.getusersitepackages()
_os.makedirs(_user, exist_ok=True)
with open(_os.path.join(_user, "zz_poison.py"), "w") as _f:
    _f.write(${JSON.stringify(POISON_MODULE)})
with open(_os.path.join(_user, "zz_poison.pth"), "w") as _f:
    _f.write("import zz_poison\\n")
open("/tmp/planted", "w").write("x")
open(_os.path.join(_os.path.expanduser("~"), "planted"), "w").write("x")
_sp.Popen(["sh", "-c", "while :; do touch /tmp/daemon; sleep 0.2; done"], start_new_session=True, stdout=_sp.DEVNULL, stderr=_sp.DEVNULL)
`;

const SLEEP_CALC = `${FIXED_CALC}
import time as _t
open("/tmp/planted", "w").write("x")
_t.sleep(3600)
`;

let engine: Engine;
let ds: BuiltDataset;
let task: CandidateTask;
let warm: VerifierService;
let fresh: VerifierService;
const logs: string[] = [];

before(async () => {
  engine = await requireEngine();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-warm-it-'));
  ds = buildDataset(root, [
    {
      id: 'iso',
      testFiles: { 'tests/test_calc.py': TESTS },
      tests: [
        { id: 'T1', name: 'tests/test_calc.py::test_add', kind: 'fail_to_pass', specs: ['S1'] },
        { id: 'T2', name: 'tests/test_calc.py::test_mul', kind: 'pass_to_pass', specs: ['S2'] },
        { id: 'T3', name: 'tests/test_calc.py::test_nothing_left_behind', kind: 'pass_to_pass', specs: ['S2'] },
      ],
      attempts: [
        { id: 'good', files: { 'calc.py': FIXED_CALC } },
        { id: 'poison', files: { 'calc.py': POISON_CALC } },
        { id: 'sleeper', files: { 'calc.py': SLEEP_CALC } },
      ],
    },
  ]);
  const dataset = loadDataset(root);
  assert.deepEqual(dataset.problems.filter((p) => p.severity === 'error'), []);
  task = dataset.tasks[0] as CandidateTask;
  warm = new VerifierService({ datasetRoot: root, engine, concurrency: 1, warm: true, persist: false, log: (l) => logs.push(l) });
  fresh = new VerifierService({ datasetRoot: root, engine, concurrency: 1, persist: false });
});

after(async () => {
  await warm?.close();
  if (engine) await assertNoOwnedContainers(engine);
  if (ds) fs.rmSync(ds.root, { recursive: true, force: true });
});

/** What a user compares between two runs: the verdict, the per-test results, the spec verdicts and the output. */
function seen(r: VerifierRunRecord) {
  return { status: r.status, resolved: r.resolved, reported: r.reported, specs: r.specs, apply: r.apply, exitCode: r.exitCode };
}

const pool = () => (warm.executor as { warm?: { stats: { created: number; reused: number; discarded: number } } }).warm?.stats;

test('a clean attempt after a poisoning one in the same warm container gets the verdict and output of a fresh run', async () => {
  const freshGood = await fresh.verify({ task, attemptId: 'good', force: true });
  assert.equal(freshGood.status, 'passed', freshGood.reason);
  assert.equal(freshGood.warm, undefined);
  assert.equal(freshGood.backend, 'local');

  const first = await warm.verify({ task, attemptId: 'good', force: true });
  assert.equal(first.warm, true, logs.join('\n'));
  assert.deepEqual(seen(first), seen(freshGood));
  const owned = (await listOwned(engine)).filter((c) => c.labels[WARM_LABEL] === '1' && c.labels['specweave.pid'] === String(process.pid));
  assert.equal(owned.length, 1, 'one warm container, labelled for the orphan sweep');

  const poisoned = await warm.verify({ task, attemptId: 'poison', force: true });
  assert.equal(poisoned.warm, true);
  // The poison's own run sees what it planted.
  assert.equal(poisoned.reported['tests/test_calc.py::test_nothing_left_behind'], 'FAILED', poisoned.reason);

  const again = await warm.verify({ task, attemptId: 'good', force: true });
  assert.equal(again.warm, true);
  assert.deepEqual(seen(again), seen(freshGood), 'the run after the poison is graded as a fresh run');
  assert.deepEqual(pool(), { created: 1, reused: 2, discarded: 0 }, 'all three runs in the one container');
});

test('a run that times out in a warm container does not poison the next one', async () => {
  const before = { ...(pool() as object) } as { created: number; discarded: number };
  const slow = await warm.verify({ task, attemptId: 'sleeper', force: true, timeoutSec: 3 });
  assert.equal(slow.status, 'timeout', slow.reason);
  assert.equal(slow.warm, true);
  const next = await warm.verify({ task, attemptId: 'good', force: true });
  const freshGood = await fresh.verify({ task, attemptId: 'good', force: true });
  assert.deepEqual(seen(next), seen(freshGood));
  const after = pool() as { created: number; discarded: number };
  assert.equal(after.discarded, before.discarded + 1, 'the container that timed out was discarded');
  assert.equal(after.created, before.created + 1, 'the next run got a new warm container');
});

test('closing the service removes its warm containers', async () => {
  await warm.close();
  const left = (await listOwned(engine)).filter((c) => c.labels[WARM_LABEL] === '1' && c.labels['specweave.pid'] === String(process.pid));
  assert.deepEqual(left, []);
});
