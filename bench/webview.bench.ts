// The task view webview on its own (the standalone harness: production CSP, the built bundle, the in-page fake
// host answering instantly, so only the webview's work is measured): first paint and the DOM size while scrolling,
// for a small task and for the big one (10 attempts x 10,000 steps of ~500 characters, i.e. 5 MB each),
// side by side in one run. Needs `node esbuild.js` first.
//   node --import tsx bench/webview.bench.ts [--runs 5] [--jumps 60]
import type { Page } from 'playwright-core';
import { probe, startBrowserHarness } from '../test/webview/harness/page';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const runs = arg('runs', 5);
const jumps = arg('jumps', 60);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

interface Config {
  name: string;
  query: string;
  steps: number;
}
const configs: Config[] = [
  { name: '1 attempt x 100 steps', query: 'attempts=1&steps=100&chars=500', steps: 100 },
  { name: '10 attempts x 10,000 steps (5 MB each)', query: 'attempts=10&steps=10000&chars=500', steps: 10_000 },
];

interface Marks {
  script: number;
  init: number;
  rendered: number;
  firstSteps: number;
}

async function paint(h: Awaited<ReturnType<typeof startBrowserHarness>>, c: Config): Promise<{ rows: number; marks: Marks; page: Page }> {
  const page = await h.browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const t0 = Date.now();
  await page.goto(`${h.server.url}/?fixture=scale&${c.query}`);
  await page.locator('[data-testid="step-row"][data-step="0"]').waitFor();
  const rows = Date.now() - t0;
  // Milliseconds since navigation start, from the page's own clock: when the bundle started running, when `init`
  // arrived, when the regions were built, when the first steps were on screen.
  const marks = (await page.evaluate(`(() => {
    const m = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
    const script = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/dist/webview.js'))?.responseEnd ?? NaN;
    return { script, init: m('specweave.init'), rendered: m('specweave.rendered'), firstSteps: m('specweave.firstSteps') };
  })()`)) as Marks;
  return { rows, marks, page };
}

async function scroll(page: Page, steps: number): Promise<{ perJump: number[]; most: number }> {
  const perJump: number[] = [];
  let most = await probe(page, (g) => g.__fakeHost.countElements());
  let seed = 7;
  for (let i = 0; i < jumps; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const target = seed % steps;
    const t0 = Date.now();
    await page.evaluate(`document.querySelector('[data-testid="trajectory-list"]').scrollTop = ${target * 22}`);
    await page.locator(`[data-testid="step-row"][data-step="${target}"]:not(.loading)`).waitFor();
    perJump.push(Date.now() - t0);
    most = Math.max(most, await probe(page, (g) => g.__fakeHost.countElements()));
  }
  return { perJump, most };
}

async function main(): Promise<void> {
  const h = await startBrowserHarness('bench');
  try {
    const rows: Record<string, number[]> = {};
    const build: Record<string, number[]> = {};
    const steps: Record<string, number[]> = {};
    const boot: Record<string, number[]> = {};
    const scrolls: Record<string, { perJump: number[]; most: number }> = {};
    for (let r = 0; r < runs; r++) {
      for (const c of configs) {
        const p = await paint(h, c);
        (rows[c.name] ??= []).push(p.rows);
        (build[c.name] ??= []).push(p.marks.rendered - p.marks.init);
        (steps[c.name] ??= []).push(p.marks.firstSteps - p.marks.init);
        (boot[c.name] ??= []).push(p.marks.init - p.marks.script);
        if (r === 0) scrolls[c.name] = await scroll(p.page, c.steps);
        await p.page.close();
      }
    }
    const [small, big] = configs.map((c) => c.name) as [string, string];
    console.log(`webview harness, ${runs} runs (median), ${jumps} random scroll jumps per trajectory`);
    const f = (x: number) => `${x.toFixed(0)} ms`;
    console.log('| task | bundle loaded -> init | init -> regions built | init -> first steps | navigation -> first steps (wall) | scroll jump median / p95 | most elements while scrolling |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const c of configs) {
      const s = scrolls[c.name]!;
      console.log(`| ${c.name} | ${f(median(boot[c.name]!))} | ${f(median(build[c.name]!))} | ${f(median(steps[c.name]!))} | ${f(median(rows[c.name]!))} | ${median(s.perJump)} / ${p95(s.perJump)} ms | ${s.most} |`);
    }
    console.log(
      `ratios big / small: init -> first steps ${(median(steps[big]!) / median(steps[small]!)).toFixed(2)}, most elements ${(scrolls[big]!.most / scrolls[small]!.most).toFixed(2)}, for ${(10_000 * 10) / 100}x the steps`,
    );
    if (h.errors.length > 0) console.log('page errors:', h.errors);
  } finally {
    await h.close();
  }
}

void main();
