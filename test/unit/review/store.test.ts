import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CurationStore, resolveCurator } from '../../../src/app/curationStore';
import { ExportError, writeCuratedSet } from '../../../src/adapters/fs/curatedSetWriter';
import { sha256Hex } from '../../../src/core/review/exportSet';
import { tmpDir } from '../helpers/tmp';
import { reviewDataset, writeRun, writeT1Runs } from './helpers';

async function approvedT1(root: string): Promise<CurationStore> {
  const store = CurationStore.open(root);
  for (const [attempt, spec, verdict] of [
    ['a1', 'S1', 'satisfied'],
    ['a1', 'S2', 'satisfied'],
    ['a2', 'S1', 'satisfied'],
    ['a2', 'S2', 'violated'],
  ] as const) {
    const r = await store.act('t1', 'alice', { kind: 'label', attempt, spec, verdict });
    assert.ok(r.ok, JSON.stringify(r));
  }
  await store.act('t1', 'alice', { kind: 'score', underspecified: 0, fnSeverity: 0, fpSeverity: 1, envDefects: [], difficulty: '<15m' });
  const a = await store.act('t1', 'alice', { kind: 'approve', note: 'looks right' });
  assert.ok(a.ok, JSON.stringify(a));
  return store;
}

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('CurationStore', () => {
  it('reads verifier runs: the example false positive and false negative, then approval once they are gone', async () => {
    const root = reviewDataset();
    writeT1Runs(root);
    const store = CurationStore.open(root);
    assert.ok((await store.act('t1', 'alice', { kind: 'label', attempt: 'a1', spec: 'S2', verdict: 'violated' })).ok);
    assert.ok((await store.act('t1', 'alice', { kind: 'label', attempt: 'a2', spec: 'S2', verdict: 'satisfied' })).ok);
    const view = store.review('t1', { viewer: 'alice' });
    assert.equal(view?.attempts.find((a) => a.id === 'a1')?.verifier?.source, 'run');
    assert.deepEqual(view?.cells.filter((c) => c.outcome.startsWith('false')).map((c) => `${c.attempt}×${c.spec}:${c.outcome}`), ['a1×S2:false_positive', 'a2×S2:false_negative']);
    const refused = await store.act('t1', 'alice', { kind: 'approve' });
    assert.ok(!refused.ok && refused.refusal.code === 'rule');
    assert.deepEqual(refused.ok ? [] : refused.refusal.rules, ['no-open-false-positive', 'no-open-false-negative', 'every-attempt-judged']);
    // A second window sees the same and can undo.
    const other = CurationStore.open(root);
    const last = other.review('t1', { viewer: 'alice' })?.lastUndoable;
    assert.match(last?.summary ?? '', /a2 × S2: satisfied/);
    assert.ok((await other.undo(last?.event as string, 'alice')).ok);
    store.refresh();
    assert.equal(store.review('t1')?.counts.falseNegatives, 0);
  });

  it('marks a run stale when the attempt patch changed since, and the gold run stale blocks approval', async () => {
    const root = reviewDataset();
    writeT1Runs(root);
    fs.appendFileSync(path.join(root, 'tasks/t1/attempts/a1/patch.diff'), '\n');
    fs.appendFileSync(path.join(root, 'tasks/t1/gold.patch'), '\n');
    const store = CurationStore.open(root);
    const a1 = store.review('t1')?.attempts.find((a) => a.id === 'a1');
    assert.equal(a1?.verifier?.stale, true);
    assert.deepEqual(a1?.verifier?.staleReasons, ['attempt patch changed']);
    assert.match(store.review('t1')?.rules.find((r) => r.id === 'gold-passes')?.message ?? '', /stale \(attempt patch changed\)/);
  });

  it('turns oracle-probe results into flags', () => {
    const root = reviewDataset();
    writeT1Runs(root);
    // The empty patch passing T1 means T1 cannot detect the fix.
    writeRun(root, 't1', 'empty', { 'tests/test_hello.py::test_greet_type': 'PASSED', 'tests/test_hello.py::test_greet_text': 'FAILED', 'tests/test_hello.py::test_existing': 'PASSED' }, { runId: '20261201T2000000000-ffffff' });
    const store = CurationStore.open(root);
    const s = store.review('t1')?.flags ?? [];
    assert.ok(s.some((x) => x.kind === 'empty_passes_fail_to_pass' && x.test === 'tests/test_hello.py::test_greet_type' && x.open));
    assert.ok(s.some((x) => x.kind === 'attempt_suspect_false_positive' && x.attempt === 'a1'));
  });

  it('checks a decision against the log as it is on disk: a stale window cannot approve a task another rejected', async () => {
    const root = reviewDataset();
    writeT1Runs(root);
    const w1 = await approvedT1(root);
    const w2 = CurationStore.open(root);
    assert.ok((await w1.act('t1', 'bob', { kind: 'status', to: 'in_review' })).ok);
    assert.ok((await w1.act('t1', 'bob', { kind: 'reject', reason: 'the request leaks the answer' })).ok);
    // w2 loaded while the task was approved and never refreshed.
    const r = await w2.act('t1', 'carol', { kind: 'status', to: 'flagged' });
    assert.ok(!r.ok && r.refusal.code === 'transition' && /rejected to flagged/.test(r.refusal.message));
    assert.equal(w2.state.tasks.get('t1')?.status, 'rejected');
  });

  it('exports the approved tasks byte-identically twice, with provenance and SHA-256 sums', async () => {
    const root = reviewDataset();
    writeT1Runs(root);
    const store = await approvedT1(root);
    const out1 = path.join(tmpDir(), 'set');
    const out2 = path.join(tmpDir(), 'set');
    writeCuratedSet(out1, store.exportPlan('specweave'));
    writeCuratedSet(out2, CurationStore.open(root).exportPlan('specweave'));
    const f1 = files(out1);
    const f2 = files(out2);
    assert.deepEqual([...f1.keys()].sort(), ['manifest.json', 'specweave.json', 'tasks/t1/gold.patch', 'tasks/t1/provenance.json', 'tasks/t1/request.md', 'tasks/t1/task.json', 'tasks/t1/tests.patch']);
    for (const [k, v] of f1) assert.ok(v.equals(f2.get(k) as Buffer), `${k} differs`);
    const manifest = JSON.parse(f1.get('manifest.json')?.toString() ?? '') as { files: Array<{ path: string; sha256: string; bytes: number }>; tasks: string[] };
    assert.deepEqual(manifest.tasks, ['t1']);
    for (const f of manifest.files) {
      assert.equal(sha256Hex(f1.get(f.path)?.toString() ?? ''), f.sha256, f.path);
      assert.equal(f1.get(f.path)?.length, f.bytes);
    }
    const prov = JSON.parse(f1.get('tasks/t1/provenance.json')?.toString() ?? '') as { approval: { by: string; waivers: unknown[]; note: string }; verifierRuns: Array<{ attempt: string; status: string }> };
    assert.equal(prov.approval.by, 'alice');
    assert.equal(prov.approval.note, 'looks right');
    assert.deepEqual(prov.verifierRuns.map((r) => `${r.attempt}:${r.status}`), ['a1:passed', 'a2:failed', 'empty:failed', 'gold:passed']);
    assert.equal(f1.get('tasks/t1/gold.patch')?.toString(), fs.readFileSync(path.join(root, 'tasks/t1/gold.patch'), 'utf8'));
    // The exported set is itself a dataset.
    const again = CurationStore.open(out1);
    assert.deepEqual(again.dataset.tasks.map((t) => t.id), ['t1']);
    assert.deepEqual(again.dataset.problems.filter((p) => p.severity === 'error'), []);
  });

  it('exports SWE-bench rows with lists and specs, replaces an earlier export, and will not overwrite a foreign folder', async () => {
    const root = reviewDataset();
    writeT1Runs(root);
    const store = await approvedT1(root);
    const out = path.join(tmpDir(), 'sb');
    writeCuratedSet(out, store.exportPlan('specweave'));
    writeCuratedSet(out, store.exportPlan('swebench'));
    assert.deepEqual([...files(out).keys()].sort(), ['manifest.json', 'provenance.json', 'tasks.jsonl']);
    const rows = fs.readFileSync(path.join(out, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(rows.length, 1);
    const row = rows[0] as Record<string, unknown>;
    assert.equal(row.instance_id, 'example__hello-1');
    assert.deepEqual(row.FAIL_TO_PASS, ['tests/test_hello.py::test_greet_type', 'tests/test_hello.py::test_greet_text']);
    assert.deepEqual(row.PASS_TO_PASS, ['tests/test_hello.py::test_existing']);
    assert.equal(row.base_commit, '0123456789abcdef0123456789abcdef01234567');
    assert.equal(row.version, '1.0');
    assert.equal(row.difficulty, '<15m');
    assert.deepEqual((row.specs as Array<{ id: string; tests: string[] }>).map((s) => [s.id, s.tests]), [['S1', ['tests/test_hello.py::test_greet_type']], ['S2', ['tests/test_hello.py::test_greet_text']]]);
    assert.equal(Object.keys(row).join(), Object.keys(row).sort().join(), 'keys are sorted');
    const foreign = tmpDir();
    fs.writeFileSync(path.join(foreign, 'thesis.tex'), 'precious');
    assert.throws(() => writeCuratedSet(foreign, store.exportPlan('swebench')), ExportError);
    assert.equal(fs.readFileSync(path.join(foreign, 'thesis.tex'), 'utf8'), 'precious');
  });

  it('exports nothing but the manifest when nothing is approved, and leaves rejected tasks out', async () => {
    const root = reviewDataset();
    const store = CurationStore.open(root);
    assert.ok((await store.act('t2', 'alice', { kind: 'reject', reason: 'no gold patch' })).ok);
    const plan = store.exportPlan('specweave');
    assert.deepEqual(plan.tasks, []);
    assert.deepEqual(plan.files.map((f) => f.path), ['specweave.json', 'manifest.json']);
  });
});

describe('resolveCurator', () => {
  it('takes --curator first, then git user.name of the dataset folder, then $USER', () => {
    const repo = tmpDir();
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['config', 'user.name', 'Grace Hopper'], { cwd: repo });
    assert.deepEqual(resolveCurator({ option: 'ada', cwd: repo }), { ok: true, name: 'ada', source: 'option' });
    assert.deepEqual(resolveCurator({ cwd: repo }), { ok: true, name: 'Grace Hopper', source: 'git' });
    const noGit = tmpDir();
    const r = resolveCurator({ cwd: noGit, env: { PATH: process.env.PATH, USER: 'operator', HOME: noGit, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    assert.deepEqual(r, { ok: true, name: 'operator', source: 'env' });
    const bad = resolveCurator({ option: 'tab\there' });
    assert.ok(!bad.ok && /U\+0009/.test(bad.message));
  });
});
