import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agreementFigure, cohensKappa, krippendorffAlpha } from '../../../src/core/review/agreement';

const close = (actual: number | undefined, expected: number, digits = 3) => {
  assert.ok(actual !== undefined, 'expected a value');
  assert.equal(actual.toFixed(digits), expected.toFixed(digits));
};

describe("Cohen's kappa", () => {
  it('matches the textbook example (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: kappa 0.4)', () => {
    const pairs: Array<[string, string]> = [
      ...Array.from({ length: 20 }, () => ['yes', 'yes'] as [string, string]),
      ...Array.from({ length: 5 }, () => ['yes', 'no'] as [string, string]),
      ...Array.from({ length: 10 }, () => ['no', 'yes'] as [string, string]),
      ...Array.from({ length: 15 }, () => ['no', 'no'] as [string, string]),
    ];
    const k = cohensKappa(pairs);
    assert.equal(k.items, 50);
    close(k.observed, 0.7);
    close(k.expected, 0.5);
    close(k.kappa, 0.4);
  });

  it('matches a hand computation over three verdicts', () => {
    // A: s s s v v u   B: s s v v v s  -> p_o = 4/6; A marginals s 3/6, v 2/6, u 1/6; B: s 3/6, v 3/6, u 0
    // p_e = (3*3 + 2*3 + 0) / 36 = 15/36; kappa = (24/36 - 15/36) / (21/36) = 9/21 = 0.428571...
    const k = cohensKappa([
      ['satisfied', 'satisfied'],
      ['satisfied', 'satisfied'],
      ['satisfied', 'violated'],
      ['violated', 'violated'],
      ['violated', 'violated'],
      ['unsure', 'satisfied'],
    ]);
    close(k.kappa, 9 / 21, 6);
  });

  it('is undefined without items and when both raters always give the same single value', () => {
    assert.equal(cohensKappa([]).kappa, undefined);
    const k = cohensKappa([['s', 's'], ['s', 's']]);
    assert.equal(k.kappa, undefined);
    assert.equal(k.items, 2);
  });
});

describe("Krippendorff's alpha", () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 observers x 12 units example with
  // missing values; published: nominal 0.743, ordinal 0.815, interval 0.849.
  const rows: Array<Array<number | null>> = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
    [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
  ];
  const units = Array.from({ length: 12 }, (_, u) => rows.map((r) => r[u]).filter((v): v is number => v !== null));

  it('matches the published nominal value', () => {
    const a = krippendorffAlpha(units, 'nominal');
    close(a.alpha, 0.743);
    assert.equal(a.units, 11, 'unit 12 has one value only and cannot be paired');
    assert.equal(a.values, 40);
  });
  it('matches the published ordinal value', () => close(krippendorffAlpha(units, 'ordinal').alpha, 0.815));
  it('matches the published interval value', () => close(krippendorffAlpha(units, 'interval').alpha, 0.849));

  it('matches a hand computation for two raters, nominal', () => {
    // Units (a,a) (a,b) (b,b): coincidences o_aa = 2, o_ab = o_ba = 1, o_bb = 2; n_a = n_b = 3, n = 6.
    // alpha = 1 - (n-1) * (o_ab + o_ba) / (n_a n_b + n_b n_a) = 1 - 5 * 2 / 18 = 0.4444...
    close(krippendorffAlpha([['a', 'a'], ['a', 'b'], ['b', 'b']], 'nominal').alpha, 4 / 9, 6);
  });

  it('is undefined when there is no variation, and ignores units with one value', () => {
    const a = krippendorffAlpha([[1, 1], [1, 1], [2]], 'ordinal');
    assert.equal(a.alpha, undefined);
    assert.equal(a.units, 2);
  });

  it('refuses non-numeric values for an ordinal metric', () => {
    assert.throws(() => krippendorffAlpha([['a', 'b']], 'ordinal'), /numeric/);
  });
});

describe('agreementFigure', () => {
  it('reports kappa for exactly two curators with the items behind it, and pairwise kappas for three', () => {
    const two = new Map([
      ['u1', new Map([['alice', 'satisfied'], ['bob', 'satisfied']])],
      ['u2', new Map([['alice', 'violated'], ['bob', 'satisfied']])],
      ['u3', new Map([['alice', 'violated'], ['bob', 'violated']])],
      ['u4', new Map([['alice', 'violated']])],
    ]);
    const f = agreementFigure('verdict', 'nominal', two);
    assert.equal(f.curators, 2);
    assert.equal(f.items, 3);
    assert.equal(f.kappaItems, 3);
    // p_o = 2/3; alice s 1/3 v 2/3; bob s 2/3 v 1/3; p_e = 2/9 + 2/9 = 4/9; kappa = (6/9 - 4/9)/(5/9) = 0.4
    close(f.kappa, 0.4, 6);
    const three = new Map([
      ['u1', new Map([['alice', 1], ['bob', 1], ['carol', 2]])],
      ['u2', new Map([['alice', 3], ['bob', 2], ['carol', 3]])],
    ]);
    const g = agreementFigure('fpSeverity', 'ordinal', three, true);
    assert.equal(g.kappa, undefined);
    assert.equal(g.pairwise.length, 3);
    assert.ok(g.alpha !== undefined && g.alphaInterval !== undefined);
  });
});
