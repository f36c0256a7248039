// Starts and stops code-server (installed by scripts/setup-vscode.sh) for the in-host and the UI tests.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const projectRoot = path.resolve(__dirname, '../../..');
export const node24 = path.join(projectRoot, '.tools/node24/bin/node');
export const codeServerEntry = path.join(projectRoot, '.tools/code-server/node_modules/code-server/out/node/entry.js');

/** Settings for a fresh profile: no welcome page, no tips, no update or gallery chatter, no AI prompts. */
export const freshProfileSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // Restricted mode is tested by opening untrusted; a modal trust prompt would block the workbench instead.
  'security.workspace.trust.startupPrompt': 'never',
};

export interface CodeServerOptions {
  userDataDir: string;
  extensionsDir: string;
  /** Folder opened as the workspace. */
  workspace?: string;
  /** The server's own output goes here (appended). */
  logFile: string;
  /** Without it the workspace opens untrusted, in restricted mode. */
  trustWorkspace: boolean;
  /** Needed for the development payload (extensionDevelopmentPath / extensionTestsPath) to be honoured. */
  smokeTestDriver?: boolean;
  /** Packaged extensions installed into extensionsDir before the server starts. */
  installExtensions?: string[];
  /** Merged over what the user settings file already holds (freshProfileSettings are the base). */
  settings?: Record<string, unknown>;
  /** 0 (default) lets the OS choose. */
  port?: number;
  host?: string;
  /** Added to the server's environment; the extension host inherits it. */
  env?: Record<string, string>;
  /** Bounds the wait for /healthz. */
  startTimeoutMs?: number;
}

export interface CodeServer {
  /** http://host:port, no trailing slash. */
  readonly url: string;
  /** host:port, the authority vscode-remote:// URIs must carry. */
  readonly authority: string;
  readonly pid: number;
  /** Resolves when the whole process group is gone. Safe to call twice. */
  stop(): Promise<void>;
}

export function assertToolsInstalled(): void {
  if (!existsSync(node24) || !existsSync(codeServerEntry)) {
    throw new Error(`code-server is not installed under .tools/: run \`bash scripts/setup-vscode.sh\` first`);
  }
}

/** The environment for code-server: ours, without what would make it act as a CLI of an enclosing VS Code. */
function serverEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) {
    if (key === 'VSCODE_IPC_HOOK_CLI' || key === 'ELECTRON_RUN_AS_NODE' || key.startsWith('VSCODE_GIT_')) delete env[key];
  }
  return env;
}

export function writeUserSettings(userDataDir: string, settings: Record<string, unknown> | undefined): void {
  const file = path.join(userDataDir, 'User', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  let existing: Record<string, unknown> = {};
  if (existsSync(file)) {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8') || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) existing = parsed as Record<string, unknown>;
  }
  writeFileSync(file, JSON.stringify({ ...freshProfileSettings, ...existing, ...settings }, null, 2));
}

function commonArgs(o: CodeServerOptions, configFile: string): string[] {
  return [
    codeServerEntry,
    '--config', configFile,
    '--auth', 'none',
    '--user-data-dir', o.userDataDir,
    '--extensions-dir', o.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
  ];
}

export async function startCodeServer(o: CodeServerOptions): Promise<CodeServer> {
  assertToolsInstalled();
  mkdirSync(o.userDataDir, { recursive: true });
  mkdirSync(o.extensionsDir, { recursive: true });
  mkdirSync(path.dirname(o.logFile), { recursive: true });
  // Its own config file, or code-server writes one with a random password into ~/.config.
  const configFile = path.join(o.userDataDir, 'code-server-config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  writeUserSettings(o.userDataDir, o.settings);
  const env = serverEnv(o.env);

  for (const vsix of o.installExtensions ?? []) {
    const r = spawnSync(node24, [...commonArgs(o, configFile), '--install-extension', vsix, '--force'], {
      env, encoding: 'utf8', timeout: 120_000,
    });
    writeFileSync(o.logFile, `$ code-server --install-extension ${vsix}\n${r.stdout ?? ''}${r.stderr ?? ''}\n`, { flag: 'a' });
    if (r.status !== 0) {
      throw new Error(`code-server --install-extension ${vsix} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim()}`);
    }
  }

  const args = [
    ...commonArgs(o, configFile),
    '--bind-addr', `${o.host ?? '127.0.0.1'}:${o.port ?? 0}`,
    '--ignore-last-opened',
  ];
  if (o.trustWorkspace) args.push('--disable-workspace-trust');
  if (o.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (o.workspace) args.push(o.workspace);

  // The log is appended to: only what this server writes after this offset counts.
  const logStart = existsSync(o.logFile) ? statSync(o.logFile).size : 0;
  const logFd = openSync(o.logFile, 'a');
  // Detached: its own process group, so stop() ends the extension host, pty host and watchers with it.
  const child = spawn(node24, args, { detached: true, stdio: ['ignore', logFd, logFd], env });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error('code-server did not start (no pid)');
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));
  const killGroup = (signal: NodeJS.Signals): void => {
    try { process.kill(-pid, signal); } catch { /* already gone */ }
  };
  // A crashed or interrupted test run must not leave servers behind: the detached group gets no Ctrl-C of its own.
  const onExit = (): void => killGroup('SIGKILL');
  process.once('exit', onExit);
  liveGroups.add(pid);
  exitedPromise.then(() => liveGroups.delete(pid), () => undefined);
  installSignalCleanup();

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      process.removeListener('exit', onExit);
      killGroup('SIGTERM');
      const timedOut = await Promise.race([exitedPromise.then(() => false), delay(5_000).then(() => true)]);
      // The group may outlive its leader (extension host, watchers): end whatever is left.
      killGroup('SIGKILL');
      if (timedOut) await Promise.race([exitedPromise, delay(2_000)]);
    })();
    return stopped;
  };

  try {
    const deadline = Date.now() + (o.startTimeoutMs ?? 30_000);
    let authority: string | undefined;
    while (!authority) {
      if (exited) throw new Error(`code-server exited during start-up; log: ${o.logFile}\n${tail(o.logFile)}`);
      if (Date.now() > deadline) throw new Error(`code-server did not listen in time; log: ${o.logFile}\n${tail(o.logFile)}`);
      const m = /HTTP server listening on https?:\/\/([^/\s]+)\//.exec(readFileSync(o.logFile).subarray(logStart).toString('utf8'));
      if (m?.[1]) authority = m[1];
      else await delay(100);
    }
    const url = `http://${authority}`;
    while (!(await healthy(url))) {
      if (exited || Date.now() > deadline) throw new Error(`code-server did not answer /healthz; log: ${o.logFile}\n${tail(o.logFile)}`);
      await delay(100);
    }
    return { url, authority, pid, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

const liveGroups = new Set<number>();
let signalCleanupInstalled = false;

/** On SIGINT/SIGTERM: kill every server this process started, then die of the same signal as if unhandled. */
function installSignalCleanup(): void {
  if (signalCleanupInstalled) return;
  signalCleanupInstalled = true;
  const onSignal = (signal: NodeJS.Signals): void => {
    for (const pid of liveGroups) {
      try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
