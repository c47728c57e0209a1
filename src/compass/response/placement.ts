/**
 * Where the video places each keyframe (SPEC §3.2), from a scan's similarity curves:
 *  - f*(k): the sampled frame with the highest cosine (ties: the earliest); matched when ≥ γ;
 *  - runs: maximal runs of frames with similarity ≥ γ;
 *  - the placing run: the earliest run whose best is within `holdEps` of the overall best (a
 *    repetition is uniqueness's business, not ordering's);
 *  - the hold: the frames around that run's best whose similarity is within `holdEps` of the
 *    overall best; t(k) is the middle of the hold's time span (frame j lasts [t_j, t_j + 1/fps), or until
 *    the next frame's time in a variable-rate video).
 * Stage 2 (`stage2.ts`) refines the placing run when the scan holds its refinement of that same
 * run: t(k) is then the middle of the hold around the frame most like the keyframe in pixels (the
 * frames matching the keyframe as well as it does), and KFS's frame is chosen as fidelity.ts says. Presence, the runs (persistence,
 * uniqueness) and which run places the keyframe stay stage 1's.
 */

import { InternalError } from '../../errors.js';
import type { Scan } from '../results.js';
import type { ResponseOptions } from './options.js';

/** Inclusive range of sampled-frame indices. */
export type FrameRun = readonly [number, number];

export interface Placement {
  matched: boolean;
  /** f*: index of the best frame. */
  peak: number;
  cos: number;
  /** Time of f* (start of its interval). */
  t_peak_s: number;
  /** t(k), or null when unmatched. */
  t_s: number | null;
  hold: FrameRun | null;
  /** The γ-run around f* (persistence). */
  peakRun: FrameRun | null;
  /** All γ-runs, in time order. */
  runs: FrameRun[];
  /** Stage 2's f*(k), its pixel score and its own cosine (null: not sampled), when it refined the placing run. */
  refined?: { frame: number; psnr_db: number | null; ssim: number; cos: number | null } | undefined;
}

export function runsAtLeast(s: readonly number[], threshold: number): FrameRun[] {
  const out: FrameRun[] = [];
  let start = -1;
  for (let j = 0; j <= s.length; j++) {
    const on = j < s.length && s[j]! >= threshold;
    if (on && start < 0) start = j;
    if (!on && start >= 0) {
      out.push([start, j - 1]);
      start = -1;
    }
  }
  return out;
}

function argmaxIn(s: readonly number[], a: number, b: number): number {
  let best = a;
  for (let j = a + 1; j <= b; j++) if (s[j]! > s[best]!) best = j;
  return best;
}

/** The maximal run around `j` of frames with similarity ≥ `floor`. */
function around(s: readonly number[], j: number, floor: number): FrameRun {
  let a = j;
  let b = j;
  while (a > 0 && s[a - 1]! >= floor) a--;
  while (b + 1 < s.length && s[b + 1]! >= floor) b++;
  return [a, b];
}

/**
 * The run that places a keyframe: the earliest γ-run whose best is within `holdEps` of the overall
 * best; null when the best is below γ (unmatched).
 */
export function placingRun(s: readonly number[], gamma: number, holdEps: number): FrameRun | null {
  if (s.length === 0) return null;
  const best = s[argmaxIn(s, 0, s.length - 1)]!;
  if (!(best >= gamma)) return null;
  return runsAtLeast(s, gamma).find(([a, b]) => s[argmaxIn(s, a, b)]! >= best - holdEps) ?? null;
}

export function place(scan: Scan, k: number, gamma: number, o: Pick<ResponseOptions, 'holdEps'>): Placement {
  const s = scan.sims[k];
  if (!s)
    throw new InternalError(
      `the scan holds no similarity curve for keyframe ${k} (it holds ${scan.sims.length})`,
    );
  const peak = argmaxIn(s, 0, s.length - 1);
  const best = s[peak]!;
  const t_peak_s = scan.times[peak]!;
  if (!(best >= gamma)) {
    return { matched: false, peak, cos: best, t_peak_s, t_s: null, hold: null, peakRun: null, runs: [] };
  }
  const runs = runsAtLeast(s, gamma);
  const placing = placingRun(s, gamma, o.holdEps)!;
  const hold = around(s, argmaxIn(s, placing[0], placing[1]), best - o.holdEps);
  const peakRun = around(s, peak, gamma);
  const r = scan.refined?.[k];
  if (r && r.run[0] === placing[0] && r.run[1] === placing[1]) {
    const t_s = (r.hold_s[0] + r.hold_s[1]) / 2;
    const refined = { frame: r.frame, psnr_db: r.psnr_db, ssim: r.ssim, cos: r.cos };
    return { matched: true, peak, cos: best, t_peak_s: r.t_s, t_s, hold, peakRun, runs, refined };
  }
  const t_s = (scan.times[hold[0]]! + frameEnd(scan, hold[1])) / 2;
  return { matched: true, peak, cos: best, t_peak_s, t_s, hold, peakRun, runs };
}

/** Time span [start, end) of a run of sampled frames. */
export function runSpan(scan: Scan, r: FrameRun): [number, number] {
  return [scan.times[r[0]]!, frameEnd(scan, r[1])];
}

/** End of sampled frame j's interval: the next frame's time in a variable-rate video, else + 1/fps. */
export function frameEnd(scan: Scan, j: number): number {
  if (scan.video.vfr && j + 1 < scan.times.length) return scan.times[j + 1]!;
  return scan.times[j]! + 1 / scan.sample_fps;
}
