// The verifier inside a real extension host, against the real engine: the commands, "no engine" within a second, a
// whole task of the example dataset verified through the shared queue (the false-positive task: gold, empty and every
// attempt), its results in the task view model, a results cell opening the run's log at the test, a changed patch
// marking its result stale, unchanged runs reused, and Cancel All leaving no container behind. The Candidates tree's
// attempt rows say each run's outcome, also after Reload Dataset (they used to stay "not run").
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { CandidateNode } from '../../../src/vscode/candidatesTree';
import type { SpecWeaveApi } from '../../../src/vscode/extension';
import type { VerifierBatchResult } from '../../../src/vscode/verifier/verifierController';
import { runPod } from '../../integration/kubernetes/dockerKubelet';
import { FakeKubeApi } from '../../integration/kubernetes/fakeApiServer';
import { api, closeAllEditors, extensionId, openDataset, projectRoot, until } from './helpers';

const TASK = 'format-precision';
const FP_ATTEMPT = 'sweagent-gpt-4o';
const FAILING_ATTEMPT = 'openhands-claude-3-5-sonnet';
const COMMANDS = ['runAttempt', 'runGold', 'runEmpty', 'runTask', 'runTasks', 'cancelAll', 'showQueue', 'showLog'].map((c) => `specweave.verifier.${c}`);

/** A copy of examples/ with its repository built; returns the dataset folder. */
function exampleDataset(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-verifier-inhost-')), 'examples');
  fs.cpSync(path.join(projectRoot(), 'examples'), dir, {
    recursive: true,
    filter: (src) => !/[\\/](repos|runs|curation)([\\/]|$)/.test(path.relative(projectRoot(), src)),
  });
  execFileSync('sh', [path.join(dir, 'build-repos.sh')], { stdio: 'pipe' });
  return path.join(dir, 'dataset');
}

async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('specweave').update(key, value, vscode.ConfigurationTarget.Global);
}

describe('verifier (trusted workspace)', function () {
  this.timeout(300_000);
  let a: SpecWeaveApi;
  let root: string;

  before(async () => {
    a = await api();
    root = exampleDataset();
    await openDataset(a, root);
  });

  after(async () => {
    await closeAllEditors();
    await setting('docker.host', undefined);
    await setting('verifier.reuseRuns', undefined);
    await setting('verifier.backend', undefined);
    await setting('verifier.pool', undefined);
    await setting('verifier.kubernetesNamespace', undefined);
    fs.rmSync(path.dirname(path.dirname(root)), { recursive: true, force: true });
  });

  it('registers its commands; those that run code are disabled in Restricted Mode', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of COMMANDS) assert.ok(all.includes(c), `${c} is registered`);
    const manifest = vscode.extensions.getExtension(extensionId)?.packageJSON as { contributes: { commands: Array<{ command: string; enablement?: string }> } };
    for (const c of COMMANDS.filter((x) => /run|cancel/.test(x))) {
      assert.equal(manifest.contributes.commands.find((x) => x.command === c)?.enablement, 'isWorkspaceTrusted', c);
    }
  });

  it('says at once that there is no engine (no round trip to a missing socket), and what to do; nothing is stored', async () => {
    await setting('docker.host', 'unix:///nonexistent/specweave-test/docker.sock');
    const t0 = Date.now();
    const r = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runGold', TASK);
    const ms = Date.now() - t0;
    const t1 = Date.now();
    await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runGold', TASK);
    console.log(`[specweave-suite] no engine: first answer in ${ms} ms, second in ${Date.now() - t1} ms`);
    await setting('docker.host', undefined);
    assert.equal(r.state, 'no-engine');
    assert.match(r.message ?? '', /nonexistent\/specweave-test\/docker\.sock.*does not exist/);
    assert.match(r.message ?? '', /setup-docker\.sh|specweave\.docker\.host/);
    assert.equal(fs.existsSync(path.join(root, 'runs', TASK)), false);
  });

  it('verifies every attempt of the false-positive task with the gold and empty probes, and the task view gets the results', async () => {
    await vscode.commands.executeCommand('specweave.task.open', TASK);
    const session = await until('the task panel', () => a.panels.sessionOf(TASK));
    await until('the webview handshake', () => session.largestMessage > 0, 30_000);
    let pushed = 0;
    const push = session.pushUpdate.bind(session);
    session.pushUpdate = () => {
      pushed++;
      push();
    };
    assert.equal(a.panels.model(TASK, new Map()).results, undefined, 'no results before a run');
    // The attempt rows of the task in the Candidates tree: the outcome is the third part of the description.
    const rowOutcomes = () => {
      const taskNode = a.tree.getChildren(a.tree.getChildren()[0]).find((n) => n.kind === 'task' && n.taskId === TASK) as CandidateNode;
      const rows = a.tree.getChildren(taskNode).filter((n) => n.kind === 'attempt' && n.column !== 'gold');
      return Object.fromEntries(rows.map((n) => [n.kind === 'attempt' ? n.column : '', String(a.tree.getTreeItem(n).description ?? '').split(' · ')[2]]));
    };
    assert.deepEqual(rowOutcomes(), { [FP_ATTEMPT]: 'not run', 'mini-gpt-5-mini': 'not run', [FAILING_ATTEMPT]: 'not run' });

    const r = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runTask', TASK);
    assert.equal(r.state, 'done', r.message);
    assert.deepEqual(r.errors, []);
    const status = Object.fromEntries(r.runs.map((x) => [x.attemptId, x.status]));
    assert.deepEqual(status, { gold: 'passed', empty: 'failed', [FP_ATTEMPT]: 'passed', 'mini-gpt-5-mini': 'passed', [FAILING_ATTEMPT]: 'failed' });
    assert.ok(r.runs.every((x) => !x.reused));

    // The status bar shows the finished queue; the open task view was refreshed.
    assert.equal(a.verifier.statusItem.state.visible, true);
    assert.match(a.verifier.statusItem.state.text, /Verifier: 5 done/);
    await until('the task view to be refreshed', () => pushed > 0, 5000);

    const res = a.panels.model(TASK, new Map()).results;
    assert.ok(res);
    assert.deepEqual(res.columns, ['gold', 'empty', ...(a.dataset.task(TASK)?.attempts.map((x) => x.id) ?? [])]);
    assert.equal(res.columns.length, 5);
    assert.equal(res.tests.TA1?.empty, 'FAILED');
    assert.equal(res.tests.TA1?.[FP_ATTEMPT], 'PASSED', 'the false positive passes the rounding test');
    assert.equal(res.specs.A2?.[FP_ATTEMPT], 'pass', 'and the verifier says A2 is satisfied');
    assert.equal(res.tests.TA6?.[FAILING_ATTEMPT], 'FAILED');
    assert.equal(res.tests.TA7?.empty, 'PASSED', 'the weak test passes without any patch');
    assert.ok(Object.values(res.runs).every((x) => !x.stale && x.source === 'run'));
    assert.ok(res.flags.some((f) => f.kind === 'empty_passes_fail_to_pass' && f.testId === 'TA7'));
    assert.ok(res.flags.some((f) => f.kind === 'attempt_suspect_false_positive' && f.column === FP_ATTEMPT));
    const col = a.panels.model(TASK, new Map()).columns.find((c) => c.id === FP_ATTEMPT);
    assert.equal(col?.verdict, 'resolved (verifier)');

    const outcomes = { [FP_ATTEMPT]: 'passed', 'mini-gpt-5-mini': 'passed', [FAILING_ATTEMPT]: 'failed' };
    await until('the tree rows to say the run outcomes', () => (isDeepStrictEqual(rowOutcomes(), outcomes) ? true : undefined), 10_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(rowOutcomes())}`);
    });
    await vscode.commands.executeCommand('specweave.dataset.reload');
    await until('the rows after Reload Dataset to say the run outcomes', () => (a.owner.store && isDeepStrictEqual(rowOutcomes(), outcomes) ? true : undefined), 10_000);
  });

  it('opens the log of a run at the test a results cell names', async () => {
    const session = a.panels.sessionOf(TASK);
    assert.ok(session);
    const r = await a.verifier.openRunLog(TASK, FAILING_ATTEMPT, 'TA6');
    assert.equal(r.opened, true, r.message);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.equal(editor.document.uri.scheme, 'specweave-run');
    const line = editor.document.lineAt(editor.selection.active.line).text;
    // A failing test opens at its failure report, where the traceback is.
    assert.match(line, /^_+ test_sum_rounds_the_total_not_each_item _+$/);
    assert.equal(r.line, editor.selection.active.line + 1);
    assert.match(editor.document.getText(), /^# SpecWeave verifier run .*\n# task format-precision \(revision 1\), attempt openhands-claude-3-5-sonnet/);

    // The same through the task view's request, as a click on a cell sends it.
    await session.receive({ type: 'request', id: 4242, method: 'openRunLog', params: { column: 'gold', testId: 'TA1' } });
    const gold = vscode.window.activeTextEditor;
    assert.ok(gold);
    assert.match(gold.document.uri.path, /^\/format-precision\/[\w-]+\/gold\.log$/);
    assert.equal(gold.document.lineAt(gold.selection.active.line).text, 'PASSED tests/test_format.py::test_precision_rounds_half_up');
  });

  it('marks a result stale when its patch changes, and reuses runs whose inputs did not change', async () => {
    const patch = path.join(root, a.dataset.task(TASK)?.attempts.find((x) => x.id === FP_ATTEMPT)?.patchFile ?? 'missing');
    assert.ok(fs.existsSync(patch), patch);
    const before = fs.readFileSync(patch);
    fs.writeFileSync(patch, Buffer.concat([before, Buffer.from('\n')]));
    try {
      const res = await until('the stale mark', () => {
        const x = a.panels.model(TASK, new Map()).results;
        return x?.runs[FP_ATTEMPT]?.stale ? x : undefined;
      });
      assert.deepEqual(res.runs[FP_ATTEMPT]?.staleReasons, ['attempt patch changed']);
      assert.equal(res.runs.gold?.stale, false);
      assert.equal(res.runs['mini-gpt-5-mini']?.stale, false);
    } finally {
      fs.writeFileSync(patch, before);
    }
    const again = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runAttempt', TASK, 'mini-gpt-5-mini');
    assert.equal(again.state, 'done');
    assert.deepEqual(again.runs.map((x) => x.attemptId).sort(), ['empty', 'gold', 'mini-gpt-5-mini']);
    assert.ok(again.runs.every((x) => x.reused), 'nothing changed: the stored runs are reused');
  });

  it('runs on a pool of engines from the settings: the queue view shows each run\'s backend and node, the status bar counts runs per node', async () => {
    // Two pool entries that reach the one engine of this machine by two paths: two members, each with its own slot.
    const address = a.verifier.service?.engine.describe().address ?? 'unix:///var/run/docker.sock';
    assert.match(address, /^unix:\/\/\/.+\/[^/]+$/, address);
    const alias = address.replace(/\/([^/]+)$/, '/./$1');
    await setting('verifier.reuseRuns', false);
    await setting('verifier.backend', 'pool');
    await setting('verifier.pool', ['tcp://']);
    const bad = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runGold', TASK);
    assert.equal(bad.state, 'no-engine');
    assert.match(bad.message ?? '', /specweave\.verifier\.pool entry 1 .*must start with unix:\/\/, tcp:\/\/ or ssh:\/\//);
    await setting('verifier.pool', [`${address},capacity=1`, `${alias},capacity=1`]);
    try {
      const batch = vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runTask', TASK);
      // While it runs, the queue view is open; a running run names its backend and node.
      const shown = vscode.commands.executeCommand<string | undefined>('specweave.verifier.showQueue');
      await until('the queue view to open', () => a.verifier.openQueueViews > 0, 20_000);
      const live = await until('a running run with its node in the queue view', () => a.verifier.queueView().items.find((i) => /^running · pool · node[12] unix:\/\//.test(i.description ?? '')), 60_000);
      assert.match(live.label, new RegExp(`^\\$\\(sync~spin\\) ${TASK} `));
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await shown, undefined);
      const r = await batch;
      assert.equal(r.state, 'done', r.message);
      assert.deepEqual(r.errors, []);
      assert.equal(r.runs.length, 5);
      assert.ok(r.runs.every((x) => !x.reused));
      const status = Object.fromEntries(r.runs.map((x) => [x.attemptId, x.status]));
      assert.deepEqual(status, { gold: 'passed', empty: 'failed', [FP_ATTEMPT]: 'passed', 'mini-gpt-5-mini': 'passed', [FAILING_ATTEMPT]: 'failed' }, 'the same verdicts as the local engine gives');
      // Every run is listed with its node; the status bar's per-node counts add up to the batch.
      const v = a.verifier.queueView();
      const runs = v.items.filter((i) => i.id.startsWith('run:'));
      assert.equal(runs.length, 5);
      for (const i of runs) assert.match(i.description ?? '', /^done · pool · node[12] unix:\/\//, i.label);
      const text = a.verifier.statusItem.state.text;
      const m = /Verifier: 5 done · node(\d) (\d), node(\d) (\d)$/.exec(text);
      assert.ok(m, text);
      assert.equal(Number(m[2]) + Number(m[4]), 5, text);
      assert.match(a.verifier.statusItem.state.tooltip, /Per node: node\d \(unix:\/\/\/.+\) 0 running, \d finished; node\d/);
      assert.match(v.title, /last batch had 5 run\(s\) done\. Per node:/);
      // The stored records say where each ran, as the view did.
      for (const x of r.runs) {
        const dir = path.join(root, 'runs', TASK, x.attemptId);
        const recs = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as { runId?: string; backend?: string; node?: string });
        const rec = recs.find((y) => y.runId === x.runId);
        assert.equal(rec?.backend, 'pool', x.attemptId);
        assert.match(rec?.node ?? '', /^node[12] unix:\/\//, x.attemptId);
      }
    } finally {
      await setting('verifier.backend', undefined);
      await setting('verifier.pool', undefined);
      await setting('verifier.reuseRuns', undefined);
    }
  });

  it('runs a task on the kubernetes backend from the settings (the contract tests\' loopback API server, pods on the real engine): the local verdicts, each run named by its node in the queue view and its record', async () => {
    const kube = new FakeKubeApi();
    // The kubelet runs pods on the extension's own engine (made before the first Job is sent).
    kube.kubelet = async (job, maps) => runPod(await (a.verifier.service as NonNullable<typeof a.verifier.service>).engine.docker(), job, maps);
    const server = await kube.start();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sw-inhost-kube-')), 'config');
    fs.writeFileSync(file, ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: loopback', '  cluster:', `    server: ${server}`, '    insecure-skip-tls-verify: true', 'users:', '- name: curator', '  user:', '    token: t', 'contexts:', '- name: ctx', '  context: { cluster: loopback, user: curator }', 'current-context: ctx', ''].join('\n'));
    const was = process.env.KUBECONFIG;
    process.env.KUBECONFIG = file;
    await setting('verifier.reuseRuns', false);
    await setting('verifier.backend', 'kubernetes');
    try {
      await setting('verifier.kubernetesNamespace', 'Not_A_Label');
      const bad = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runGold', TASK);
      assert.equal(bad.state, 'no-engine');
      assert.match(bad.message ?? '', /specweave\.verifier\.kubernetesNamespace "Not_A_Label": a namespace is a DNS label/);
      await setting('verifier.kubernetesNamespace', 'inhost');
      const r = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runTask', TASK);
      assert.equal(r.state, 'done', r.message);
      assert.deepEqual(r.errors, []);
      const status = Object.fromEntries(r.runs.map((x) => [x.attemptId, x.status]));
      assert.deepEqual(status, { gold: 'passed', empty: 'failed', [FP_ATTEMPT]: 'passed', 'mini-gpt-5-mini': 'passed', [FAILING_ATTEMPT]: 'failed' }, 'the same verdicts as the local engine gives');
      const runs = a.verifier.queueView().items.filter((i) => i.id.startsWith('run:'));
      assert.equal(runs.length, 5);
      for (const i of runs) assert.equal(i.description, 'done · kubernetes · docker-kubelet kubernetes node', i.label);
      for (const x of r.runs) {
        const dir = path.join(root, 'runs', TASK, x.attemptId);
        const rec = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as { runId?: string; backend?: string; node?: string }).find((y) => y.runId === x.runId);
        assert.equal(rec?.backend, 'kubernetes', x.attemptId);
      }
      // Every Job went to the namespace of the setting, and every object made is deleted.
      assert.ok(kube.created('jobs').length >= 5 && kube.created('jobs').every((j) => j.metadata.namespace === 'inhost'));
      assert.deepEqual([...kube.objects.keys()], []);
    } finally {
      await setting('verifier.backend', undefined);
      await setting('verifier.kubernetesNamespace', undefined);
      await setting('verifier.reuseRuns', undefined);
      if (was === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = was;
      await Promise.all(kube.pods);
      await kube.stop();
    }
  });

  it('cancels all runs: the batch ends with its runs cancelled and no container of ours is left', async () => {
    await setting('verifier.reuseRuns', false);
    const batch = vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runTask', TASK);
    await until('a run to start', () => (a.verifier.service?.queue.progress().running ?? 0) > 0, 20_000);
    const n = await vscode.commands.executeCommand<number>('specweave.verifier.cancelAll');
    assert.ok(n >= 1);
    const r = await batch;
    await setting('verifier.reuseRuns', undefined);
    assert.equal(r.state, 'done');
    assert.ok(r.cancelled >= 1, `${r.cancelled} cancelled`);
    assert.match(a.verifier.statusItem.state.text, /cancelled/);
    const docker = await a.verifier.service?.engine.docker();
    assert.ok(docker);
    const left = await docker.listContainers({ all: true, filters: { label: ['specweave.owned=1', `specweave.pid=${process.pid}`] } });
    assert.deepEqual(left.map((c) => c.Id), []);
  });

  it('a task that names no image says so at once, with Set Image…, and runs nothing; Set Image writes it into its task.json', async () => {
    const manifest = path.join(root, 'specweave.json');
    const before = fs.readFileSync(manifest, 'utf8');
    const runsOf = () => (fs.existsSync(path.join(root, 'runs', TASK)) ? fs.readdirSync(path.join(root, 'runs', TASK), { recursive: true }).length : 0);
    try {
      const m = JSON.parse(before) as { defaults: Record<string, unknown> };
      delete m.defaults.image;
      fs.writeFileSync(manifest, JSON.stringify(m, null, 2));
      await vscode.commands.executeCommand('specweave.dataset.reload');
      const task = await until('the task without its image', () => (a.dataset.task(TASK)?.environment.image === '' ? a.dataset.task(TASK) : undefined));
      const stored = runsOf();
      const r = await vscode.commands.executeCommand<VerifierBatchResult>('specweave.verifier.runGold', TASK);
      assert.equal(r.state, 'nothing');
      assert.equal(r.message, `Task ${TASK} names no image: set environment.image in ${task.dir}/task.json or defaults.image in specweave.json.`);
      assert.deepEqual(r.errors, []);
      assert.equal(runsOf(), stored, 'nothing ran, nothing stored');

      const taskJson = path.join(root, task.dir, 'task.json');
      const set = await vscode.commands.executeCommand<{ file: string; image: string }>('specweave.task.setImage', TASK, 'specweave-base:bookworm');
      assert.deepEqual(set, { file: `${task.dir}/task.json`, image: 'specweave-base:bookworm' });
      assert.equal((JSON.parse(fs.readFileSync(taskJson, 'utf8')) as { environment: { image: string } }).environment.image, 'specweave-base:bookworm');
      await until('the task with its image', () => a.dataset.task(TASK)?.environment.image === 'specweave-base:bookworm');
      assert.ok(a.dataset.tasks.some((t) => t.id !== TASK && t.environment.image === ''), 'only that task changed');
    } finally {
      fs.writeFileSync(manifest, before);
      await vscode.commands.executeCommand('specweave.dataset.reload');
    }
  });
});
