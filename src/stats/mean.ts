/**
 * The one arithmetic mean (and its friends) of kfbench, with one behaviour on empty input: the mean
 * of nothing is NaN — not 0, which would read as a measured score. Callers that write JSON turn it
 * into null with `meanOrNull` (JSON has no NaN); callers that need a number decide what an empty
 * input means themselves, visibly, at the call site.
 */

/** Sum (0 for an empty list). */
export const sum = (xs: readonly number[]): number => {
  let s = 0;
  for (const x of xs) s += x;
  return s;
};

/** Arithmetic mean; NaN for an empty list. */
export const mean = (xs: readonly number[]): number => (xs.length ? sum(xs) / xs.length : Number.NaN);

/** Arithmetic mean; null for an empty list or a non-finite mean (what a JSON field holds). */
export const meanOrNull = (xs: readonly number[]): number | null => {
  const m = mean(xs);
  return Number.isFinite(m) ? m : null;
};
