/**
 * L2-regularised logistic regression without intercept, by Newton's method:
 * minimise Σ_i log(1 + e^{−y_i·w·x_i}) + (λ/2)·|w|², with y_i ∈ {−1, +1}. On feature differences
 * of labelled pairs this is a Bradley–Terry model with a linear utility u(x) = w·φ(x).
 */

import { BadInputError, UsageError } from '../errors.js';
import { solveSpd } from './linalg.js';

export function fitLogistic(
  xs: readonly Float64Array[],
  ys: readonly (1 | -1)[],
  lambda: number,
): { w: Float64Array; iterations: number } {
  if (xs.length === 0) throw new BadInputError('logistic regression needs at least one example');
  if (!(lambda > 0)) throw new UsageError('λ must be > 0');
  const d = xs[0]!.length;
  const w = new Float64Array(d);
  let it = 0;
  for (; it < 100; it++) {
    const g = new Float64Array(d);
    const H = Array.from({ length: d }, () => new Float64Array(d));
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      const y = ys[i]!;
      let m = 0;
      for (let k = 0; k < d; k++) m += w[k]! * x[k]!;
      const p = 1 / (1 + Math.exp(y * m)); // σ(−y·m)
      for (let k = 0; k < d; k++) g[k]! -= y * p * x[k]!;
      const h = p * (1 - p);
      for (let a = 0; a < d; a++) {
        const ha = h * x[a]!;
        if (ha === 0) continue;
        const row = H[a]!;
        for (let b = a; b < d; b++) row[b]! += ha * x[b]!;
      }
    }
    let gmax = 0;
    for (let k = 0; k < d; k++) {
      g[k]! += lambda * w[k]!;
      H[k]![k]! += lambda;
      for (let b = 0; b < k; b++) H[k]![b] = H[b]![k]!;
      gmax = Math.max(gmax, Math.abs(g[k]!));
    }
    if (gmax < 1e-10) break;
    const step = solveSpd(H, g);
    for (let k = 0; k < d; k++) w[k]! -= step[k]!;
  }
  return { w, iterations: it };
}
