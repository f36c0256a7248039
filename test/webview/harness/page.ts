// Opening the harness page in headless chromium, and the probes the webview tests share.
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { StepKindView, ViewCommand } from '../../../src/protocol/messages';
import { launchChromium } from '../../vscode/harness/browser';
import { RealReviewHost } from './realReview';
import { projectRoot, startHarness, type HarnessServer } from './server';

export const outputDir = path.join(projectRoot, '.test-output/webview');

/** What fakeHost.ts puts on window.__fakeHost. */
export interface FakeHostProbe {
  log: Array<{ method: string; params: Record<string, unknown> }>;
  invalid: string[];
  violations: string[];
  uiStates: Array<Record<string, unknown>>;
  setStateCalls: number;
  readies: number;
  requests(method: string): Array<{ method: string; params: Record<string, unknown> }>;
  command(c: ViewCommand): void;
  /** The model the page was last sent. */
  model(): Record<string, unknown>;
  update(patch: Record<string, unknown>): void;
  /** Starts the session over as the real host does when the task changed on disk: `init` without summaries, then `update`. */
  restart(): void;
  runningSearches(): number;
  /** The next search sends its first batch of hits, then holds the rest until releaseSearches. */
  holdNextSearch(): void;
  heldSearches(): number;
  /** Sends the held batches, a cancelled search's too (its late hits). */
  releaseSearches(): void;
  /** True when every message the page sent has been answered (no host work scheduled). */
  idle(): boolean;
  expectedCounts(pattern: string, regex: boolean, caseSensitive: boolean, kinds?: StepKindView[]): Record<string, number>;
  stepKind(column: string, i: number): string | undefined;
  countElements(): number;
  dangerous(): string[];
  resetState(): void;
}

export interface PageGlobals {
  __fakeHost: FakeHostProbe;
  __pwned?: unknown;
}

export interface Harness {
  server: HarnessServer;
  browser: Browser;
  /** Opens a fresh page on a fixture; console errors and page errors are collected in `errors`. */
  /** Opens the page and waits for the task title (unless `waitForTask` is false). */
  open(o?: { fixture?: 'standard' | 'hostile' | 'scale' | 'many'; query?: string; theme?: 'dark' | 'light' | 'hc'; width?: number; height?: number; waitForTask?: boolean }): Promise<Page>;
  errors: string[];
  /** The real review host behind a page opened with `review=real` (harness/realReview.ts). */
  realReview(page: Page): RealReviewHost | undefined;
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startBrowserHarness(suite: string, o: { dist?: string } = {}): Promise<Harness> {
  const server = await startHarness(o);
  const browser = await launchChromium();
  const dir = path.join(outputDir, suite);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const errors: string[] = [];
  let shots = 0;
  const reals = new Map<Page, RealReviewHost>();
  return {
    server,
    browser,
    errors,
    async open(o = {}) {
      const page = await browser.newPage({ viewport: { width: o.width ?? 1600, height: o.height ?? 1000 } });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      if (/(^|&)review=real(&|$)/.test(o.query ?? '')) {
        const q = new URLSearchParams(o.query);
        const n = (k: string, d: number) => Math.max(1, Math.min(1000, Number(q.get(k)) || d));
        const real = await RealReviewHost.create({ dataset: (['story', 'hostile', 'scale'] as const).find((d) => d === q.get('ds')) ?? 'ds', blind: q.get('blind') === '1', queue: q.get('queue') === '1', findings: q.get('findings') === '1', size: { attempts: n('attempts', 10), specs: n('specs', 40), tests: n('tests', 200) } });
        reals.set(page, real);
        page.on('close', () => real.dispose());
        await page.exposeBinding('__realReview', async (_source, method: string, params: string) => JSON.stringify(await real.handle(method, JSON.parse(params) as unknown)));
      }
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()}`);
      });
      await page.goto(`${server.url}/?fixture=${o.fixture ?? 'standard'}&theme=${o.theme ?? 'dark'}${o.query ? `&${o.query}` : ''}`);
      if (o.waitForTask !== false) await page.locator('[data-testid="task-title"]').waitFor({ timeout: 15_000 });
      return page;
    },
    realReview: (page) => reals.get(page),
    async shot(page, name) {
      shots++;
      await page.screenshot({ path: path.join(dir, `${String(shots).padStart(2, '0')}-${name}.png`) });
    },
    async close() {
      for (const r of reals.values()) r.dispose();
      await browser.close();
      await server.close();
    },
  };
}

/** Runs `fn` in the page with the harness globals typed. */
export function probe<T>(page: Page, fn: (g: PageGlobals) => T): Promise<T> {
  return page.evaluate(`(${fn.toString()})(window)`) as Promise<T>;
}

export const stepRow = (page: Page, step: number) => page.locator(`[data-testid="step-row"][data-step="${step}"]`);

/**
 * Waits until `fn` is true in the page. Polled from Node: page.waitForFunction compiles its predicate with eval,
 * which the page's CSP (rightly) forbids.
 */
export async function waitUntil(page: Page, fn: ((g: PageGlobals) => boolean) | string, timeout = 10_000): Promise<void> {
  const expr = typeof fn === 'string' ? fn : `(${fn.toString()})(window)`;
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(expr)) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${expr}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** A data-* attribute of every element a locator matches, in order. */
export async function dataOf(loc: Locator, key: string): Promise<Array<string | null>> {
  return Promise.all((await loc.all()).map((l) => l.getAttribute(`data-${key}`)));
}

/**
 * Runs `act` (a click, a key), then waits until the fake host has logged one more request of `method` than before,
 * and returns that request's params: a request is sent asynchronously, so reading the log right after the click
 * (or after the status line changed) can miss it.
 */
export async function nextRequest(page: Page, method: string, act: () => Promise<unknown>, timeout = 10_000): Promise<unknown> {
  const count = `window.__fakeHost.log.filter((l) => l.method === ${JSON.stringify(method)}).length`;
  const before = (await page.evaluate(count)) as number;
  await act();
  await waitUntil(page, `${count} > ${before}`, timeout);
  return page.evaluate(`window.__fakeHost.log.filter((l) => l.method === ${JSON.stringify(method)})[${before}].params`);
}

/** Waits for the status line to say something matching `re`. */
export async function waitForStatus(page: Page, re: RegExp): Promise<void> {
  await page.locator('[data-testid="status-line"]').filter({ hasText: re }).waitFor({ timeout: 10_000 });
}

/**
 * Waits until the fake host has answered everything the page sent, and the page sent nothing more: what a request
 * can still cause has happened. For "one press acts once" checks after host round trips.
 */
export async function hostSettled(page: Page, timeout = 10_000): Promise<void> {
  await waitUntil(page, (g) => g.__fakeHost.idle(), timeout);
}

/**
 * Waits until the page's own timer queue has passed `ms` from now: every timer the page had already scheduled to run
 * within `ms` (the search box's typing pause, the command echo window) has run by then, since timers run in the
 * order they fall due. The wait is on the page's event loop, not a guess about how fast the machine is; then the
 * host work those timers started is awaited too.
 */
export async function pageTimersPassed(page: Page, ms: number): Promise<void> {
  await page.evaluate(`new Promise((resolve) => setTimeout(resolve, ${Math.max(0, Math.floor(ms))}))`);
  await hostSettled(page);
}
