// Issue 13's workbench test, on the packaged .vsix in code-server: "accept a finding with one key and see it recorded
// as your label with the finding as evidence". A copy of the example dataset gets a `review.findings` event in its
// review log, written by another process the way the review agent writes it (the review log adapter: id, time,
// checksum), for format-precision's sweagent-gpt-4o at its current patch (SHA-256 of the patch bytes): A2 violated
// (the known false positive: Python's round() rounds halves to even) and A1 satisfied. In the workbench the task is
// opened from the tree, review mode started, the focus moved to the pair, the suggestion read (judgment, candidate
// badge, rationale, citations), `y` pressed: curation/events.jsonl gets a `label` by the configured curator, verdict
// violated, with the finding as its first evidence link. `x` on the other finding writes a `review.dismiss` and no
// label. Every wait is for a DOM state or the log's contents.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { ReviewLog } from '../../src/adapters/fs/reviewLog';
import type { FindingsPayload } from '../../src/core/findings/model';
import { projectRoot } from '../vscode/harness/codeServer';
import { openActivity, openWorkbench, runCommand, treeRows, webviewFrame } from './harness';
import type { Workbench } from './harness';

/**
 * Starts watching `dir` (created when missing) now; `changed` resolves at its next change, or after `ms` at most (the
 * caller looks once more and reports). Started before a look, so a change during the look is not missed.
 */
function watchChange(dir: string, ms: number): { changed: Promise<void>; stop(): void } {
  fs.mkdirSync(dir, { recursive: true });
  const ac = new AbortController();
  const events = fs.promises.watch(dir, { signal: AbortSignal.any([ac.signal, AbortSignal.timeout(ms)]) })[Symbol.asyncIterator]();
  const changed = events.next().then(
    () => ac.abort(),
    () => undefined,
  );
  return { changed, stop: () => ac.abort() };
}

const CURATOR = 'Ada Curator';
const TASK = 'format-precision';
const ATTEMPT = 'sweagent-gpt-4o';
// The model's text is hostile: markup in it must show as text in the workbench too.
const RATIONALE = 'format_duration uses round(), which rounds <b>halves to even</b>: 150 s at minute precision prints 2m, the request says halves round up (3m).<img src=x onerror="document.title=1">';
const QUOTE = 'rounded = round(seconds / step) * step';

interface LogLine {
  id: string;
  kind: string;
  task: string;
  revision: number;
  curator: string;
  payload: Record<string, unknown>;
}

describe('review agent findings in the workbench', { timeout: 600_000 }, () => {
  let wb: Workbench | undefined;
  let top = '';
  let dataset = '';
  let findingsId = '';

  const log = (): LogLine[] => {
    const file = path.join(dataset, 'curation', 'events.jsonl');
    if (!fs.existsSync(file)) return [];
    // A line being appended may be cut short: only whole lines count.
    const text = fs.readFileSync(file, 'utf8');
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as LogLine);
  };
  /** The log once `ready` holds for it (polled until the deadline; the workbench writes it from another process). */
  const logWhen = async (what: string, ready: (lines: LogLine[]) => boolean, timeout = 30_000): Promise<LogLine[]> => {
    const end = Date.now() + timeout;
    for (;;) {
      // The next look is when the log's folder changes (the workbench appends to it), or at the deadline.
      const watch = watchChange(path.join(dataset, 'curation'), Math.max(1, end - Date.now()));
      const lines = log();
      if (ready(lines)) {
        watch.stop();
        return lines;
      }
      if (Date.now() > end) {
        watch.stop();
        throw new Error(`the review log did not show ${what} within ${timeout} ms; it has ${lines.map((l) => l.kind).join(', ')}`);
      }
      await watch.changed;
    }
  };
  const frame = (): FrameLocator => webviewFrame(wb!.page, 'panel');
  const tid = (id: string) => frame().locator(`[data-testid="${id}"]`);
  const cell = (spec: string, extra = '') => frame().locator(`[data-testid="review-cell"][data-attempt="${ATTEMPT}"][data-spec="${spec}"]${extra}`);

  before(async () => {
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-findings-'));
    dataset = path.join(top, 'dataset');
    // The example dataset as it is in git: no verifier runs, no review log (findings and labels need neither).
    fs.cpSync(path.join(projectRoot, 'examples', 'dataset'), dataset, {
      recursive: true,
      filter: (src) => !/[\\/](runs|curation)([\\/]|$)/.test(path.relative(path.join(projectRoot, 'examples', 'dataset'), src)),
    });
    const patch = fs.readFileSync(path.join(dataset, 'tasks', TASK, 'attempts', ATTEMPT, 'patch.diff'));
    const payload: FindingsPayload = {
      attempt: ATTEMPT,
      patchHash: createHash('sha256').update(patch).digest('hex'),
      model: 'gpt-review-e2e',
      promptVersion: 'review-1',
      promptHash: 'cd'.repeat(32),
      promptTokens: 5210,
      completionTokens: 640,
      findings: [
        { spec: 'A1', judgment: 'satisfied', confidence: 0.9, rationale: 'precision="m" is accepted and defaults to seconds.', citations: [{ kind: 'test', test: 'TA1' }] },
        {
          spec: 'A2',
          judgment: 'violated',
          confidence: 0.82,
          rationale: RATIONALE,
          candidate: 'false_positive',
          citations: [
            { kind: 'diff_hunk', file: 'durations/format.py', hunk: 0, quote: QUOTE },
            { kind: 'test', test: 'TA1' },
          ],
        },
      ],
      dropped: [],
    };
    // Written as the review agent writes it (another process, through the log adapter: id, time and checksum).
    const [ev] = await ReviewLog.forDataset(dataset).append([{ kind: 'review.findings', task: TASK, revision: 1, curator: 'review-agent', payload }]);
    assert.ok(ev, 'the findings event was written');
    findingsId = ev.id;
    wb = await openWorkbench({ testName: 'findings', workspace: top, inPlace: true, settings: { 'specweave.curator.name': CURATOR } });
  });

  after(async () => {
    await wb?.close();
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it('shows the finding as a suggestion in review mode, never as a label', async () => {
    assert.ok(wb);
    const { page } = wb;
    await openActivity(page, 'SpecWeave');
    await treeRows(page, TASK).first().waitFor({ timeout: 60_000 });
    await treeRows(page, TASK).first().click();
    await tid('task-title').waitFor({ timeout: 60_000 });
    await runCommand(page, 'SpecWeave: Start Review Mode');
    await tid('review-mode').waitFor({ timeout: 30_000 });
    assert.match((await tid('task-id').textContent()) ?? '', new RegExp(`^${TASK} `));
    assert.match((await tid('review-curator').textContent()) ?? '', /Ada Curator/);
    // Review mode focuses a pair; the grid is on the Review tab.
    await tid('specs-tab-review').click();
    await tid('review-grid').waitFor({ timeout: 15_000 });
    // The grid marks both pairs as having an open finding, and neither as labelled.
    await cell('A2', '[data-finding="open"]').waitFor({ timeout: 30_000 });
    assert.equal(await cell('A1').getAttribute('data-finding'), 'open');
    assert.equal(await cell('A2').getAttribute('data-mine'), '');
    // Move to the pair.
    await cell('A2').click();
    await cell('A2', '.focused').waitFor({ timeout: 15_000 });
    const f = tid('review-finding');
    await frame().locator(`[data-testid="review-finding"][data-findings="${findingsId}"][data-judgment="violated"][data-state="open"]`).waitFor({ timeout: 15_000 });
    assert.equal(await tid('finding-judgment').textContent(), 'violated');
    assert.equal(await tid('finding-candidate').textContent(), 'candidate FP');
    assert.match((await tid('finding-confidence').textContent()) ?? '', /82%/);
    assert.equal(await tid('finding-rationale').textContent(), RATIONALE);
    assert.equal(await frame().locator('[data-testid="finding-rationale"] b, [data-testid="finding-rationale"] img').count(), 0, 'the rationale is inert text');
    assert.deepEqual(await frame().locator('[data-testid="finding-citations"] [data-testid="evidence-link"]').allTextContents(), [`hunk 0 of durations/format.py (${ATTEMPT})`, 'test TA1']);
    assert.equal(await tid('finding-quote').textContent(), QUOTE);
    assert.match((await tid('finding-status').textContent()) ?? '', /a suggestion, not a label/);
    assert.equal(await f.count(), 1);
    assert.equal(await tid('review-mine').count(), 0, 'no label of yours on the pair');
    assert.deepEqual(
      log().map((e) => e.kind),
      ['review.findings'],
      'opening and reading record nothing',
    );
    await wb.screenshot('finding-suggested');
  });

  it('y accepts the finding: your label, verdict violated, with the finding as evidence, in the log', async () => {
    assert.ok(wb);
    await cell('A2', '.focused').press('y');
    const lines = await logWhen('a label', (l) => l.some((e) => e.kind === 'label'));
    const labels = lines.filter((e) => e.kind === 'label');
    assert.equal(labels.length, 1, 'one key, one label');
    const label = labels[0]!;
    assert.deepEqual([label.task, label.revision, label.curator], [TASK, 1, CURATOR]);
    assert.deepEqual(label.payload, {
      attempt: ATTEMPT,
      spec: 'A2',
      verdict: 'violated',
      evidence: [
        { kind: 'finding', findings: findingsId, spec: 'A2' },
        { kind: 'diff_hunk', patch: 'attempt', attempt: ATTEMPT, file: 'durations/format.py', hunk: 0 },
        { kind: 'test', test: 'TA1' },
      ],
    });
    // The page follows: the cell is yours and the finding accepted; back on the pair, the label cites it.
    await cell('A2', '[data-mine="violated"][data-finding="accepted"]').waitFor({ timeout: 30_000 });
    await cell('A2').click();
    await cell('A2', '.focused').waitFor({ timeout: 15_000 });
    await frame().locator('[data-testid="review-finding"][data-state="accepted"]').waitFor({ timeout: 15_000 });
    assert.match((await tid('finding-status').textContent()) ?? '', /accepted: your label cites it/);
    assert.match((await tid('review-mine').textContent()) ?? '', /yours: violated/);
    assert.equal((await frame().locator('[data-testid="evidence-editor"] [data-testid="evidence-link"]').allTextContents())[0], "review agent's finding on A2");
    assert.equal(await tid('finding-accept').count(), 0);
    await wb.screenshot('finding-accepted');
  });

  it('x dismisses the other finding: a review.dismiss in the log and no label', async () => {
    assert.ok(wb);
    await cell('A1').click();
    await cell('A1', '.focused').waitFor({ timeout: 15_000 });
    await frame().locator('[data-testid="review-finding"][data-judgment="satisfied"][data-state="open"]').waitFor({ timeout: 15_000 });
    await cell('A1', '.focused').press('x');
    const lines = await logWhen('a review.dismiss', (l) => l.some((e) => e.kind === 'review.dismiss'));
    const dismiss = lines.filter((e) => e.kind === 'review.dismiss');
    assert.equal(dismiss.length, 1);
    assert.equal(dismiss[0]!.curator, CURATOR);
    assert.deepEqual(dismiss[0]!.payload, { findings: findingsId, spec: 'A1' });
    assert.deepEqual(
      lines.filter((e) => e.kind === 'label').map((e) => e.payload.spec),
      ['A2'],
      'dismissing labels nothing',
    );
    await cell('A1', '[data-finding="dismissed"]').waitFor({ timeout: 30_000 });
    assert.equal(await cell('A1').getAttribute('data-mine'), '');
    await cell('A1').click();
    await frame().locator('[data-testid="review-finding"][data-state="dismissed"]').waitFor({ timeout: 15_000 });
    assert.match((await tid('finding-status').textContent()) ?? '', /dismissed by Ada Curator/);
    assert.equal(await tid('finding-dismiss').count(), 0);
    await wb.screenshot('finding-dismissed');
  });
});
