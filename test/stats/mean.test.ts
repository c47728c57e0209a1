/** The one mean of kfbench and its documented behaviour on empty input. */
import { describe, expect, it } from 'vitest';
import { mean, meanOrNull, sum } from '../../src/stats/mean.js';

describe('mean and friends', () => {
  it('averages plain and typed arrays', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(mean(new Float64Array([0.5, 1.5]))).toBe(1);
    expect(sum([])).toBe(0);
    expect(sum(new Float32Array([1, 2]))).toBe(3);
  });

  it('the mean of nothing is NaN (never 0, which reads as a score); meanOrNull makes it null for JSON', () => {
    expect(mean([])).toBeNaN();
    expect(meanOrNull([])).toBeNull();
    expect(meanOrNull([Number.POSITIVE_INFINITY, 1])).toBeNull();
    expect(meanOrNull([0.25, 0.75])).toBe(0.5);
    expect(JSON.stringify({ S: meanOrNull([]) })).toBe('{"S":null}');
  });
});
