// Harbor / Terminal-Bench 2 task folders and Harbor job outputs, as a task draft and attempt drafts. A task folder is
// `task.toml`, `instruction.md`, `environment/` (a Dockerfile and its build context), `tests/test.sh` (writes a
// reward to /logs/verifier) and optionally `solution/solve.sh` (the oracle). A job is a folder of trial folders, each
// one agent run on one task: its `result.json` holds the agent, model, cost and the verifier's rewards. Pure: the fs
// adapter lists the folders and reads the files; nothing here touches a disk.
import { createHash } from 'node:crypto';
import { addedFilesPatch } from '../addedFiles';
import type { AddedFile } from '../addedFiles';
import type { Problem, ProbeId, RecordedResult } from '../model';
import { EMPTY_PROBE, GOLD_PROBE, isProbeId } from '../model';
import type { TaskDraft } from '../serialize';
import { REWARD_JSON, REWARD_TXT, readReward } from '../verify/parseReward';
import { parseInstances } from './instances';
import { slug } from './pairing';
import { parseToml } from './toml';
import type { TomlTable, TomlValue } from './toml';
import { taskIdFor } from './toTask';

export const HARBOR_NO_SPECS_NOTE =
  'Imported from a Harbor task folder, which carries no specs: the task has none yet. Write them from the request before review.';

/** A file of the task's environment folder, as the adapter found it (contents are copied, never read here). */
export interface EnvironmentFile {
  /** Path relative to `environment/`, forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

/** What the fs adapter read from one task folder. */
export interface HarborTaskFolder {
  /** The folder as the user named it (for messages). */
  dir: string;
  folderName: string;
  taskToml: string;
  instruction?: string;
  /** Undefined when the folder has no `environment/`. */
  environment?: { files: EnvironmentFile[]; dockerfile?: string };
  /** Files under `tests/` and `solution/`, paths relative to those folders. */
  tests?: AddedFile[];
  solution?: AddedFile[];
  /** Other entries of the folder (`steps/`, `task.yaml`...), by name. */
  entries: string[];
}

export interface HarborTaskDraft {
  task: TaskDraft;
  request: string;
  testPatch: string;
  goldPatch?: string;
  /** Environment files to copy into the task folder: `from` relative to the Harbor folder, `to` task-relative. */
  copy: Array<{ from: string; to: string }>;
  /** Names a trial may use for this task: `[task].name`, its last part, the folder name. */
  names: string[];
  warnings: string[];
}

export type HarborTaskResult = { ok: true; draft: HarborTaskDraft } | { ok: false; problems: Problem[] };

const isTable = (v: TomlValue | undefined): v is TomlTable => v !== undefined && typeof v === 'object' && !Array.isArray(v);

function table(t: TomlTable, key: string): TomlTable {
  const v = Object.prototype.hasOwnProperty.call(t, key) ? t[key] : undefined;
  return isTable(v) ? v : {};
}

/** Memory as Harbor's deprecated strings write it (`"2G"`, `"512M"`), in MB. */
export function memoryMb(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toUpperCase();
  const mb = unit === 'K' ? n / 1024 : unit === 'G' ? n * 1024 : unit === 'T' ? n * 1024 * 1024 : unit === 'M' ? n : n / (1024 * 1024);
  return Math.round(mb);
}

/** The last absolute `WORKDIR` of a Dockerfile (a relative one or one with a variable cannot be known here). */
export function dockerfileWorkdir(dockerfile: string): { workdir?: string; unknown?: string } {
  let workdir: string | undefined;
  let unknown: string | undefined;
  for (const raw of dockerfile.split(/\r?\n/)) {
    const m = /^\s*WORKDIR\s+(.+?)\s*$/i.exec(raw);
    if (!m) continue;
    const w = (m[1] as string).replace(/^["']|["']$/g, '');
    if (w.startsWith('/') && !/[$]/.test(w)) {
      workdir = w.replace(/\/+$/, '') || '/';
      unknown = undefined;
    } else unknown = w;
  }
  return { ...(workdir !== undefined ? { workdir } : {}), ...(unknown !== undefined ? { unknown } : {}) };
}

/** A test script that fetches tools or packages when it runs (the verifier runs without a network). */
const DOWNLOADS = /\b(curl|wget)\b|\b(pip3?|uv pip) install\b|\buvx?\s|\bapt(-get)? (install|update)\b|\bapk add\b|\bnpm (i|install|ci)\b|\bgit clone\b/;

function str(t: TomlTable, key: string, file: string, field: string, warnings: string[]): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(t, key)) return undefined;
  const v = t[key];
  if (typeof v === 'string') return v;
  warnings.push(`${file}: ${field} should be a string; it is ignored`);
  return undefined;
}

function num(t: TomlTable, key: string, file: string, field: string, warnings: string[], positive = true): number | undefined {
  if (!Object.prototype.hasOwnProperty.call(t, key)) return undefined;
  const v = t[key];
  if (typeof v === 'number' && Number.isFinite(v) && (!positive || v > 0)) return v;
  warnings.push(`${file}: ${field} should be a ${positive ? 'positive ' : ''}number; it is ignored`);
  return undefined;
}

function envKeys(t: TomlTable): string[] {
  return Object.keys(t);
}

/** A docker tag for an environment built from the task's Dockerfile: changes when any file of it changes. */
function builtImageTag(id: string, files: EnvironmentFile[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) h.update(`${f.path}\0${f.sha256}\0`);
  const repo = id.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'task';
  return `specweave-harbor/${repo}:${h.digest('hex').slice(0, 12)}`;
}

function titleOf(description: string | undefined, instruction: string, id: string): string {
  const first = (description ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find(Boolean) ?? instruction
    .split(/\r?\n/)
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find(Boolean);
  if (!first) return id;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

/** One Harbor task folder as a task draft; problems (a broken task.toml, a missing file) name the file and line. */
export function harborTask(f: HarborTaskFolder): HarborTaskResult {
  const tomlFile = `${f.dir}/task.toml`;
  const parsed = parseToml(f.taskToml, tomlFile);
  if (!parsed.ok) return { ok: false, problems: [{ severity: 'error', file: tomlFile, line: parsed.error.line, message: `${parsed.error.reason}; the task is skipped` }] };
  const cfg = parsed.value;
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const notes: string[] = [HARBOR_NO_SPECS_NOTE];
  const taskT = table(cfg, 'task');
  const meta = table(cfg, 'metadata');
  const verifierT = table(cfg, 'verifier');
  const agentT = table(cfg, 'agent');
  const envT = table(cfg, 'environment');
  const solutionT = table(cfg, 'solution');

  const name = str(taskT, 'name', tomlFile, '[task].name', warnings);
  const id = taskIdFor((name ? name.slice(name.lastIndexOf('/') + 1) : '') || f.folderName);
  if (f.instruction === undefined) problems.push({ severity: 'error', file: `${f.dir}/instruction.md`, message: 'a Harbor task needs instruction.md (the request); the task is skipped' });
  const testSh = f.tests?.find((t) => t.path === 'test.sh');
  if (!testSh) problems.push({ severity: 'error', file: `${f.dir}/tests/test.sh`, message: 'a Harbor task needs tests/test.sh (it writes the reward); the task is skipped' });
  const steps = Object.prototype.hasOwnProperty.call(cfg, 'steps') || f.entries.includes('steps');
  if (steps) problems.push({ severity: 'error', file: tomlFile, field: 'steps', message: 'multi-step Harbor tasks ([[steps]], steps/) are not read yet; the task is skipped' });
  const os = str(envT, 'os', tomlFile, '[environment].os', warnings);
  if (os !== undefined && os !== 'linux') problems.push({ severity: 'error', file: tomlFile, field: 'environment.os', message: `environment os "${os}" cannot run in the verifier's Linux containers; the task is skipped` });
  if (problems.length > 0) return { ok: false, problems };
  const instruction = f.instruction as string;
  if (!instruction.trim()) warnings.push(`${f.dir}/instruction.md is empty: request.md will be empty`);

  // The SWE-bench adapter keeps the whole SWE-bench row in tests/config.json.
  const configFile = f.tests?.find((t) => t.path === 'config.json');
  let row: ReturnType<typeof parseInstances>['rows'][number] | undefined;
  if (configFile) {
    const text = Buffer.from(configFile.content).toString('utf8');
    const r = parseInstances(text, `${f.dir}/tests/config.json`);
    if (r.rows.length === 1 && r.rows[0]?.instanceId) row = r.rows[0];
  }

  // Environment: a prebuilt image, else the task's Dockerfile (its folder is the build context).
  const dockerImage = str(envT, 'docker_image', tomlFile, '[environment].docker_image', warnings);
  const files = f.environment?.files ?? [];
  const hasDockerfile = files.some((x) => x.path === 'Dockerfile');
  const compose = files.find((x) => /^docker-compose\.ya?ml$|^compose\.ya?ml$/.test(x.path));
  if (compose) {
    notes.push(
      `environment/${compose.path}: Harbor runs this task as a docker-compose project; the verifier runs one container` +
        (hasDockerfile ? ' built from environment/Dockerfile, without the other services.' : ', and the task has no Dockerfile of its own: it cannot be verified as it is.'),
    );
  }
  const copy = hasDockerfile ? files.map((x) => ({ from: `environment/${x.path}`, to: `environment/${x.path}` })) : [];
  const image = dockerImage ?? (hasDockerfile ? builtImageTag(id, files) : undefined);
  if (!image) warnings.push(`${f.dir}: no [environment].docker_image and no environment/Dockerfile: the task has no image and cannot be verified`);

  let workdir = str(envT, 'workdir', tomlFile, '[environment].workdir', warnings);
  if (workdir !== undefined && !workdir.startsWith('/')) {
    warnings.push(`${tomlFile}: [environment].workdir "${workdir}" is not absolute; it is ignored`);
    workdir = undefined;
  }
  if (workdir === undefined && f.environment?.dockerfile !== undefined) {
    const w = dockerfileWorkdir(f.environment.dockerfile);
    workdir = w.workdir;
    if (w.unknown) notes.push(`environment/Dockerfile sets WORKDIR ${w.unknown}, which cannot be resolved here.`);
  }
  if (workdir === undefined) {
    workdir = row ? '/testbed' : '/app';
    notes.push(`The task names no working directory; ${workdir} is assumed (${row ? "SWE-bench's" : "Terminal-Bench's"} convention).`);
  }

  const limits: { cpus?: number; memoryMb?: number; diskMb?: number } = {};
  const cpus = num(envT, 'cpus', tomlFile, '[environment].cpus', warnings);
  if (cpus !== undefined) limits.cpus = cpus;
  const mem = num(envT, 'memory_mb', tomlFile, '[environment].memory_mb', warnings);
  const memText = str(envT, 'memory', tomlFile, '[environment].memory', warnings);
  if (mem !== undefined) limits.memoryMb = Math.round(mem);
  else if (memText !== undefined) {
    const m = memoryMb(memText);
    if (m !== undefined && m >= 16) limits.memoryMb = m;
    else warnings.push(`${tomlFile}: [environment].memory "${memText}" is not a size like "4G"; it is ignored`);
  }
  // Harbor's storage size bounds what the run may write (`limits.diskMb`).
  const storage = num(envT, 'storage_mb', tomlFile, '[environment].storage_mb', warnings);
  const storageText = str(envT, 'storage', tomlFile, '[environment].storage', warnings);
  if (storage !== undefined && storage >= 1) limits.diskMb = Math.round(storage);
  else if (storage !== undefined) warnings.push(`${tomlFile}: [environment].storage_mb ${storage} is not a size in MB; it is ignored`);
  else if (storageText !== undefined) {
    const m = memoryMb(storageText);
    if (m !== undefined && m >= 16) limits.diskMb = m;
    else warnings.push(`${tomlFile}: [environment].storage "${storageText}" is not a size like "10G"; it is ignored`);
  }
  const verifierTimeout = num(verifierT, 'timeout_sec', tomlFile, '[verifier].timeout_sec', warnings) ?? 600;
  const agentTimeout = num(agentT, 'timeout_sec', tomlFile, '[agent].timeout_sec', warnings) ?? 600;
  const solveSh = f.solution?.find((s) => s.path === 'solve.sh');
  const timeoutSec = Math.min(86400, verifierTimeout + (solveSh ? agentTimeout : 0));
  if (solveSh) notes.push(`The deadline is [verifier].timeout_sec + [agent].timeout_sec (${verifierTimeout} + ${agentTimeout} s): the gold probe runs solution/solve.sh and the tests within one run.`);

  // What the verifier cannot give a Harbor task: a network, environment variables.
  const testText = testSh ? Buffer.from(testSh.content).toString('utf8') : '';
  const fetches = DOWNLOADS.exec(testText);
  const internet = envT.allow_internet === true || (typeof envT.network_mode === 'string' && envT.network_mode !== 'none');
  if (fetches) {
    notes.push(
      `tests/test.sh fetches software when it runs ("${fetches[0].trim()}"${internet ? '; the task allows the internet' : ''}): the verifier runs without a network, so its runs fail unless the image already holds what it fetches.`,
    );
  } else if (internet) notes.push('The task allows the internet ([environment].allow_internet / network_mode); the verifier runs without a network.');
  const vEnv = envKeys(table(verifierT, 'env'));
  const sEnv = envKeys(table(solutionT, 'env'));
  const eEnv = envKeys(table(envT, 'env'));
  const envNote = [
    ...(vEnv.length > 0 ? [`[verifier.env] (${vEnv.join(', ')})`] : []),
    ...(sEnv.length > 0 ? [`[solution.env] (${sEnv.join(', ')})`] : []),
    ...(eEnv.length > 0 ? [`[environment.env] (${eEnv.join(', ')})`] : []),
  ];
  if (envNote.length > 0) notes.push(`${envNote.join(', ')}: the verifier sets no environment variables of a task; these are not passed.`);

  // Tests: one reward, or the SWE-bench row's lists, each graded by the reward.
  const tests: TaskDraft['tests'] = [];
  if (row && row.failToPass.length + row.passToPass.length > 0) {
    const seen = new Set<string>();
    for (const [list, kind] of [[row.failToPass, 'fail_to_pass'], [row.passToPass, 'pass_to_pass']] as const) {
      for (const n of list) {
        if (seen.has(n)) continue;
        seen.add(n);
        tests.push({ id: `T${tests.length + 1}`, name: n, kind });
      }
    }
    notes.push(
      `tests/config.json holds the SWE-bench row of ${row.instanceId} (Harbor's SWE-bench adapter): its FAIL_TO_PASS and PASS_TO_PASS tests are listed, ` +
        "and each takes the verdict of the reward tests/test.sh writes (SWE-bench's own grading inside the container).",
    );
  } else {
    tests.push({ id: 'T1', name: 'reward', kind: 'fail_to_pass' });
    notes.push('Harbor grades a task by one reward (tests/test.sh writes it to /logs/verifier): the task lists it as its one test, "reward", which passes when the reward is 1.');
  }

  let goldPatch: string | undefined;
  if (solveSh) {
    goldPatch = addedFilesPatch((f.solution ?? []).map((s) => (s.path === 'solve.sh' ? { ...s, executable: true } : s)), 'solution/');
  } else notes.push('The folder has no solution/solve.sh: the task has no gold probe.');
  const testPatch = addedFilesPatch((f.tests ?? []).map((t) => (t.path === 'test.sh' ? { ...t, executable: true } : t)), 'tests/');

  const source: Record<string, unknown> = { importer: 'harbor', dir: f.dir };
  if (name) source.name = name;
  const version = str(cfg, 'schema_version', tomlFile, 'schema_version', warnings) ?? str(cfg, 'version', tomlFile, 'version', warnings);
  if (version) source.schema_version = version;
  const description = str(taskT, 'description', tomlFile, '[task].description', warnings);
  if (description) source.description = description;
  if (Array.isArray(taskT.keywords)) source.keywords = taskT.keywords;
  if (Object.keys(meta).length > 0) source.metadata = meta;
  if (row) {
    source.swebench_instance_id = row.instanceId;
    if (row.baseCommit) source.base_commit = row.baseCommit;
  }
  if (dockerImage && hasDockerfile) source.dockerfile = 'environment/Dockerfile builds the image when it is missing';

  const repoName = row?.repo ?? name ?? f.folderName;
  const task: TaskDraft = {
    id,
    title: titleOf(description, instruction, id),
    repo: { name: repoName, inImage: true, ...(row?.baseCommit ? { baseCommit: row.baseCommit } : {}) },
    environment: {
      ...(image ? { image } : {}),
      workdir,
      timeoutSec,
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
      ...(hasDockerfile ? { dockerfile: 'environment/Dockerfile' } : {}),
    },
    verifier: { command: 'bash /tests/test.sh', parser: 'reward', unpackTo: '/', ...(solveSh ? { goldCommand: 'bash /solution/solve.sh' } : {}) },
    specs: [],
    tests,
    notes,
    source,
  };
  const names = [...new Set([name, name?.slice(name.lastIndexOf('/') + 1), f.folderName, id].filter((x): x is string => Boolean(x)))];
  return { ok: true, draft: { task, request: instruction, testPatch, ...(goldPatch !== undefined ? { goldPatch } : {}), copy, names, warnings } };
}

// ---- job outputs ---------------------------------------------------------------------------------------------

/** What the fs adapter read from one trial folder. */
export interface HarborTrialFolder {
  /** The trial folder as shown in messages. */
  dir: string;
  /** The job folder's name (the run), or the trial's parent folder for a lone trial. */
  job: string;
  resultJson: string;
  /** `verifier/reward.txt` and `verifier/reward.json` as the trial kept them. */
  rewardTxt?: string;
  rewardJson?: string;
}

export interface HarborTrial {
  dir: string;
  resultFile: string;
  trialName: string;
  taskName: string;
  /** `config.task.path` (or `task_id.path`), when the trial names one. */
  taskPath?: string;
  agent: string;
  agentVersion?: string;
  model: string;
  job: string;
  costUsd?: number;
  tokens?: { input?: number; output?: number };
  /** `exception_info.exception_type`, else `completed`. */
  exitStatus: string;
  exceptionMessage?: string;
  /** The verifier's rewards; undefined when the verifier never ran. */
  rewards?: Record<string, number>;
  warnings: string[];
}

export type HarborTrialResult =
  | { ok: true; trial: HarborTrial }
  | { ok: false; notTrial: true; reason: string }
  | { ok: false; notTrial: false; problem: Problem };

const obj = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** One trial's `result.json` (Harbor's TrialResult); a job's own `result.json` is recognised and set aside. */
export function harborTrial(t: HarborTrialFolder): HarborTrialResult {
  const resultFile = `${t.dir}/result.json`;
  let v: unknown;
  try {
    v = JSON.parse(t.resultJson.charCodeAt(0) === 0xfeff ? t.resultJson.slice(1) : t.resultJson);
  } catch (e) {
    return { ok: false, notTrial: false, problem: { severity: 'error', file: resultFile, message: `not JSON (${(e as Error).message}); the trial is skipped` } };
  }
  const r = obj(v);
  if (!r) return { ok: false, notTrial: false, problem: { severity: 'error', file: resultFile, message: 'expected a JSON object (a Harbor TrialResult); the trial is skipped' } };
  if (r.trial_name === undefined && (r.n_total_trials !== undefined || r.stats !== undefined || Array.isArray(r.trial_results))) {
    return { ok: false, notTrial: true, reason: `a Harbor job's summary (${finite(r.n_total_trials) ?? '?'} trial(s)); the trials are read from their own folders` };
  }
  const trialName = text(r.trial_name);
  const taskName = text(r.task_name);
  if (!trialName || !taskName) {
    return { ok: false, notTrial: false, problem: { severity: 'error', file: resultFile, field: trialName ? 'task_name' : 'trial_name', message: 'a Harbor trial result names its trial_name and task_name; the trial is skipped' } };
  }
  const warnings: string[] = [];
  const config = obj(r.config) ?? {};
  const agentCfg = obj(config.agent) ?? {};
  const info = obj(r.agent_info) ?? {};
  const modelInfo = obj(info.model_info);
  const agent = text(info.name) ?? text(agentCfg.name) ?? 'unknown-agent';
  const agentVersion = text(info.version);
  const modelFromInfo = modelInfo && text(modelInfo.name) ? (text(modelInfo.provider) ? `${text(modelInfo.provider)}/${text(modelInfo.name)}` : text(modelInfo.name)) : undefined;
  const model = text(agentCfg.model_name) ?? modelFromInfo ?? (agent === 'oracle' || agent === 'nop' ? agent : 'unknown');
  const taskCfg = obj(config.task) ?? {};
  const taskId = obj(r.task_id) ?? {};
  const taskPath = text(taskCfg.path) ?? text(taskId.path);
  const ar = obj(r.agent_result);
  const costUsd = ar ? finite(ar.cost_usd) : undefined;
  const inTok = ar ? finite(ar.n_input_tokens) : undefined;
  const outTok = ar ? finite(ar.n_output_tokens) : undefined;
  const exc = obj(r.exception_info);
  const exitStatus = (exc && text(exc.exception_type)) ?? 'completed';
  const vr = obj(r.verifier_result);
  const rw = vr ? obj(vr.rewards) : undefined;
  let rewards: Record<string, number> | undefined;
  if (rw) {
    rewards = {};
    for (const [k, x] of Object.entries(rw)) {
      const n = finite(x);
      if (n !== undefined && typeof x !== 'boolean') Object.defineProperty(rewards, k, { value: n, enumerable: true, writable: true, configurable: true });
    }
  }
  // The trial's own copy of the reward files should say the same as its result.
  if (rewards && (t.rewardTxt !== undefined || t.rewardJson !== undefined)) {
    const kept = readReward({ [REWARD_TXT]: t.rewardTxt, [REWARD_JSON]: t.rewardJson });
    if (kept.ok && rewards.reward !== undefined && kept.reward !== rewards.reward) {
      warnings.push(`${t.dir}/verifier holds reward ${kept.reward} but result.json says ${rewards.reward}; result.json is used`);
    }
  }
  return {
    ok: true,
    trial: {
      dir: t.dir,
      resultFile,
      trialName,
      taskName,
      ...(taskPath ? { taskPath } : {}),
      agent,
      ...(agentVersion ? { agentVersion } : {}),
      model,
      job: t.job,
      ...(costUsd !== undefined && costUsd >= 0 ? { costUsd } : {}),
      ...(inTok !== undefined || outTok !== undefined ? { tokens: { ...(inTok !== undefined ? { input: Math.round(inTok) } : {}), ...(outTok !== undefined ? { output: Math.round(outTok) } : {}) } } : {}),
      exitStatus,
      ...(exc && text(exc.exception_message) ? { exceptionMessage: text(exc.exception_message) } : {}),
      ...(rewards ? { rewards } : {}),
      warnings,
    },
  };
}

/** The recorded verdict of a trial: its reward, or why there is none. */
export function trialVerdict(trial: HarborTrial, taskTests: string[]): RecordedResult {
  const base = { imported: true as const, source: 'harbor-trial', file: trial.resultFile };
  const reward = trial.rewards?.reward;
  if (!trial.rewards || reward === undefined) {
    const why = trial.rewards
      ? `the verifier wrote no "reward" (${Object.keys(trial.rewards).join(', ') || 'no rewards'})`
      : `the verifier did not run${trial.exitStatus !== 'completed' ? ` (${trial.exitStatus}${trial.exceptionMessage ? `: ${trial.exceptionMessage.split('\n')[0]?.slice(0, 200)}` : ''})` : ''}`;
    return { ...base, status: 'error', detail: why };
  }
  const resolved = reward >= 1;
  const tests: Record<string, 'PASSED' | 'FAILED'> = {};
  for (const n of taskTests) {
    const own = Object.prototype.hasOwnProperty.call(trial.rewards, n) ? trial.rewards[n] : undefined;
    tests[n] = (own ?? reward) >= 1 ? 'PASSED' : 'FAILED';
  }
  const others = Object.entries(trial.rewards).filter(([k]) => k !== 'reward');
  return {
    ...base,
    resolved,
    status: resolved ? 'resolved' : 'unresolved',
    detail: `reward ${reward}${others.length > 0 ? ` (${others.map(([k, x]) => `${k} ${x}`).join(', ')})` : ''}`,
    tests,
  };
}

/** Harbor's own probes: the oracle runs the task's solution, `nop` does nothing. They are not solver attempts. */
export function probeOf(trial: HarborTrial): ProbeId | undefined {
  return trial.agent === 'oracle' ? GOLD_PROBE : trial.agent === 'nop' ? EMPTY_PROBE : undefined;
}

/** Attempt ids for the trials of one task: the agent and model as a slug, `-2`, `-3`... in trial-name order. */
export function trialAttemptIds(trials: HarborTrial[]): Map<HarborTrial, string> {
  const out = new Map<HarborTrial, string>();
  const used = new Set<string>();
  const sorted = [...trials].sort((a, b) => (a.agent + a.model + a.job + a.trialName < b.agent + b.model + b.job + b.trialName ? -1 : 1));
  for (const t of sorted) {
    const modelShort = t.model.slice(t.model.lastIndexOf('/') + 1);
    let base = slug(`${t.agent}-${modelShort}`).slice(0, 180) || 'attempt';
    if (!/^[a-z0-9]/.test(base)) base = `a-${base}`;
    if (isProbeId(base)) base = `${base}-agent`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    out.set(t, id);
  }
  return out;
}

/** The trajectory files of a trial's agent folder in the order they are preferred: Harbor's ATIF copy first. */
export function trajectoryPreference(agentFiles: string[]): string[] {
  const rank = (p: string): number => {
    if (p === 'trajectory.json') return 0;
    if (/\.trajectory\.json$|\.traj(\.json)?$/.test(p)) return 1;
    if (/^sessions\/.*\.jsonl$/.test(p)) return 2;
    if (/\.jsonl?$/.test(p)) return 3;
    if (/\.txt$/.test(p)) return 4;
    return 9;
  };
  return agentFiles.filter((p) => rank(p) < 9).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
}
