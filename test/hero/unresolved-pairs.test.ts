/**
 * Issue 54 item 7: the card says unresolved pairs "are counted as errors throughout, with no partial
 * credit", while a chain's Bradley–Terry fit counted them as ties (half a win each). The reading is
 * a flag of `hero build` (`--unresolved-pairs tie|error`); docs/heroframe.md says which is default.
 */
import { describe, expect, it } from 'vitest';
import { fitComparisons } from '../../src/hero/build/film.js';
import { fitBradleyTerry } from '../../src/stats/bradley-terry.js';

const pairs = [
  { a: 'x', b: 'y', out: { status: 'confident', winner: 'A' } },
  { a: 'y', b: 'z', out: { status: 'confident', winner: 'A' } },
  { a: 'x', b: 'z', out: { status: 'unresolved', winner: null } },
];

describe('--unresolved-pairs', () => {
  it('error (the default): no credit, left out of the fit; tie: half a win each', () => {
    expect(fitComparisons(pairs)).toEqual(fitComparisons(pairs, 'error'));
    expect(fitComparisons(pairs, 'tie')).toEqual([
      { a: 'x', b: 'y', score: 1 },
      { a: 'y', b: 'z', score: 1 },
      { a: 'x', b: 'z', score: 0.5 },
    ]);
    expect(fitComparisons(pairs, 'error')).toEqual([
      { a: 'x', b: 'y', score: 1 },
      { a: 'y', b: 'z', score: 1 },
    ]);
    // the fitted strengths differ: the tie pulls x and z together
    const gap = (r: 'tie' | 'error') => {
      const s = fitBradleyTerry(fitComparisons(pairs, r), { ridge: 0.1 }).strengths;
      return s.x! - s.z!;
    };
    expect(gap('error')).toBeGreaterThan(gap('tie'));
  });
});
