/** Exact permutation machinery. */
import type { Rng } from './rng.js';

/** Call `f` with every permutation of 0..n−1 (Heap's algorithm; the array is reused). */
export function forEachPermutation(n: number, f: (p: readonly number[]) => void): void {
  const a = Array.from({ length: n }, (_, i) => i);
  const c = new Array<number>(n).fill(0);
  f(a);
  let i = 0;
  while (i < n) {
    if (c[i]! < i) {
      const k = i % 2 === 0 ? 0 : c[i]!;
      [a[k], a[i]] = [a[i]!, a[k]!];
      f(a);
      c[i]!++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
}

/**
 * Paired sign-flip permutation test of mean(d) = 0, two-sided: exact over all 2^n sign
 * patterns when n ≤ `exactMax`, else `samples` random patterns (+1 smoothing).
 */
export function signFlipTest(
  d: readonly number[],
  opts: { rng: Rng; exactMax?: number; samples?: number },
): { p: number; exact: boolean } {
  const n = d.length;
  const obs = Math.abs(d.reduce((a, b) => a + b, 0));
  const exactMax = opts.exactMax ?? 16;
  if (n <= exactMax) {
    let hits = 0;
    const total = 2 ** n;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += mask & (1 << i) ? -d[i]! : d[i]!;
      if (Math.abs(s) >= obs - 1e-12) hits++;
    }
    return { p: hits / total, exact: true };
  }
  const samples = opts.samples ?? 10000;
  let hits = 0;
  for (let r = 0; r < samples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += opts.rng.next() < 0.5 ? -d[i]! : d[i]!;
    if (Math.abs(s) >= obs - 1e-12) hits++;
  }
  return { p: (hits + 1) / (samples + 1), exact: false };
}
