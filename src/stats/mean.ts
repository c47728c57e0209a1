/**
 * The one arithmetic mean (and its friends) of kfbench, with one behaviour on empty input: the mean
 * of nothing is NaN — not 0, which would read as a measured score. Callers that write JSON turn it
 * into null with `meanOrNull` (JSON has no NaN); callers that need a number decide what an empty
 * input means themselves, visibly, at the call site.
 */

/** Plain arrays and typed arrays alike. */
export type Numbers = ArrayLike<number>;

/** Sum (0 for an empty list). */
export const sum = (xs: Numbers): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
};

/** Arithmetic mean; NaN for an empty list. */
export const mean = (xs: Numbers): number => (xs.length ? sum(xs) / xs.length : Number.NaN);

/** Arithmetic mean; null for an empty list or a non-finite mean (what a JSON field holds). */
export const meanOrNull = (xs: Numbers): number | null => {
  const m = mean(xs);
  return Number.isFinite(m) ? m : null;
};

/** Sample standard deviation (n − 1 in the denominator); NaN for fewer than two values. */
export const sampleSd = (xs: Numbers): number => {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < xs.length; i++) ss += (xs[i]! - m) ** 2;
  return Math.sqrt(ss / (xs.length - 1));
};
