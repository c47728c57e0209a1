import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageRanks, kendallTauB, rankCorrelation, spearman } from '../../src/stats/rank.js';
import { statsReferences } from '../support/stats-references.js';

const refs = statsReferences();

describe('rank correlation against scipy (scripts/stats-references.py)', () => {
  it.each(refs.rank.map((r) => [r.name, r] as const))('%s', (_, r) => {
    const got = rankCorrelation(r.x, r.y);
    expect(got.spearman).toBeCloseTo(r.spearman, 9);
    expect(got.kendall_tau_b).toBeCloseTo(r.kendall_tau_b, 9);
    expect(got.p_asymptotic).toBeCloseTo(r.p_asymptotic, 9);
    if (r.p_exact !== undefined) expect(got.p_exact).toBeCloseTo(r.p_exact, 12);
    else expect(got.p_exact).toBeUndefined();
  });
});

describe('rank correlation properties', () => {
  const series = fc
    .integer({ min: 3, max: 9 })
    .chain((n) =>
      fc.tuple(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }),
      ),
    );
  it('ρ and τ are symmetric and lie in [−1, 1]', () => {
    fc.assert(
      fc.property(series, ([x, y]) => {
        const rho = spearman(x, y);
        const tau = kendallTauB(x, y);
        if (Number.isNaN(rho)) return true; // a constant series
        expect(Math.abs(rho - spearman(y, x))).toBeLessThan(1e-12);
        expect(Math.abs(tau - kendallTauB(y, x))).toBeLessThan(1e-12);
        expect(rho).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(rho).toBeLessThanOrEqual(1 + 1e-12);
        expect(Math.abs(tau)).toBeLessThanOrEqual(1 + 1e-12);
        return true;
      }),
      { seed: 42, numRuns: 200 },
    );
  });
  it('average ranks share ties', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
});
