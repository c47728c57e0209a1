/** Seeded bootstrap: percentile intervals, paired differences, and case-clustered resampling. */

import { UsageError } from '../errors.js';
import { mean } from './mean.js';
import { createRng, type Rng } from './rng.js';

/** Quantile with linear interpolation between order statistics (numpy's default, type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function percentileInterval(values: readonly number[], alpha = 0.05): [number, number] {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return [quantile(s, alpha / 2), quantile(s, 1 - alpha / 2)];
}

export interface BootstrapOptions {
  B?: number;
  seed?: number | string;
  alpha?: number;
}

export interface BootstrapResult {
  estimate: number;
  ci: [number, number];
  B: number;
}

function resample<T>(xs: readonly T[], rng: Rng): T[] {
  const out = new Array<T>(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = xs[rng.int(xs.length)]!;
  return out;
}

/** Percentile bootstrap of `stat` over items resampled with replacement. */
export function bootstrap<T>(
  items: readonly T[],
  stat: (sample: readonly T[]) => number,
  opts: BootstrapOptions = {},
): BootstrapResult {
  const B = opts.B ?? 2000;
  const rng = createRng(opts.seed ?? 0);
  const reps: number[] = [];
  for (let b = 0; b < B; b++) reps.push(stat(resample(items, rng)));
  return { estimate: stat(items), ci: percentileInterval(reps, opts.alpha), B };
}

/**
 * Paired bootstrap of mean(a) − mean(b) over paired items (e.g. two methods' per-film scores).
 * p is the two-sided share of replicates on the far side of 0 (doubled, capped at 1).
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  opts: BootstrapOptions = {},
): BootstrapResult & { p: number } {
  if (a.length !== b.length) throw new UsageError('paired bootstrap needs equal lengths');
  const d = a.map((v, i) => v - b[i]!);
  const B = opts.B ?? 2000;
  const rng = createRng(opts.seed ?? 0);
  const reps: number[] = [];
  for (let r = 0; r < B; r++) reps.push(mean(resample(d, rng)));
  const est = mean(d);
  const below = reps.filter((v) => v <= 0).length / B;
  const above = reps.filter((v) => v >= 0).length / B;
  return {
    estimate: est,
    ci: percentileInterval(reps, opts.alpha),
    B,
    p: Math.min(1, 2 * Math.min(below, above)),
  };
}

/**
 * Case-clustered bootstrap: resample whole clusters with replacement, keeping their items
 * together, then compute `stat` on the pooled items.
 */
export function clusteredBootstrap<T>(
  items: readonly T[],
  clusterOf: (item: T) => string,
  stat: (sample: readonly T[]) => number,
  opts: BootstrapOptions = {},
): BootstrapResult {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const k = clusterOf(it);
    const g = groups.get(k);
    if (g) g.push(it);
    else groups.set(k, [it]);
  }
  const keys = [...groups.keys()].sort();
  const B = opts.B ?? 2000;
  const rng = createRng(opts.seed ?? 0);
  const reps: number[] = [];
  for (let r = 0; r < B; r++) {
    const sample: T[] = [];
    for (let i = 0; i < keys.length; i++) sample.push(...groups.get(keys[rng.int(keys.length)]!)!);
    reps.push(stat(sample));
  }
  return { estimate: stat(items), ci: percentileInterval(reps, opts.alpha), B };
}
