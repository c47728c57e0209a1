/** Proportions: Wilson score interval; McNemar's test for paired binary outcomes. */
import { binomialCdf, chiSquareCdf, normalQuantile } from './distributions.js';

export function wilson(successes: number, n: number, alpha = 0.05): [number, number] {
  if (n === 0) return [0, 1];
  const z = normalQuantile(1 - alpha / 2);
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface McNemarResult {
  /** Discordant counts: b = first right & second wrong, c = the reverse. */
  b: number;
  c: number;
  p: number;
  method: 'exact-binomial' | 'chi-square-cc';
  p_exact: number;
  chi2: number;
}

/** McNemar: exact two-sided binomial when b + c < 25, else chi-square with continuity correction. */
export function mcnemar(b: number, c: number): McNemarResult {
  const n = b + c;
  const p_exact = n === 0 ? 1 : Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5));
  const chi2 = n === 0 ? 0 : (Math.abs(b - c) - 1) ** 2 / n;
  const pChi = n === 0 ? 1 : 1 - chiSquareCdf(chi2, 1);
  const exact = n < 25;
  return {
    b,
    c,
    p: exact ? p_exact : pChi,
    method: exact ? 'exact-binomial' : 'chi-square-cc',
    p_exact,
    chi2,
  };
}
