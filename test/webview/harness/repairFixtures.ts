// Repair views for the webview harness (`?repair=<kind>` on the page): a revalidated repair of the standard task with
// false positives and negatives gone and appeared, the states before it (ready, revalidating, rejected, failed), the
// same with fresh solver trials (one of them hostile text), a hostile one, and one sized to the model for the DOM budget. Pure data, bundled with fakeHost.ts.
import type { CellChangeView, RepairMatrixSideView, RepairMatrixView, RepairView, TaskViewModel } from '../../../src/protocol/messages';
import { HOSTILE_HTML, PWN } from './fixtures';

type Cell = RepairMatrixView['cells'][number];

type Side = [RepairMatrixSideView['verifier'], RepairMatrixSideView['outcome']];
const side = (verifier: Side[0], outcome: Side[1]): RepairMatrixSideView => ({ verifier, outcome });

function cell(attempt: string, spec: string, before: Side, after: Side, change: CellChangeView): Cell {
  return { attempt, spec, before: side(...before), after: side(...after), change };
}

/**
 * The standard task (attempts a1 a2 a3, specs S1-S5) after a repair of its tests: two false negatives and one false
 * positive gone, one false positive appeared, one verdict changed, one new spec S6.
 */
export function standardMatrix(): RepairMatrixView {
  const specs = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6'];
  const attempts = ['a1', 'a2', 'a3'];
  const special = new Map<string, Cell>(
    [
      cell('a1', 'S2', ['fail', 'false_negative'], ['pass', 'true_pass'], 'fn_fixed'),
      cell('a2', 'S2', ['fail', 'false_negative'], ['pass', 'true_pass'], 'fn_fixed'),
      cell('a2', 'S1', ['pass', 'false_positive'], ['fail', 'true_fail'], 'fp_fixed'),
      cell('a2', 'S4', ['pass', 'true_pass'], ['pass', 'false_positive'], 'fp_new'),
      cell('a3', 'S3', ['fail', 'true_fail'], ['unknown', 'undecided'], 'verdict_changed'),
    ].map((c) => [`${c.attempt}/${c.spec}`, c]),
  );
  const cells: Cell[] = [];
  for (const a of attempts) {
    for (const s of specs) {
      const c = special.get(`${a}/${s}`);
      if (c) cells.push(c);
      else if (s === 'S6') cells.push(cell(a, s, ['absent', 'absent'], ['pass', 'true_pass'], 'verdict_changed'));
      else cells.push(cell(a, s, ['pass', 'true_pass'], ['pass', 'true_pass'], 'same'));
    }
  }
  return {
    attempts,
    specs,
    cells,
    fixed: { falsePositives: [{ attempt: 'a2', spec: 'S1' }], falseNegatives: [{ attempt: 'a1', spec: 'S2' }, { attempt: 'a2', spec: 'S2' }] },
    introduced: { falsePositives: [{ attempt: 'a2', spec: 'S4' }], falseNegatives: [] },
    counts: { before: { falsePositives: 1, falseNegatives: 2 }, after: { falsePositives: 1, falseNegatives: 0 } },
    attemptStatus: { a1: { before: 'failed', after: 'passed' }, a2: { before: 'failed', after: 'failed' }, a3: { before: 'failed' } },
  };
}

/** Every (attempt, spec) of the model, half of them a false negative gone: the DOM budget's matrix. */
function sizedMatrix(model: TaskViewModel): RepairMatrixView {
  const attempts = model.columns.filter((c) => c.id !== 'gold').map((c) => c.id);
  const specs = model.specs.map((s) => s.id);
  const cells: Cell[] = [];
  attempts.forEach((a, i) =>
    specs.forEach((s, j) => cells.push((i + j) % 2 ? cell(a, s, ['fail', 'false_negative'], ['pass', 'true_pass'], 'fn_fixed') : cell(a, s, ['pass', 'true_pass'], ['pass', 'true_pass'], 'same'))),
  );
  const fn = cells.filter((c) => c.change === 'fn_fixed').map((c) => ({ attempt: c.attempt, spec: c.spec }));
  return { attempts, specs, cells, fixed: { falsePositives: [], falseNegatives: fn }, introduced: { falsePositives: [], falseNegatives: [] }, counts: { before: { falsePositives: 0, falseNegatives: fn.length }, after: { falsePositives: 0, falseNegatives: 0 } } };
}

/** The standard matrix with two fresh trials on the new revision (one a false positive on S4, one hostile) and one that did not run. */
export function freshMatrix(): RepairMatrixView {
  const m = standardMatrix();
  const evil = `trial-"><img src=x onerror=${PWN}>`;
  const attempts = ['trial-gpt-4o-mini-20261202T061500-ab12cd', evil];
  const cells = attempts.flatMap((a) => m.specs.map((s) => (a === attempts[0] && s === 'S4' ? cell(a, s, ['absent', 'absent'], ['pass', 'false_positive'], 'fp_new') : cell(a, s, ['absent', 'absent'], a === evil ? ['fail', 'true_fail'] : ['pass', 'true_pass'], 'verdict_changed'))));
  return {
    ...m,
    fresh: {
      attempts,
      cells,
      attemptStatus: { [attempts[0] as string]: { after: 'passed' }, [evil]: { after: `<script>${PWN}</script>` } },
      trials: [
        { attempt: attempts[0], model: 'gpt-4o-mini', exitStatus: 'Submitted', verdict: 'passed' },
        { attempt: evil, model: `<svg onload=${PWN}>`, exitStatus: 'LimitsExceeded', verdict: 'failed' },
        { model: 'gpt-4o-mini', error: `the endpoint said <img src=x onerror=${PWN}>` },
      ],
    },
  };
}

const RATIONALE = 'TB3 pins the exact wording of the error message, which the request never states.\nThe attempts print the right line and file.\n\nLoosen the assertion to a regular expression.';

export function repairFixture(kind: string, model: TaskViewModel): RepairView | undefined {
  const base = { suggestion: '20261129T134201123Z-a1b2c3', summary: 'Loosen TB3: match the location, not the exact wording', target: 'tests' as const, rationale: RATIONALE };
  const rev = model.revision;
  switch (kind) {
    case 'ready':
      return { ...base, status: 'ready' };
    case 'failed':
      return { suggestion: base.suggestion, status: 'failed', target: 'tests', message: 'the endpoint refused the API key (401); run "SpecWeave: Set API Key"' };
    case 'rejected':
      return { ...base, status: 'rejected', note: 'The tests were right; the request is the problem.', decidedBy: 'alice', decidedAt: '2026-11-29T13:45:00.000Z' };
    case 'revalidating':
      return { ...base, status: 'revalidating', fromRevision: rev - 1, toRevision: rev, decidedBy: 'alice' };
    case 'revalidated':
      return { ...base, status: 'revalidated', fromRevision: rev - 1, toRevision: rev, matrix: standardMatrix(), note: 'Accepted with a comment line added.', decidedBy: 'alice', decidedAt: '2026-11-29T13:45:00.000Z' };
    case 'fresh':
      return { ...base, status: 'revalidated', fromRevision: rev - 1, toRevision: rev, matrix: freshMatrix(), decidedBy: 'alice', decidedAt: '2026-11-29T13:45:00.000Z' };
    case 'sized':
      return { ...base, status: 'revalidated', fromRevision: rev - 1, toRevision: rev, matrix: sizedMatrix(model) };
    case 'hostile': {
      const spec = model.specs[0]?.id ?? 'S1';
      const attempt = model.columns.find((c) => c.id !== 'gold')?.id ?? 'a1';
      const evil = `"><img src=x onerror=${PWN}>`;
      return {
        suggestion: `<script>${PWN}</script>`,
        status: 'revalidated',
        summary: `<b>bold</b> ${HOSTILE_HTML}`,
        // Hostile: not one of the targets (a broken host); the page shows it as text all the same.
        target: `<svg onload=${PWN}>` as RepairView['target'],
        rationale: `\u001b[31m${HOSTILE_HTML}\u001b[0m\n<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>\u202eevil`,
        note: `<a href="javascript:${PWN}">reason</a> ${HOSTILE_HTML}`,
        decidedBy: `<img src=x onerror=${PWN}>`,
        fromRevision: 1,
        toRevision: 2,
        matrix: {
          attempts: [attempt, evil],
          specs: [spec, `<script>${PWN}</script>`],
          cells: [
            cell(attempt, spec, ['fail', 'false_negative'], ['pass', 'true_pass'], 'fn_fixed'),
            // Values outside the protocol's unions (a broken host): the page still shows them only as text.
            cell(attempt, `<script>${PWN}</script>`, [`<img src=x onerror=${PWN}>` as Side[0], `<b>x</b>` as Side[1]], ['pass', 'false_positive'], `<i>${PWN}</i>` as CellChangeView),
            cell(evil, spec, ['pass', 'true_pass'], ['pass', 'true_pass'], 'same'),
            cell(evil, `<script>${PWN}</script>`, ['pass', 'true_pass'], ['fail', 'false_negative'], 'fn_new'),
          ],
          fixed: { falsePositives: [], falseNegatives: [{ attempt, spec }] },
          introduced: { falsePositives: [{ attempt, spec: `<script>${PWN}</script>` }], falseNegatives: [{ attempt: evil, spec: `<script>${PWN}</script>` }] },
          counts: { before: { falsePositives: 0, falseNegatives: 1 }, after: { falsePositives: 1, falseNegatives: 1 } },
          attemptStatus: { [attempt]: { before: `<script>${PWN}</script>`, after: 'passed' } },
        },
      };
    }
    default:
      return undefined;
  }
}
