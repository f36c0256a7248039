// A verdict key in the review grid of a task with 16 attempts x 30 specs (the figure): the time from the key
// to the updated cell (its verdict on screen, after the host's `update`), and the DOM nodes replaced per key (nodes
// added + removed, each counted with its subtree, seen by a MutationObserver), for the webview built from this tree
// and for the one built from an older commit (`--before REV`, default c42285d: a git worktree in a temp dir, bundled
// with the same esbuild settings), side by side in one run. The harness's real review host answers (the
// extension's ReviewActions over a real store on the `scale` dataset, 16 x 30: test/webview/harness/realReview.ts), so
// key→cell includes its append and fsync; "webview work" is the webview's own part. Needs `node esbuild.js` first.
//   node --import tsx bench/webviewReview.bench.ts [--before c42285d] [--keys 22]
import type { Page } from 'playwright-core';
import { startBrowserHarness } from '../test/webview/harness/page';
import { buildOld } from './webviewOld';

const arg = (name: string, d: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? String(process.argv[i + 1]) : d;
};
const before = arg('before', 'c42285d');
const keys = Number(arg('keys', '22'));
const QUERY = 'fixture=scale&attempts=16&steps=50&chars=100&specs=30&tests=30&review=real&ds=scale';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

interface KeyFigure {
  /** Key to the cell showing the verdict (with the harness host's own work and its setTimeout hops). */
  ms: number;
  /** The webview's own work in that time: the key's handler and render, and its handling of the host's messages. */
  work: number;
  /** Nodes added + removed (with their subtrees) between the key and the updated cell. */
  nodes: number;
  /** Of those, inside the review grid. */
  gridNodes: number;
  /** Cells of the grid whose element was replaced. */
  cellsReplaced: number;
}

/** Presses `s` on the focused pair and waits for its cell to show the verdict, in the page. */
const PRESS = `(async () => {
  const focused = document.querySelector('[data-testid="review-cell"].focused');
  if (!focused) throw new Error('no focused cell');
  const a = focused.dataset.attempt, s = focused.dataset.spec;
  const find = () => [...document.querySelectorAll('[data-testid="review-cell"]')].find((c) => c.dataset.attempt === a && c.dataset.spec === s);
  const grid = document.querySelector('[data-testid="review-grid"]');
  let nodes = 0, gridNodes = 0, cellsReplaced = 0;
  const size = (n) => { let k = 1; for (const c of n.childNodes) k += size(c); return k; };
  const inGrid = (t) => t === grid || (grid && grid.contains(t)) || (t instanceof Element && t.closest('[data-testid="review-grid"]') !== null);
  const count = (records) => {
    for (const r of records) {
      for (const list of [r.addedNodes, r.removedNodes]) for (const n of list) {
        const k = size(n);
        nodes += k;
        if (inGrid(r.target)) gridNodes += k;
        else if (n instanceof Element) for (const g of n.querySelectorAll('[data-testid="review-grid"]')) gridNodes += size(g);
        if (n instanceof Element && (n.matches('[data-testid="review-cell"]') || n.querySelector('[data-testid="review-cell"]'))) cellsReplaced += n.matches('[data-testid="review-cell"]') ? 1 : n.querySelectorAll('[data-testid="review-cell"]').length;
      }
    }
  };
  if (!window.__busy) {
    // The webview's own work on each host message: from a capture listener (first) to a listener added after the
    // app's (last; the app's queued renders run in between, as microtasks).
    window.__busy = { ms: 0, start: 0 };
    window.addEventListener('message', () => (window.__busy.start = performance.now()), true);
    window.addEventListener('message', () => (window.__busy.ms += performance.now() - window.__busy.start));
  }
  const mo = new MutationObserver(count);
  mo.observe(document.body, { childList: true, subtree: true });
  window.__busy.ms = 0;
  const t0 = performance.now();
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 's', bubbles: true, cancelable: true }));
  await null;
  const keyMs = performance.now() - t0;
  const ms = await new Promise((resolve, reject) => {
    const end = t0 + 10000;
    const check = () => {
      const c = find();
      if (c && c.dataset.mine === 'satisfied') return resolve(performance.now() - t0);
      if (performance.now() > end) return reject(new Error('the cell never showed the verdict'));
      setTimeout(check, 0);
    };
    const watch = new MutationObserver(() => {
      const c = find();
      if (c && c.dataset.mine === 'satisfied') { watch.disconnect(); resolve(performance.now() - t0); }
    });
    watch.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-mine'] });
    check();
  });
  // Let the render that follows in the same turn (and queued microtasks) land before counting.
  await new Promise((r) => setTimeout(r, 0));
  count(mo.takeRecords());
  mo.disconnect();
  return { ms, work: keyMs + window.__busy.ms, nodes, gridNodes, cellsReplaced };
})()`;

async function measure(page: Page): Promise<KeyFigure[]> {
  await page.locator('[data-testid="specs-tab-review"]').click();
  await page.locator('[data-testid="review-grid"]').waitFor();
  // The grid draws its first 400 cells (25 specs x 16 attempts) before the curator asks for all 480; the old build
  // forgets "show all" on the next update, so both are measured on the first 400, and the keys stay inside them
  // (the focus moves attempt-major: a1 x S1, S2, ...).
  const cells = await page.locator('[data-testid="review-cell"]').count();
  if (cells !== 400) throw new Error(`expected 400 cells, found ${cells}`);
  if (keys + 3 > 25) throw new Error('at most 22 keys: the focus would leave the cells drawn');
  // Warm up: the first labels compile the code paths.
  for (let i = 0; i < 3; i++) await page.evaluate(PRESS);
  const out: KeyFigure[] = [];
  for (let i = 0; i < keys; i++) out.push((await page.evaluate(PRESS)) as KeyFigure);
  return out;
}

async function run(label: string, dist?: string): Promise<KeyFigure[]> {
  const h = await startBrowserHarness(`bench-review-${label}`, dist ? { dist } : {});
  try {
    const page = await h.open({ fixture: 'scale', query: QUERY.replace('fixture=scale&', ''), width: 1600, height: 1000 });
    const figures = await measure(page);
    if (h.errors.length > 0) throw new Error(`${label}: ${h.errors.join('; ')}`);
    return figures;
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const old = await buildOld(before);
  try {
    const b = await run('before', old.dist);
    const a = await run('after');
    const row = (name: string, f: KeyFigure[]): string =>
      `${name.padEnd(22)} key→cell median ${median(f.map((x) => x.ms)).toFixed(1).padStart(6)} ms  p95 ${p95(f.map((x) => x.ms)).toFixed(1).padStart(6)} ms   webview work median ${median(f.map((x) => x.work)).toFixed(1).padStart(6)} ms  p95 ${p95(f.map((x) => x.work)).toFixed(1).padStart(6)} ms   nodes replaced median ${String(median(f.map((x) => x.nodes))).padStart(6)}  in the grid ${String(median(f.map((x) => x.gridNodes))).padStart(5)}  cells replaced ${String(median(f.map((x) => x.cellsReplaced))).padStart(4)}`;
    console.log(`\n## a verdict key in the review grid, 16 attempts x 30 specs (480 pairs, the first 400 cells drawn), ${keys} keys each (Chromium, harness host)`);
    console.log(row(`before (${before})`, b));
    console.log(row('after (this tree)', a));
    const ratio = (f: (x: KeyFigure) => number): string => {
      const bv = median(b.map(f));
      const av = median(a.map(f));
      return av === 0 ? `${bv} → 0` : `${(bv / av).toFixed(1)}x`;
    };
    console.log(`ratio before/after: key→cell ${ratio((x) => x.ms)}, webview work ${ratio((x) => x.work)}, nodes replaced ${ratio((x) => x.nodes)}, grid nodes ${ratio((x) => x.gridNodes)}`);
  } finally {
    old.cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
