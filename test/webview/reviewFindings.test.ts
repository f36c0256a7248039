// The review agent's findings in the review grid, in Chromium, against the real review host (harness/realReview.ts,
// the story with a `review.findings` event on a1's current patch): a pair with a finding shows it as a suggestion
// (judgment, confidence, the candidate badge, the rationale as inert text, citations that open their place), never
// as a label; `y` accepts it as the curator's own label with the finding as evidence, `x` dismisses it; both read
// back from curation/events.jsonl.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { buildProbesView } from '../../src/core/view/probesView';
import { PWN } from './harness/fixtures';
import { nextRequest, probe, startBrowserHarness, waitForStatus, waitUntil, type Harness } from './harness/page';
import { PROBE_TASK, TASK_ID, cheatsReport, mutantsReport, variantsReport } from '../unit/probes/probeReportFixtures';
import type { RealReviewHost } from './harness/realReview';
import { FINDING_MARKUP } from './harness/realReview';

let h: Harness;

before(async () => {
  h = await startBrowserHarness('review-findings');
});

after(async () => {
  await h?.close();
});

const tid = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const cellOf = (page: Page, attempt: string, spec: string) => page.locator(`[data-testid="review-cell"][data-attempt="${attempt}"][data-spec="${spec}"]`);
const cellData = (attempt: string, spec: string, key: string) => `document.querySelector('[data-testid="review-cell"][data-attempt="${attempt}"][data-spec="${spec}"]')?.dataset.${key}`;

async function openStory(): Promise<{ page: Page; real: RealReviewHost }> {
  const page = await h.open({ query: 'review=real&ds=story&findings=1' });
  await probe(page, (g) => g.__fakeHost.resetState());
  await tid(page, 'specs-tab-review').click();
  await tid(page, 'review-grid').waitFor();
  return { page, real: h.realReview(page)! };
}

test('a pair with a finding shows it as a suggestion with its citations as links, never as a label', async () => {
  const { page, real } = await openStory();
  assert.equal(await cellOf(page, 'a1', 'S4').getAttribute('data-finding'), 'open');
  assert.match((await cellOf(page, 'a1', 'S4').textContent()) ?? '', /◇/);
  assert.equal(await cellOf(page, 'a2', 'S4').getAttribute('data-finding'), '', 'a2 has no finding');
  await cellOf(page, 'a1', 'S4').click();
  const f = tid(page, 'review-finding');
  await f.waitFor();
  assert.equal(await f.getAttribute('data-judgment'), 'violated');
  assert.equal(await f.getAttribute('data-state'), 'open');
  assert.equal(await tid(page, 'finding-candidate').textContent(), 'candidate FP');
  assert.match((await tid(page, 'finding-confidence').textContent()) ?? '', /82%/);
  // The model's text is hostile: markup shows as text and runs nothing.
  assert.ok(((await tid(page, 'finding-rationale').textContent()) ?? '').includes(FINDING_MARKUP));
  assert.equal(await page.locator('[data-testid="finding-rationale"] img, [data-testid="finding-rationale"] b').count(), 0);
  assert.equal(await probe(page, (g) => g.__pwned), undefined);
  const links = page.locator('[data-testid="finding-citations"] [data-testid="evidence-link"]');
  const runId = real.store.verifier('demo__parser-1234')?.attempts.a1?.runId;
  assert.deepEqual(await links.allTextContents(), ['step 12 of a1', 'hunk 0 of src/pkg/parser.py (a1)', 'test T2', `line 3 of run ${runId}`]);
  assert.match((await tid(page, 'finding-sentences').textContent()) ?? '', /request sentence 1/);
  assert.equal(await tid(page, 'finding-quote').textContent(), 'TRAILING_COMMA');
  // Not a label: the pair is unlabelled, nobody else's label came from it.
  assert.equal(await cellOf(page, 'a1', 'S4').getAttribute('data-mine'), '');
  assert.equal(await tid(page, 'review-mine').count(), 0);
  assert.equal(await page.locator('[data-testid="review-others"] [data-testid="other-label"]').count(), 0);

  // Citations open their place: the step in the trajectory, the hunk and the log line through openEvidence.
  await links.filter({ hasText: 'step 12 of a1' }).click();
  await page.locator('[data-testid="step-row"][data-step="12"].selected').waitFor();
  await links.filter({ hasText: 'hunk 0' }).click();
  await links.filter({ hasText: 'line 3' }).click();
  await waitUntil(page, (g) => g.__fakeHost.requests('openEvidence').length === 2);
  const opened = (await page.evaluate(`window.__fakeHost.requests('openEvidence')`)) as Array<{ params: { link: unknown } }>;
  assert.deepEqual(
    opened.map((r) => r.params.link),
    [
      { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'src/pkg/parser.py', hunk: 0 },
      { kind: 'log_line', run: runId, line: 3 },
    ],
  );
  await h.shot(page, 'finding-suggestion');
});

test('y accepts the finding as your own label with the finding as evidence; x dismisses one', async () => {
  const { page, real } = await openStory();
  await cellOf(page, 'a1', 'S4').click();
  await tid(page, 'review-finding').waitFor();
  // Focus on the grid, not a text field: the key is a command.
  await tid(page, 'review-grid').click({ position: { x: 2, y: 2 } });
  await cellOf(page, 'a1', 'S4').click();
  await page.keyboard.press('y');
  await waitUntil(page, `${cellData('a1', 'S4', 'mine')} === 'violated'`);
  await waitForStatus(page, /Accepted as your label: a1 × S4: violated/);
  const accepted = (await page.evaluate(`window.__fakeHost.requests('acceptFinding')`)) as Array<{ params: Record<string, unknown> }>;
  assert.equal(accepted.length, 1);
  const findingsId = accepted[0]?.params.findings as string;
  assert.deepEqual(accepted[0]?.params, { findings: findingsId, spec: 'S4' });
  const mine = real.mine();
  assert.equal(mine.length, 1);
  assert.equal(mine[0]?.kind, 'label', 'recorded as a label of the viewer');
  const runId = real.store.verifier('demo__parser-1234')?.attempts.a1?.runId;
  assert.deepEqual(mine[0]?.payload, {
    attempt: 'a1',
    spec: 'S4',
    verdict: 'violated',
    evidence: [
      { kind: 'finding', findings: findingsId, spec: 'S4' },
      { kind: 'trajectory_step', attempt: 'a1', step: 12 },
      { kind: 'diff_hunk', patch: 'attempt', attempt: 'a1', file: 'src/pkg/parser.py', hunk: 0 },
      { kind: 'test', test: 'T2' },
      { kind: 'log_line', run: runId, line: 3 },
    ],
  });
  await waitUntil(page, `${cellData('a1', 'S4', 'finding')} === 'accepted'`);
  assert.match((await cellOf(page, 'a1', 'S4').textContent()) ?? '', /◆/);
  // Back on the pair: the label is yours and shows the finding among its links; the finding says it is accepted.
  await cellOf(page, 'a1', 'S4').click();
  assert.match((await tid(page, 'review-mine').textContent()) ?? '', /yours: violated/);
  assert.deepEqual((await page.locator('[data-testid="evidence-editor"] [data-testid="evidence-link"]').allTextContents())[0], "review agent's finding on S4");
  assert.match((await tid(page, 'finding-status').textContent()) ?? '', /accepted: your label cites it/);
  assert.equal(await tid(page, 'finding-accept').count(), 0);

  // x on a1 × S1 dismisses its finding: a review.dismiss event, no label.
  await cellOf(page, 'a1', 'S1').click();
  assert.equal(await tid(page, 'review-finding').getAttribute('data-judgment'), 'satisfied');
  await page.keyboard.press('x');
  await waitUntil(page, `${cellData('a1', 'S1', 'finding')} === 'dismissed'`);
  const last = real.events().at(-1);
  assert.equal(last?.kind, 'review.dismiss');
  assert.equal(last?.curator, 'alice');
  assert.deepEqual(last?.payload, { findings: findingsId, spec: 'S1' });
  assert.equal(real.mine().filter((e) => e.kind === 'label').length, 1, 'dismissing labels nothing');
  assert.match((await tid(page, 'finding-status').textContent()) ?? '', /dismissed by alice/);
  assert.equal(await tid(page, 'finding-dismiss').count(), 0);

  // A pair without a finding: y says so and records nothing.
  await cellOf(page, 'a2', 'S3').click();
  await page.keyboard.press('y');
  await waitForStatus(page, /No finding of the review agent on a2 × S3/);
  assert.equal(real.events().at(-1)?.kind, 'review.dismiss');
  await h.shot(page, 'finding-accepted');
});

test('the buttons do what the keys do', async () => {
  const { page, real } = await openStory();
  await cellOf(page, 'a1', 'S4').click();
  await tid(page, 'finding-accept').click();
  await waitUntil(page, `${cellData('a1', 'S4', 'mine')} === 'violated'`);
  await cellOf(page, 'a1', 'S1').click();
  await tid(page, 'finding-dismiss').click();
  await waitUntil(page, `${cellData('a1', 'S1', 'finding')} === 'dismissed'`);
  assert.deepEqual(
    real.events().slice(-2).map((e) => [e.kind, e.curator]),
    [
      ['label', 'alice'],
      ['review.dismiss', 'alice'],
    ],
  );
});

test("a candidate finding shows the probes behind it, its spec's own first, each opening its diff; none says so", async () => {
  const { page } = await openStory();
  await cellOf(page, 'a1', 'S4').click();
  await tid(page, 'review-finding').waitFor();
  // No probe report yet: the finding says nothing backs it.
  assert.equal(await tid(page, 'finding-probes').getAttribute('data-backed'), 'false');
  assert.match((await tid(page, 'finding-probes').textContent()) ?? '', /No probe backs this candidate yet \(a surviving gold mutant or variant, or a passing exploit would\)/);

  // The probes section sends its reports: a variant meant to violate S4 survived, a gold mutant survived, an exploit passed.
  const EVIL = `<img src=x onerror="${PWN}">`;
  const variants = variantsReport(EVIL);
  variants.variants = variants.variants.map((v) => (v.outcome === 'survived' ? { ...v, spec: 'S4' } : v));
  const json = (o: object) => JSON.stringify(o);
  const file = (n: string) => `probes/${TASK_ID}/${n}`;
  const probes = buildProbesView(
    { ...PROBE_TASK, specs: [{ id: 'S4' }] as never },
    {
      mutants: { file: file('mutants.json'), text: json(mutantsReport(EVIL)) },
      cheats: { file: file('cheats.json'), text: json(cheatsReport(EVIL)) },
      alternatives: { file: file('alternatives.json') },
      variants: { file: file('variants.json'), text: json(variants) },
      fullSuite: { file: file('full-suite.json') },
    },
  );
  await page.evaluate((p) => (globalThis as unknown as { __fakeHost: { update(p: unknown): void } }).__fakeHost.update({ probes: p }), probes);
  await page.locator('[data-testid="finding-probes"][data-backed="spec"]').waitFor();
  const items = page.locator('[data-testid="finding-probe"]');
  assert.deepEqual(
    await items.evaluateAll((els) => els.map((e) => [e.getAttribute('data-report'), e.getAttribute('data-scope')])),
    [
      ['variants', 'spec'],
      ['mutants', 'task'],
      ['cheats', 'task'],
    ],
  );
  assert.match((await items.first().textContent()) ?? '', /variant meant to violate S4 survived: rounds halves to even<img src=x onerror=/);
  assert.equal(await page.locator('[data-testid="finding-probes"] img').count(), 0, 'a model summary stays text');
  const params = await nextRequest(page, 'openProbeDiff', () => items.first().locator('[data-testid="probe-open-diff"]').click());
  assert.deepEqual(params, { report: 'variants', id: 'var-A2-0000000002' });
  assert.equal(await probe(page, (g) => g.__pwned), undefined);
  await h.shot(page, 'finding-probes');
});
