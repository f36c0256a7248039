// Stands in for the desktop VS Code executable that @vscode/test-electron would download (impossible offline): it
// takes VS Code's command line, serves the workbench with code-server, opens it in headless chromium with the
// development payload, relays the extension host's log and exits with the test suite's exit code.
//
// Environment: SPECWEAVE_TEST_TRUST=restricted opens the workspace untrusted even though test-electron always passes
// --disable-workspace-trust; SPECWEAVE_TEST_OUTPUT_DIR receives logs and a screenshot on failure;
// SPECWEAVE_TEST_TIMEOUT_MS bounds the whole run (default 300000).
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import { launchChromium } from './harness/browser';
import { startCodeServer } from './harness/codeServer';
import type { CodeServer } from './harness/codeServer';
import type { Browser } from 'playwright-core';

interface LaunchArgs {
  extensionDevelopmentPaths: string[];
  extensionTestsPath?: string;
  userDataDir?: string;
  extensionsDir?: string;
  disableWorkspaceTrust: boolean;
  folder?: string;
}

function parseArgs(argv: string[]): LaunchArgs {
  const out: LaunchArgs = { extensionDevelopmentPaths: [], disableWorkspaceTrust: false };
  const takes: Record<string, (v: string) => void> = {
    extensionDevelopmentPath: (v) => out.extensionDevelopmentPaths.push(path.resolve(v)),
    extensionTestsPath: (v) => { out.extensionTestsPath = path.resolve(v); },
    'user-data-dir': (v) => { out.userDataDir = path.resolve(v); },
    'extensions-dir': (v) => { out.extensionsDir = path.resolve(v); },
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '';
    const inline = arg.startsWith('--') && eq >= 0 ? arg.slice(eq + 1) : undefined;
    const take = takes[flag];
    if (take) {
      const v = inline ?? argv[++i];
      if (v !== undefined) take(v);
    } else if (flag === 'disable-workspace-trust') {
      out.disableWorkspaceTrust = true;
    } else if (!arg.startsWith('-')) {
      out.folder ??= path.resolve(arg);
    }
    // Other switches (--no-sandbox, --disable-updates, --skip-welcome...) are desktop-only: nothing for a server.
  }
  return out;
}

/** The workbench URL with the development payload; the authority must be the one the page is opened with. */
function workbenchUrl(server: CodeServer, args: LaunchArgs): string {
  const remote = (p: string): string => `vscode-remote://${server.authority}${p.split(path.sep).join('/')}`;
  const payload: [string, string][] = args.extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', remote(p)]);
  if (args.extensionTestsPath) payload.push(['extensionTestsPath', remote(args.extensionTestsPath)]);
  const query = new URLSearchParams();
  if (args.folder) query.set('folder', args.folder);
  else query.set('ew', 'true');
  query.set('payload', JSON.stringify(payload));
  return `${server.url}/?${query.toString()}`;
}

/** Prefix suite/index.ts puts on the lines meant for the terminal. */
const suiteMarker = '[specweave-suite] ';

function formatLog(args: unknown): string {
  const list: unknown[] = Array.isArray(args) ? args : [args];
  return format(...list);
}

function extensionId(extensionPath: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(extensionPath, 'package.json'), 'utf8')) as { publisher?: string; name?: string };
    return manifest.publisher && manifest.name ? `${manifest.publisher}.${manifest.name}` : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const restricted = process.env['SPECWEAVE_TEST_TRUST'] === 'restricted';
  const timeoutMs = Number(process.env['SPECWEAVE_TEST_TIMEOUT_MS'] ?? 300_000);
  const userDataDir = args.userDataDir ?? path.resolve('.vscode-test/user-data');
  const outDir = path.resolve(process.env['SPECWEAVE_TEST_OUTPUT_DIR'] ?? path.join(userDataDir, '..'));
  mkdirSync(outDir, { recursive: true });

  const t0 = Date.now();
  const server = await startCodeServer({
    userDataDir,
    extensionsDir: args.extensionsDir ?? path.resolve('.vscode-test/extensions'),
    ...(args.folder ? { workspace: args.folder } : {}),
    logFile: path.join(outDir, 'code-server.log'),
    trustWorkspace: args.disableWorkspaceTrust && !restricted,
    smokeTestDriver: true,
  });
  let browser: Browser | undefined;
  const consoleLog: string[] = [];
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let finish: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => { finish = resolve; });
    // Everything the workbench logs goes to workbench.log; the suite's own lines (marked by suite/index.ts) and
    // errors naming an extension under development also go to the terminal.
    const workbenchLog = path.join(outDir, 'workbench.log');
    writeFileSync(workbenchLog, '');
    const devIds = args.extensionDevelopmentPaths.map(extensionId).filter((id): id is string => id !== undefined);
    await page.exposeFunction('codeAutomationLog', (level: string, logArgs: unknown) => {
      const line = formatLog(logArgs);
      appendFileSync(workbenchLog, `[${level}] ${line}\n`);
      if (line.startsWith(suiteMarker)) console.log(line.slice(suiteMarker.length));
      else if (level === 'error' && devIds.some((id) => line.includes(id))) console.error(line);
    });
    await page.exposeFunction('codeAutomationExit', (code: number, logs?: { relativePath: string; contents: string }[]) => {
      for (const log of logs ?? []) {
        const file = path.join(outDir, 'workbench-logs', log.relativePath);
        if (!path.resolve(file).startsWith(path.join(outDir, 'workbench-logs'))) continue;
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, log.contents);
      }
      finish(code);
    });
    // Errors name where they came from (a webview resource that timed out says which one).
    page.on('console', (m) => consoleLog.push(`[${m.type()}] ${m.text()}${m.type() === 'error' && m.location().url ? ` (at ${m.location().url})` : ''}`));
    page.on('requestfailed', (r) => consoleLog.push(`[requestfailed] ${r.url()}: ${r.failure()?.errorText ?? '?'}`));
    page.on('response', (r) => {
      if (r.status() >= 400) consoleLog.push(`[response ${r.status()}] ${r.url()}`);
    });
    page.on('pageerror', (e) => consoleLog.push(`[pageerror] ${e.message}`));
    await page.goto(workbenchUrl(server, args), { timeout: 60_000 });
    console.log(`launcher: workbench open in ${((Date.now() - t0) / 1000).toFixed(1)} s (${restricted ? 'restricted' : 'trusted'} workspace)`);

    const timedOut = Symbol('timeout');
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      exitCode,
      new Promise<typeof timedOut>((resolve) => { timer = setTimeout(() => resolve(timedOut), timeoutMs); }),
    ]);
    clearTimeout(timer);
    if (result === timedOut) {
      const shot = path.join(outDir, 'timeout.png');
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.error(`launcher: the test suite did not finish within ${timeoutMs} ms (screenshot ${shot}; ` +
        `is the smoke-test driver on and the payload authority right?)`);
      return 1;
    }
    return result;
  } finally {
    writeFileSync(path.join(outDir, 'browser-console.log'), consoleLog.join('\n') + '\n');
    await browser?.close().catch(() => undefined);
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`launcher: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    process.exit(1);
  },
);
