// Regions that patch (issue 11, item 5): on a task with 16 attempts x 30 specs whose 2,000-step trajectory is open
// (a step selected, the list scrolled), (a) one label recorded from the review grid and (b) a push that changes one
// spec's text (the Specs tab open). For each: the DOM nodes added + removed (each with its subtree, seen by a
// MutationObserver over the page) outside what changed (the labelled cell; the changed spec), and the time from the
// host's push (`update` reaching the page) to painted (the first task after the next frame). The webview built from
// this tree and the one built from an older commit (`--before REV`, default 25ded4e: main when this work started),
// side by side in one run, over the harness with the real review host. Needs `node esbuild.js` first.
//   node --import tsx bench/webviewRegions.bench.ts [--before 25ded4e] [--n 15]
import type { Page } from 'playwright-core';
import { scaleFixture } from '../test/webview/harness/fixtures';
import { startBrowserHarness } from '../test/webview/harness/page';
import { buildOld } from './webviewOld';

const arg = (name: string, d: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? String(process.argv[i + 1]) : d;
};
const before = arg('before', '25ded4e');
const n = Number(arg('n', '15'));
// The focus moves attempt-major through the 400 cells drawn (25 specs of the first attempt before it moves on).
if (n + 3 > 22) throw new Error('at most --n 19: the focus would leave the first attempt\'s cells');
const QUERY = 'attempts=16&steps=2000&chars=100&specs=30&tests=30&review=real&ds=scale';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

interface Figure {
  /** Nodes added + removed outside the changed cell or spec. */
  outside: number;
  /** Nodes added + removed in all. */
  all: number;
  /** From the `update` message reaching the page to the first task after the next frame. */
  pushToPaint: number;
}

/**
 * In the page: runs `act` (a script), counts mutations until the `update` it causes has been painted; `changed` (a
 * script) finds the element whose nodes are allowed to change, `done` (a script) says the update has landed.
 */
const MEASURE = (act: string, changed: string, done: string): string => `(async () => {
  const size = (n) => { let k = 1; for (const c of n.childNodes) k += size(c); return k; };
  const records = [];
  const mo = new MutationObserver((rs) => records.push(...rs));
  mo.observe(document.body, { childList: true, subtree: true });
  let pushAt = 0;
  const onMessage = (e) => { if (e.data && e.data.type === 'update' && !pushAt) pushAt = performance.now(); };
  window.addEventListener('message', onMessage, true);
  ${act};
  const end = performance.now() + 15000;
  await new Promise((resolve, reject) => {
    const check = () => { if (pushAt && (${done})) resolve(); else if (performance.now() > end) reject(new Error('the update never landed')); else setTimeout(check, 0); };
    check();
  });
  const painted = await new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));
  window.removeEventListener('message', onMessage, true);
  records.push(...mo.takeRecords());
  mo.disconnect();
  const keep = ${changed};
  let all = 0, outside = 0;
  for (const r of records) for (const list of [r.addedNodes, r.removedNodes]) for (const n of list) {
    const k = size(n);
    all += k;
    const inside = keep && (keep === r.target || keep.contains(r.target) || n === keep);
    if (!inside) outside += k;
  }
  return { outside, all, pushToPaint: painted - pushAt };
})()`;

const LABEL = MEASURE(
  `const f = document.querySelector('[data-testid="review-cell"].focused'); window.__a = f.dataset.attempt; window.__s = f.dataset.spec;
   document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 's', bubbles: true, cancelable: true }))`,
  `[...document.querySelectorAll('[data-testid="review-cell"]')].find((c) => c.dataset.attempt === window.__a && c.dataset.spec === window.__s)`,
  `[...document.querySelectorAll('[data-testid="review-cell"]')].some((c) => c.dataset.attempt === window.__a && c.dataset.spec === window.__s && c.dataset.mine === 'satisfied')`,
);

const specs = scaleFixture(16, 2000, 100, { specs: 30, tests: 30 }).model.specs;
const SPEC = (i: number): string => {
  const text = `Spec S7, pushed again (${i}): the parser keeps what it must keep.`;
  const next = specs.map((s) => (s.id === 'S7' ? { ...s, text } : s));
  return MEASURE(
    `window.__fakeHost.update({ specs: ${JSON.stringify(next)} })`,
    `document.querySelector('[data-testid="spec"][data-spec="S7"]')`,
    `document.querySelector('[data-testid="spec"][data-spec="S7"] .spec-text')?.textContent === ${JSON.stringify(text)}`,
  );
};

async function openTrajectory(page: Page): Promise<void> {
  // The trajectory of the active attempt, scrolled into its middle, one step selected and shown in full.
  await page.locator('[data-testid="step-row"][data-step="0"]').waitFor();
  await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop = 22 * 1000`);
  await page.locator('[data-testid="step-row"][data-step="1005"]').click();
  await page.locator('[data-testid="step-detail-header"]').filter({ hasText: /^\S+ Step 1005/ }).waitFor();
}

async function run(label: string, dist?: string): Promise<{ labels: Figure[]; specs: Figure[] }> {
  const h = await startBrowserHarness(`bench-regions-${label}`, dist ? { dist } : {});
  try {
    const page = await h.open({ fixture: 'scale', query: QUERY, width: 1600, height: 1000 });
    await openTrajectory(page);
    await page.locator('[data-testid="specs-tab-review"]').click();
    await page.locator('[data-testid="review-grid"]').waitFor();
    for (let i = 0; i < 3; i++) await page.evaluate(LABEL);
    const labels: Figure[] = [];
    for (let i = 0; i < n; i++) labels.push((await page.evaluate(LABEL)) as Figure);
    await page.locator('[data-testid="specs-tab-specs"]').click();
    await page.locator('[data-testid="spec"][data-spec="S7"]').waitFor();
    for (let i = 0; i < 3; i++) await page.evaluate(SPEC(i));
    const specFigures: Figure[] = [];
    for (let i = 0; i < n; i++) specFigures.push((await page.evaluate(SPEC(100 + i))) as Figure);
    if (h.errors.length > 0) throw new Error(`${label}: ${h.errors.join('; ')}`);
    return { labels, specs: specFigures };
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const old = await buildOld(before);
  try {
    const b = await run('before', old.dist);
    const a = await run('after');
    const row = (name: string, f: Figure[]): string =>
      `${name.padEnd(22)} nodes outside the change median ${String(median(f.map((x) => x.outside))).padStart(6)}  (all ${String(median(f.map((x) => x.all))).padStart(6)})   push→painted median ${median(f.map((x) => x.pushToPaint)).toFixed(1).padStart(6)} ms  p95 ${p95(f.map((x) => x.pushToPaint)).toFixed(1).padStart(6)} ms`;
    const ratio = (bf: Figure[], af: Figure[], f: (x: Figure) => number): string => {
      const bv = median(bf.map(f));
      const av = median(af.map(f));
      return av === 0 ? `${bv} → 0` : `${(bv / av).toFixed(1)}x`;
    };
    console.log(`\n## 16 attempts x 30 specs, a 2,000-step trajectory open (Chromium, harness with the real review host), ${n} runs each`);
    console.log('one label recorded (review grid):');
    console.log(row(`  before (${before})`, b.labels));
    console.log(row('  after (this tree)', a.labels));
    console.log(`  ratio before/after: nodes outside ${ratio(b.labels, a.labels, (x) => x.outside)}, push→painted ${ratio(b.labels, a.labels, (x) => x.pushToPaint)}`);
    console.log('a push changing one spec\'s text (Specs tab):');
    console.log(row(`  before (${before})`, b.specs));
    console.log(row('  after (this tree)', a.specs));
    console.log(`  ratio before/after: nodes outside ${ratio(b.specs, a.specs, (x) => x.outside)}, push→painted ${ratio(b.specs, a.specs, (x) => x.pushToPaint)}`);
  } finally {
    old.cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
