import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bootstrapBradleyTerry,
  fitBradleyTerry,
  mleExists,
  toScale0to100,
} from '../../src/stats/bradley-terry.js';
import { createRng, shuffled } from '../../src/stats/rng.js';
import { statsReferences } from '../support/stats-references.js';

const refs = statsReferences();

describe('Bradley–Terry against scipy and R BradleyTerry2 (1e-6)', () => {
  it.each(refs.bt.map((r) => [r.name, r] as const))('%s', (_, r) => {
    const fit = fitBradleyTerry(r.comparisons);
    expect(fit.mle_exists).toBe(r.mle_exists);
    expect(fit.ridge).toBe(r.ridge);
    for (const [k, v] of Object.entries(r.strengths_scipy))
      expect(Math.abs(fit.strengths[k]! - v)).toBeLessThan(1e-6);
    if (r.strengths_r)
      for (const [k, v] of Object.entries(r.strengths_r))
        expect(Math.abs(fit.strengths[k]! - v)).toBeLessThan(1e-6);
    const sum = Object.values(fit.strengths).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum)).toBeLessThan(1e-9);
  });

  it.each(refs.bt.filter((r) => !r.mle_exists).map((r) => [r.name, r] as const))(
    '%s with ridge 0.1',
    (_, r) => {
      const fit = fitBradleyTerry(r.comparisons, { ridge: 0.1 });
      for (const [k, v] of Object.entries(r['strengths_scipy_ridge_0.1']))
        expect(Math.abs(fit.strengths[k]! - v)).toBeLessThan(1e-6);
    },
  );
});

describe('Bradley–Terry behaviour', () => {
  it('detects separability (Ford’s condition)', () => {
    expect(mleExists([{ a: 'x', b: 'y', score: 1 }])).toBe(false);
    expect(mleExists([{ a: 'x', b: 'y', score: 0.5 }])).toBe(true); // a tie is half a win each way
    expect(
      mleExists([
        { a: 'x', b: 'y', score: 1 },
        { a: 'y', b: 'z', score: 1 },
        { a: 'z', b: 'x', score: 1 },
      ]),
    ).toBe(true);
  });

  it('strengths do not depend on the order of comparisons', () => {
    const base = refs.bt[0]!.comparisons;
    const ref = fitBradleyTerry(base).strengths;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const fit = fitBradleyTerry(shuffled(base, createRng(seed))).strengths;
        for (const k of Object.keys(ref)) expect(Math.abs(fit[k]! - ref[k]!)).toBeLessThan(1e-9);
        return true;
      }),
      { seed: 7, numRuns: 50 },
    );
  });

  it('swapping a and b with the complementary score changes nothing', () => {
    const base = refs.bt[1]!.comparisons;
    const flipped = base.map((c) => ({ a: c.b, b: c.a, score: 1 - c.score }));
    const a = fitBradleyTerry(base).strengths;
    const b = fitBradleyTerry(flipped).strengths;
    for (const k of Object.keys(a)) expect(b[k]).toBeCloseTo(a[k]!, 9);
  });

  it('maps strengths to 0–100', () => {
    expect(toScale0to100({ a: -1, b: 0, c: 3 })).toEqual({ a: 0, b: 25, c: 100 });
    expect(toScale0to100({ a: 2, b: 2 })).toEqual({ a: 50, b: 50 });
  });

  it('bootstrap intervals are reproducible from the seed and contain the estimate', () => {
    const comps = refs.bt[0]!.comparisons;
    const a = bootstrapBradleyTerry(comps, { B: 200, seed: 3 });
    const b = bootstrapBradleyTerry(comps, { B: 200, seed: 3 });
    expect(a).toEqual(b);
    const fit = fitBradleyTerry(comps).strengths;
    for (const [k, [lo, hi]] of Object.entries(a)) {
      expect(lo).toBeLessThanOrEqual(fit[k]!);
      expect(hi).toBeGreaterThanOrEqual(fit[k]!);
    }
  });

  it('rejects scores outside {0, 0.5, 1}', () => {
    expect(() => fitBradleyTerry([{ a: 'x', b: 'y', score: 0.7 }])).toThrow(/0, 0.5 or 1/);
  });
});
