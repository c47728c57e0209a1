import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bootstrap,
  clusteredBootstrap,
  pairedBootstrap,
  percentileInterval,
} from '../../src/stats/bootstrap.js';
import { equalErrorRate, ratesAt } from '../../src/stats/eer.js';
import { krippendorffAlpha } from '../../src/stats/krippendorff.js';
import { mean } from '../../src/stats/mean.js';
import { signFlipTest } from '../../src/stats/permutation.js';
import { mcnemar, wilson } from '../../src/stats/proportion.js';
import { createRng } from '../../src/stats/rng.js';
import { statsReferences } from '../support/stats-references.js';

const refs = statsReferences();

describe("Krippendorff's α", () => {
  const k2011 = refs.alpha.find((a) => a.name === 'krippendorff2011')!;
  it('reproduces the published values of Krippendorff (2011) to 3 decimals', () => {
    for (const level of ['nominal', 'ordinal', 'interval'] as const) {
      expect(krippendorffAlpha(k2011.matrix, level).alpha.toFixed(3)).toBe(
        k2011.published![level]!.toFixed(3),
      );
    }
  });
  it.each(refs.alpha.map((a) => [a.name, a] as const))(
    '%s agrees with an independent pairwise implementation (1e-9)',
    (_, a) => {
      for (const level of ['nominal', 'ordinal', 'interval'] as const) {
        const r = krippendorffAlpha(a.matrix, level);
        expect(Math.abs(r.alpha - a[level])).toBeLessThan(1e-9);
        expect(r.units_used).toBe(a.units_used);
      }
    },
  );
  it('α = 1 for perfect agreement (any level)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 3, maxLength: 12 }),
        fc.integer({ min: 2, max: 4 }),
        (unitValues, raters) => {
          fc.pre(new Set(unitValues).size >= 2);
          const m = Array.from({ length: raters }, () => [...unitValues]);
          for (const level of ['nominal', 'ordinal', 'interval'] as const)
            expect(krippendorffAlpha(m, level).alpha).toBeCloseTo(1, 12);
          return true;
        },
      ),
      { seed: 11, numRuns: 100 },
    );
  });
});

describe('Wilson and McNemar against scipy.stats.binomtest', () => {
  it.each(refs.wilson.map((w) => [`${w.k}/${w.n}`, w] as const))('Wilson %s', (_, w) => {
    const [lo, hi] = wilson(w.k, w.n);
    expect(lo).toBeCloseTo(w.lo, 9);
    expect(hi).toBeCloseTo(w.hi, 9);
  });
  it.each(refs.mcnemar.map((m) => [`b=${m.b} c=${m.c}`, m] as const))('McNemar %s', (_, m) => {
    const r = mcnemar(m.b, m.c);
    expect(r.p_exact).toBeCloseTo(m.p_exact, 9);
    expect(r.chi2).toBeCloseTo(m.chi2, 12);
    expect(r.method).toBe(m.b + m.c < 25 ? 'exact-binomial' : 'chi-square-cc');
    if (r.method === 'chi-square-cc') expect(r.p).toBeCloseTo(m.p_chi2, 9);
  });
});

describe('equal error rate against sklearn roc_curve points', () => {
  it.each(refs.eer.map((e) => [e.name, e] as const))('%s', (_, e) => {
    const data = e.scores.map((score, i) => ({ score, label: e.labels[i]! }));
    const r = equalErrorRate(data);
    expect(r.eer).toBeCloseTo(e.eer, 9);
    expect(r.threshold).toBeCloseTo(e.threshold, 9);
    const at = ratesAt(data, 0.8);
    expect(at.fpr).toBeCloseTo(e.at.fpr, 12);
    expect(at.fnr).toBeCloseTo(e.at.fnr, 12);
  });
});

describe('bootstrap and permutation', () => {
  const xs = Array.from({ length: 40 }, (_, i) => Math.sin(i) * 3 + i / 10);
  it('a fixed seed reproduces a bootstrap exactly; another seed differs', () => {
    const a = bootstrap(xs, mean, { B: 500, seed: 9 });
    expect(bootstrap(xs, mean, { B: 500, seed: 9 })).toEqual(a);
    expect(bootstrap(xs, mean, { B: 500, seed: 10 }).ci).not.toEqual(a.ci);
    expect(a.ci[0]).toBeLessThan(a.estimate);
    expect(a.ci[1]).toBeGreaterThan(a.estimate);
  });
  it('percentile interval uses linear interpolation (numpy type 7)', () => {
    expect(percentileInterval([1, 2, 3, 4, 5], 0.5)).toEqual([2, 4]);
    expect(percentileInterval([0, 10], 0.2)).toEqual([1, 9]);
  });
  it('paired bootstrap finds a clear difference and not a null one', () => {
    const b = xs.map((v) => v - 1);
    expect(pairedBootstrap(xs, b, { B: 500, seed: 1 }).ci[0]).toBeCloseTo(1, 9); // constant difference
    const noise = xs.map((v, i) => v + (i % 2 ? 0.5 : -0.5));
    const r = pairedBootstrap(xs, noise, { B: 1000, seed: 1 });
    expect(r.ci[0]).toBeLessThan(0);
    expect(r.ci[1]).toBeGreaterThan(0);
  });
  it('clustered bootstrap resamples whole clusters', () => {
    const items = [
      { c: 'a', v: 0 },
      { c: 'a', v: 0 },
      { c: 'b', v: 1 },
    ];
    const r = clusteredBootstrap(
      items,
      (i) => i.c,
      (s) => s.filter((i) => i.c === 'a').length % 2,
      { B: 300, seed: 2 },
    );
    expect(r.ci).toEqual([0, 0]); // cluster a always contributes both of its items
  });
  it('sign-flip test is exact for small n', () => {
    const r = signFlipTest([1, 1, 1, 1], { rng: createRng(0) });
    expect(r).toEqual({ p: 2 / 16, exact: true });
  });
});
