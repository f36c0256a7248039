// UI end-to-end harness: the PACKAGED extension (dist-pkg/specweave-curator.vsix) installed into a fresh code-server,
// its workbench opened in headless chromium, and helpers for the parts of the workbench the tests click.
// One workbench per test file: start it in `before`, close it in `after`.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchChromium } from '../vscode/harness/browser';
import { projectRoot, startCodeServer } from '../vscode/harness/codeServer';
import type { CodeServer } from '../vscode/harness/codeServer';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';

export const extensionId = 'specweave.specweave-curator';
export const vsixPath = path.join(projectRoot, 'dist-pkg/specweave-curator.vsix');
export const e2eOutputRoot = path.join(projectRoot, '.test-output/e2e');

export interface WorkbenchOptions {
  /** Names the output folder .test-output/e2e/<testName>/ (screenshots, server and browser logs). */
  testName: string;
  /** Folder to open. It is copied first (tests may write to it); omitted: a fresh empty folder. */
  workspace?: string;
  /** Open the real folder instead of a copy. */
  inPlace?: boolean;
  /** Writes into the workspace before the server starts (so `workspaceContains` activation sees it). */
  prepareWorkspace?: (workspace: string) => void;
  /** false opens the workspace untrusted (restricted mode). Default true. */
  trusted?: boolean;
  /** User settings over the fresh-profile ones. */
  settings?: Record<string, unknown>;
  /** The packaged extension to install. Default dist-pkg/specweave-curator.vsix. */
  vsix?: string;
  /** Added to code-server's (and so the extension host's) environment. */
  env?: Record<string, string>;
}

export interface Workbench {
  readonly page: Page;
  readonly server: CodeServer;
  /** The folder the workbench has open. */
  readonly workspace: string;
  /** Where the packaged extension was installed (its files as the workbench loads them). */
  readonly extensionsDir: string;
  /** .test-output/e2e/<testName>/ */
  readonly outDir: string;
  /** Saves NN-name.png (NN counts up per workbench) under outDir and returns its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

function checkVsix(vsix: string): void {
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` before the e2e tests`);
  const built = path.join(projectRoot, 'dist/extension.js');
  if (existsSync(built) && statSync(built).mtimeMs > statSync(vsix).mtimeMs + 1_000) {
    console.warn(`warning: ${path.relative(projectRoot, vsix)} is older than dist/extension.js; \`npm run package\` to test the current code`);
  }
}

export async function openWorkbench(o: WorkbenchOptions): Promise<Workbench> {
  const vsix = o.vsix ?? vsixPath;
  checkVsix(vsix);
  const outDir = path.join(e2eOutputRoot, o.testName.replace(/[^\w.-]+/g, '-'));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // Short paths under the temp dir: code-server puts a unix socket (107 bytes at most) in the user data dir.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-'));
  let workspace = path.join(tmp, 'workspace');
  if (o.workspace && o.inPlace) workspace = path.resolve(o.workspace);
  else if (o.workspace) cpSync(path.resolve(o.workspace), workspace, { recursive: true });
  else mkdirSync(workspace);
  o.prepareWorkspace?.(workspace);

  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  const cleanUp = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    server = await startCodeServer({
      userDataDir: path.join(tmp, 'ud'),
      extensionsDir: path.join(tmp, 'ext'),
      workspace,
      logFile: path.join(outDir, 'code-server.log'),
      trustWorkspace: o.trusted ?? true,
      installExtensions: [vsix],
      ...(o.settings ? { settings: o.settings } : {}),
      ...(o.env ? { env: o.env } : {}),
    });
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The status bar fills in once the extension host has connected; before that, commands are not registered.
    await page.locator('.statusbar').waitFor({ timeout: 30_000 });
    await page.locator('.activitybar .action-item').first().waitFor({ timeout: 30_000 });

    let shots = 0;
    return {
      page,
      server,
      workspace,
      extensionsDir: path.join(tmp, 'ext'),
      outDir,
      async screenshot(name: string): Promise<string> {
        shots += 1;
        const file = path.join(outDir, `${String(shots).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '-')}.png`);
        await page.screenshot({ path: file });
        return file;
      },
      async close(): Promise<void> {
        writeFileSync(path.join(outDir, 'browser-console.log'), consoleLines.join('\n') + '\n');
        await browser?.close().catch(() => undefined);
        await server?.stop();
        // The extension host's logs (output channels included) outlive the run, for a test that failed.
        const logs = path.join(tmp, 'ud', 'logs');
        if (existsSync(logs)) cpSync(logs, path.join(outDir, 'logs'), { recursive: true });
        await cleanUp();
      },
    };
  } catch (e) {
    await cleanUp();
    throw e;
  }
}

/**
 * Runs a command through the command palette (F1) by the label the palette shows, e.g. "View: Toggle Panel".
 * Retried: right after start-up the workbench may still move focus and close the palette under us.
 */
export async function runCommand(page: Page, label: string, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}`) }).first();
  for (;;) {
    try {
      await page.keyboard.press('F1');
      const input = quickInput(page);
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      // Every step has its own short timeout, so a palette closed under us (focus moving into a webview that was just
      // clicked) is opened again by the next round; without one, fill waited the whole deadline for a closed palette.
      await input.fill(`>${label}`, { timeout: 5_000 });
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      await row.click({ timeout: 5_000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`command "${label}" not found in the palette: ${e instanceof Error ? e.message : String(e)}`);
      await page.keyboard.press('Escape');
      // The next round starts once the palette has closed, not after a guessed pause.
      await quickInput(page).waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }
}

/** The command palette / quick pick input box. */
export function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget input');
}

/** Opens a view container from the activity bar by its title (e.g. "SpecWeave", "Extensions"). */
export async function openActivity(page: Page, title: string): Promise<void> {
  const entry = activityEntry(page, title);
  await entry.waitFor({ state: 'visible' });
  // A click on the already-open container would close its side bar.
  const checked = await entry.getAttribute('aria-checked').catch(() => null);
  const expanded = await entry.getAttribute('aria-expanded').catch(() => null);
  if (checked !== 'true' && expanded !== 'true') await entry.click();
}

export function activityEntry(page: Page, title: string): Locator {
  return page.locator(`.activitybar [aria-label^="${cssString(title)}"]`).first();
}

/** Rows of the trees and lists in `scope` (default the whole page), optionally those containing `text`. */
export function treeRows(scope: Page | Locator, text?: string | RegExp): Locator {
  const rows = scope.locator('.monaco-list-row');
  return text === undefined ? rows : rows.filter({ hasText: text });
}

/** A view pane in the side bar, found by its header title. */
export function viewPane(page: Page, title: string): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) }).first();
}

/**
 * The HTML document inside one of this extension's webviews: the host iframe (`iframe.webview.ready` carrying the
 * extension id), then its `iframe#active-frame`. `kind: 'view'` picks a sidebar webview view, 'panel' an editor panel.
 * Playwright locators on it pierce open shadow DOM, so @vscode-elements components click normally.
 */
export function webviewFrame(page: Page, kind: 'panel' | 'view' | 'any' = 'any', id = extensionId): FrameLocator {
  let outer = `iframe.webview.ready[src*="extensionId=${id}"]`;
  if (kind === 'view') outer += '[src*="purpose=webviewView"]';
  if (kind === 'panel') outer += ':not([src*="purpose=webviewView"])';
  return page.frameLocator(outer).first().frameLocator('iframe#active-frame');
}

/**
 * An attempt's full card in the task view's attempts region (its files, Patch, verdict), whichever form the cards
 * take: side by side, every card is full; compact (the cards do not fit the editor's width), only the active
 * attempt's is, so its small card is clicked first. `id` is the column's id, or with `prefix` its start.
 */
export async function attemptColumn(view: FrameLocator, id: string, o: { prefix?: boolean; timeout?: number } = {}): Promise<Locator> {
  const match = `[data-column${o.prefix ? '^' : ''}="${id}"]`;
  const full = view.locator(`[data-testid="attempts"] .column${match}`).first();
  const small = view.locator(`[data-testid="attempt-card"]${match}`).first();
  await full.or(small).first().waitFor({ timeout: o.timeout ?? 30_000 });
  if (!(await full.isVisible())) {
    await small.click();
    await view.locator(`[data-testid="attempt-card"].active${match}`).first().waitFor();
  }
  await full.waitFor();
  return full;
}

/** Where an attempt shows in the attempts region: its full card or its compact one. */
export function attemptShown(view: FrameLocator, id: string): Locator {
  return view.locator(`[data-testid="attempts"] [data-column="${id}"]`);
}

/** The notification toasts; `text` narrows to the ones containing it. */
export function notifications(page: Page, text?: string | RegExp): Locator {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  return text === undefined ? toasts : toasts.filter({ hasText: text });
}

export async function waitForNotification(page: Page, text: string | RegExp, timeout = 15_000): Promise<Locator> {
  const toast = notifications(page, text).first();
  await toast.waitFor({ state: 'visible', timeout });
  return toast;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/**
 * Points the workbench at an OpenAI-protocol endpoint through the workspace's settings (the endpoint settings are
 * machine-overridable, which a remote window takes from the machine or the workspace, not from user settings).
 */
export function writeEndpointSettings(workspace: string, baseUrl: string, model = 'gpt-4o-mini'): void {
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'specweave.repair.baseUrl': baseUrl, 'specweave.repair.model': model }, null, 2));
}

/** Stores the API key through "SpecWeave: Set API Key" in the command palette and waits for its confirmation. */
export async function setApiKey(page: Page, key: string): Promise<void> {
  await runCommand(page, 'SpecWeave: Set API Key');
  const input = quickInput(page);
  await input.waitFor();
  await input.fill(key);
  await input.press('Enter');
  await waitForNotification(page, /API key is stored/);
}
