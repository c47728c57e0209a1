/**
 * Rank correlation: Spearman ρ (Pearson on average ranks, ties allowed) and Kendall τ-b (ties in
 * x, in y and in both), with Spearman's exact permutation p-value for n ≤ 9 and the usual
 * asymptotic one (t = ρ·√((n−2)/(1−ρ²)), Student t with n−2 df, two-sided — as scipy's spearmanr).
 */

import { BadInputError, UsageError } from '../errors.js';
import { studentTCdf } from './distributions.js';
import { forEachPermutation } from './permutation.js';

/** Average ranks, 1-based (ties share the mean of their positions). */
export function averageRanks(xs: readonly number[]): number[] {
  const idx = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const ranks = new Array<number>(xs.length);
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && xs[idx[j + 1]!] === xs[idx[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[idx[k]!] = r;
    i = j + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  return sxy / Math.sqrt(sxx * syy);
}

export function spearman(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y);
  return pearson(averageRanks(x), averageRanks(y));
}

/** Kendall τ-b = (C − D) / √((n0 − n1)(n0 − n2)). O(n²). */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y);
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  return denom === 0 ? Number.NaN : (concordant - discordant) / denom;
}

/**
 * Exact two-sided permutation p-value of Spearman ρ: all n! orderings of y against fixed x,
 * counting |ρ_perm| ≥ |ρ_obs| − 1e-12 (the identity included).
 */
export function spearmanExactP(x: readonly number[], y: readonly number[]): number {
  checkPaired(x, y);
  const n = x.length;
  if (n > 9) throw new UsageError(`exact permutation p needs n ≤ 9, got ${n}`);
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const obs = Math.abs(pearson(rx, ry));
  let hits = 0;
  let total = 0;
  const perm = new Array<number>(n);
  forEachPermutation(n, (p) => {
    for (let i = 0; i < n; i++) perm[i] = ry[p[i]!]!;
    total++;
    if (Math.abs(pearson(rx, perm)) >= obs - 1e-12) hits++;
  });
  return hits / total;
}

/** Asymptotic two-sided p of Spearman ρ (t distribution with n − 2 df). */
export function spearmanAsymptoticP(rho: number, n: number): number {
  if (n < 3 || Number.isNaN(rho)) return Number.NaN;
  if (Math.abs(rho) >= 1) return 0;
  const t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
  return 2 * (1 - studentTCdf(Math.abs(t), n - 2));
}

export interface RankSummary {
  n: number;
  spearman: number;
  kendall_tau_b: number;
  p_exact?: number;
  p_asymptotic: number;
}

export function rankCorrelation(x: readonly number[], y: readonly number[]): RankSummary {
  const rho = spearman(x, y);
  const out: RankSummary = {
    n: x.length,
    spearman: rho,
    kendall_tau_b: kendallTauB(x, y),
    p_asymptotic: spearmanAsymptoticP(rho, x.length),
  };
  if (x.length <= 9) out.p_exact = spearmanExactP(x, y);
  return out;
}

function checkPaired(x: readonly number[], y: readonly number[]): void {
  if (x.length !== y.length) throw new BadInputError(`x and y differ in length (${x.length} vs ${y.length})`);
  if (x.length < 2) throw new BadInputError('a rank correlation needs at least 2 pairs');
}
