/**
 * Bradley–Terry maximum likelihood. Comparisons (a, b, score) with score = a's result: 1 win,
 * 0 loss, 0.5 tie (half a win each). P(a beats b) = e^{β_a}/(e^{β_a}+e^{β_b}); natural-log
 * strengths centred to sum 0.
 *
 * The MLE exists iff the "beats" graph (an edge i → j when i scored anything against j) is
 * strongly connected (Ford 1957). When it is not, a small L2 penalty λ·Σβ² is added to the
 * negative log-likelihood (default λ = 1e-3) and the result says so.
 * Fitted by Newton's method with step halving, each Newton step solved by conjugate gradients on
 * the sparse Hessian (a weighted graph Laplacian, + 1·1ᵀ + 2λI, never formed densely): memory
 * O(items + pairs) and time O(pairs) per CG iteration, so a sparse comparison graph of many items
 * costs what its edges do (issue 55; the dense Cholesky step was O(n³) and O(n²) memory). At most
 * MAX_BT_ITEMS items. Items are processed in sorted-id order, so the result does not depend on the
 * order of the comparisons.
 */

import { BadInputError } from '../errors.js';
import { percentileInterval } from './bootstrap.js';
import { solveSparseNewtonStep } from './bradley-terry-step.js';
import { mean } from './mean.js';
import { createRng } from './rng.js';

export interface Comparison {
  a: string;
  b: string;
  /** a's result: 1, 0.5 or 0. */
  score: number;
}

export interface BradleyTerryResult {
  /** By item id (a null-prototype object: an id such as `__proto__` is an item like any other). */
  strengths: Record<string, number>;
  /** λ actually applied (0 when the MLE exists). */
  ridge: number;
  mle_exists: boolean;
  iterations: number;
  logLikelihood: number;
}

export const DEFAULT_RIDGE = 1e-3;
/** The most items one fit takes (the fit is O(pairs) per CG iteration; beyond this, split the data). */
export const MAX_BT_ITEMS = 200_000;

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

function log1pExp(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

interface PairStat {
  i: number;
  j: number;
  /** i's total score against j. */
  w: number;
  n: number;
}

function aggregate(comparisons: readonly Comparison[]): { items: string[]; pairs: PairStat[] } {
  const items = [...new Set(comparisons.flatMap((c) => [c.a, c.b]))].sort();
  const index = new Map(items.map((id, k) => [id, k]));
  const map = new Map<string, PairStat>();
  for (const c of comparisons) {
    if (c.a === c.b) throw new BadInputError(`an item cannot be compared with itself: ${c.a}`);
    let i = index.get(c.a)!;
    let j = index.get(c.b)!;
    let s = c.score;
    if (i > j) {
      [i, j] = [j, i];
      s = 1 - s;
    }
    const key = `${i},${j}`;
    const p = map.get(key);
    if (p) {
      p.w += s;
      p.n += 1;
    } else map.set(key, { i, j, w: s, n: 1 });
  }
  const pairs = [...map.values()].sort((x, y) => x.i - y.i || x.j - y.j);
  return { items, pairs };
}

/** Strong connectivity of the beats graph: every item reaches every other. */
export function mleExists(comparisons: readonly Comparison[]): boolean {
  const { items, pairs } = aggregate(comparisons);
  return stronglyConnected(items.length, pairs);
}

function stronglyConnected(n: number, pairs: PairStat[]): boolean {
  if (n <= 1) return true;
  const fwd: number[][] = Array.from({ length: n }, () => []);
  const bwd: number[][] = Array.from({ length: n }, () => []);
  for (const p of pairs) {
    if (p.w > 0) {
      fwd[p.i]!.push(p.j);
      bwd[p.j]!.push(p.i);
    }
    if (p.n - p.w > 0) {
      fwd[p.j]!.push(p.i);
      bwd[p.i]!.push(p.j);
    }
  }
  const reach = (adj: number[][]) => {
    const seen = new Array<boolean>(n).fill(false);
    const stack = [0];
    seen[0] = true;
    while (stack.length) {
      const v = stack.pop()!;
      for (const u of adj[v]!)
        if (!seen[u]) {
          seen[u] = true;
          stack.push(u);
        }
    }
    return seen.every(Boolean);
  };
  return reach(fwd) && reach(bwd);
}

function nll(beta: Float64Array, pairs: PairStat[], ridge: number): number {
  let f = 0;
  for (const p of pairs) {
    const d = beta[p.i]! - beta[p.j]!;
    f += p.w * log1pExp(-d) + (p.n - p.w) * log1pExp(d);
  }
  for (const b of beta) f += ridge * b * b;
  return f;
}

export function fitBradleyTerry(
  comparisons: readonly Comparison[],
  opts: { ridge?: number } = {},
): BradleyTerryResult {
  if (comparisons.length === 0) throw new BadInputError('Bradley–Terry needs at least one comparison');
  for (const c of comparisons) {
    if (c.score !== 0 && c.score !== 0.5 && c.score !== 1)
      throw new BadInputError(`score must be 0, 0.5 or 1, got ${c.score}`);
  }
  const { items, pairs } = aggregate(comparisons);
  const n = items.length;
  const exists = stronglyConnected(n, pairs);
  const ridge = exists ? 0 : (opts.ridge ?? DEFAULT_RIDGE);
  if (!exists && !(ridge > 0))
    throw new BadInputError('the MLE does not exist for these comparisons; a ridge > 0 is needed');
  if (n > MAX_BT_ITEMS)
    throw new BadInputError(
      `Bradley–Terry takes at most ${MAX_BT_ITEMS} items, got ${n}: fit subsets (e.g. per film) instead`,
    );
  const beta = new Float64Array(n);
  let f = nll(beta, pairs, ridge);
  let it = 0;
  for (; it < 500; it++) {
    const g = new Float64Array(n);
    const diag = new Float64Array(n);
    const h = new Float64Array(pairs.length);
    pairs.forEach((p, e) => {
      const pr = sigmoid(beta[p.i]! - beta[p.j]!);
      const gi = p.n * pr - p.w; // d/dβ_i of the NLL
      g[p.i]! += gi;
      g[p.j]! -= gi;
      h[e] = p.n * pr * (1 - pr);
      diag[p.i]! += h[e]!;
      diag[p.j]! += h[e]!;
    });
    let gmax = 0;
    for (let k = 0; k < n; k++) {
      g[k]! += 2 * ridge * beta[k]!;
      gmax = Math.max(gmax, Math.abs(g[k]!));
    }
    if (gmax < 1e-11) break;
    const step = solveSparseNewtonStep(pairs, h, diag, 2 * ridge, g);
    let t = 1;
    let next = new Float64Array(n);
    for (let half = 0; half < 60; half++) {
      next = beta.map((b, k) => b - t * step[k]!);
      const fn = nll(next, pairs, ridge);
      if (fn <= f + 1e-15 * Math.max(1, Math.abs(f))) {
        f = fn;
        break;
      }
      t /= 2;
    }
    beta.set(next);
  }
  const meanBeta = mean(beta);
  const strengths: Record<string, number> = Object.create(null);
  items.forEach((id, k) => {
    strengths[id] = beta[k]! - meanBeta;
  });
  const logLikelihood = -(f - ridge * beta.reduce((a, b) => a + b * b, 0));
  return { strengths, ridge, mle_exists: exists, iterations: it, logLikelihood };
}

/** Strengths mapped linearly so that the weakest is 0 and the strongest 100 (all equal → 50). */
export function toScale0to100(strengths: Record<string, number>): Record<string, number> {
  const vals = Object.values(strengths);
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  const out: Record<string, number> = Object.create(null);
  for (const [k, v] of Object.entries(strengths)) out[k] = hi > lo ? (100 * (v - lo)) / (hi - lo) : 50;
  return out;
}

/** Percentile bootstrap intervals of each strength, resampling comparisons (seeded). */
export function bootstrapBradleyTerry(
  comparisons: readonly Comparison[],
  opts: { B?: number; seed?: number | string; alpha?: number; ridge?: number } = {},
): Record<string, [number, number]> {
  const B = opts.B ?? 1000;
  const rng = createRng(opts.seed ?? 0);
  const reps = new Map<string, number[]>();
  for (let r = 0; r < B; r++) {
    const sample = Array.from(
      { length: comparisons.length },
      () => comparisons[rng.int(comparisons.length)]!,
    );
    const fit = fitBradleyTerry(sample, { ridge: opts.ridge ?? DEFAULT_RIDGE });
    for (const [k, v] of Object.entries(fit.strengths)) {
      const l = reps.get(k);
      if (l) l.push(v);
      else reps.set(k, [v]);
    }
  }
  const out: Record<string, [number, number]> = Object.create(null);
  for (const [k, v] of reps) out[k] = percentileInterval(v, opts.alpha);
  return out;
}
