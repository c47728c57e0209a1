/**
 * Where the video places each keyframe (SPEC §3.2), from a scan's similarity curves:
 *  - f*(k): the sampled frame with the highest cosine (ties: the earliest); matched when ≥ γ;
 *  - runs: maximal runs of frames with similarity ≥ γ;
 *  - the placing run: the earliest run whose best is within `holdEps` of the overall best (a
 *    repetition is uniqueness's business, not ordering's);
 *  - the hold: the frames around that run's best whose similarity is within `holdEps` of the
 *    overall best. Stage 2 (`stage2.ts`) refines the placing run when the scan holds its
 *    refinement of that same run: f*(k) is then the frame most like the keyframe in pixels, and
 *    the hold the frames matching the keyframe as well as it does; KFS's frame is chosen as
 *    fidelity.ts says. Presence, the runs (persistence, uniqueness) and which run places the
 *    keyframe stay stage 1's.
 * t(k) is always a frame's presentation timestamp, never a frame's middle (`placeAt`):
 *  - `hold` (default): with a target time (one-take), the hold's frame nearest the target — the
 *    frame shown at the target when the hold is on screen then ("if the keyframe holds over an
 *    interval that contains its target, the video showed it at its target", issue 56: calm
 *    footage, a frozen frame); without one (multi-shot), f*(k)'s own time;
 *  - `peak`: f*(k)'s own time always (the seed's argmax taken literally).
 * So an exact copy is placed exactly at its targets, and a copy delayed by N frames N/fps later.
 */

import { InternalError } from '../../errors.js';
import { argmaxIn, type FrameRun, placingRun, runsAtLeast } from '../scan/runs.js';
import type { Scan } from '../schemas/scan.js';
import type { PlaceAt, ResponseOptions } from './options.js';

export interface Placement {
  matched: boolean;
  /** f*: index of the best frame. */
  peak: number;
  cos: number;
  /** Time of f* (start of its interval). */
  t_peak_s: number;
  /** t(k), a frame's presentation time, or null when unmatched. */
  t_s: number | null;
  /**
   * When the target lies where the hold is on screen ([its first frame's time, its last frame's
   * end)) and t(k) is read from the hold: the video showed the keyframe at its target
   * (localization's distance is 0).
   */
  atTarget?: boolean | undefined;
  hold: FrameRun | null;
  /** The γ-run around f* (persistence). */
  peakRun: FrameRun | null;
  /** All γ-runs, in time order. */
  runs: FrameRun[];
  /** Stage 2's f*(k), its pixel score and its own cosine (null: not sampled), when it refined the placing run. */
  refined?: { frame: number; psnr_db: number | null; ssim: number; cos: number | null } | undefined;
}

/** The maximal run around `j` of frames with similarity ≥ `floor`. */
function around(s: readonly number[], j: number, floor: number): FrameRun {
  let a = j;
  let b = j;
  while (a > 0 && s[a - 1]! >= floor) a--;
  while (b + 1 < s.length && s[b + 1]! >= floor) b++;
  return [a, b];
}

export function place(
  scan: Scan,
  k: number,
  gamma: number,
  o: Pick<ResponseOptions, 'holdEps' | 'placeAt'>,
  /** The keyframe's target time (one-take), when it has one. */
  target?: number,
): Placement {
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
  const star = argmaxIn(s, placing[0], placing[1]);
  const hold = around(s, star, best - o.holdEps);
  const peakRun = around(s, peak, gamma);
  const r = scan.refined?.[k];
  if (r && r.run[0] === placing[0] && r.run[1] === placing[1]) {
    const refined = { frame: r.frame, psnr_db: r.psnr_db, ssim: r.ssim, cos: r.cos };
    // the hold's frames at the video's own rate: [first, last] frame numbers, shown over hold_s
    const at = timeIn(o.placeAt, target, r.t_s, r.hold_s, (t) => refinedFrameAt(scan, r, t));
    return { matched: true, peak, cos: best, t_peak_s: r.t_s, ...at, hold, peakRun, runs, refined };
  }
  const span: [number, number] = [scan.times[hold[0]]!, frameEnd(scan, hold[1])];
  const at = timeIn(o.placeAt, target, scan.times[star]!, span, (t) => sampledFrameAt(scan, hold, t));
  return { matched: true, peak, cos: best, t_peak_s, ...at, hold, peakRun, runs };
}

/** t(k) by `placeAt` (see the file's comment), from f*'s time, the hold's span and its frame at a time. */
function timeIn(
  placeAt: PlaceAt,
  target: number | undefined,
  tStar: number,
  span: readonly [number, number],
  frameAt: (t: number) => number,
): { t_s: number; atTarget?: boolean } {
  if (placeAt === 'peak' || target === undefined) return { t_s: tStar };
  if (target < span[0]) return { t_s: span[0] };
  if (target >= span[1]) return { t_s: frameAt(span[1]) };
  return { t_s: frameAt(target), atTarget: true };
}

/** The time of the hold's last sampled frame shown at or before `t` (`hold` sampled frames). */
function sampledFrameAt(scan: Scan, hold: FrameRun, t: number): number {
  let j = hold[0];
  while (j < hold[1] && scan.times[j + 1]! <= t + 1e-9) j++;
  return scan.times[j]!;
}

/**
 * The time of the refined hold's frame shown at `t` (or its last frame, at the hold's end): at a
 * constant rate frame i of the hold starts i/fps after the first; in a variable-rate video the
 * file's own frame times say (`video.frame_times`).
 */
function refinedFrameAt(
  scan: Scan,
  r: { hold: readonly number[]; hold_s: readonly number[] },
  t: number,
): number {
  const [h0, h1] = r.hold as [number, number];
  const start = r.hold_s[0]!;
  const times = scan.video.frame_times;
  if (scan.video.vfr && times) {
    let n = h0;
    while (n < h1 && times[n + 1]! <= t + 1e-9) n++;
    return times[n]!;
  }
  const i = Math.min(h1 - h0, Math.max(0, Math.floor((t - start) * scan.video.fps + 1e-6)));
  return start + i / scan.video.fps;
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
