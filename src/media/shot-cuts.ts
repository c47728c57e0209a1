/**
 * Hard cuts (`shots.ts`), in the spirit of PySceneDetect's AdaptiveDetector: a frame whose change
 * from the previous one stands out from its neighbours' changes (±`window` frames, leaving out
 * n − 1..n + 1) and that is not on a ramp (a crossfade or fade moves in equal steps; a cut's first
 * frame already looks like the next). Three changes are read:
 *  - the colour histogram distance h: a change of colour (robust to camera motion);
 *  - the thumbnail change: a cut between shots of similar colour and brightness;
 *  - the motion-compensated change (`shot-motion-diff.ts`): a cut between shots of one palette
 *    and one motion (issue 48 item 2: "the shot detector's features must separate a change of
 *    content from a change of motion"), where both others change as much every frame.
 * Issue 56 item 6 (at least as good as PySceneDetect's AdaptiveDetector, which compares a frame's
 * change with the mean of its ±2 neighbours, n ± 1 included):
 *  - the thumbnail test's change is one frame's: also ≥ SPIKE × the change into the frame before
 *    and out of the frame after, and the motion-compensated change rises with it (≥ STRUCT_MOTION ×
 *    its neighbours' mean + 1) — a short camera jerk (two or three frames of fast motion, behind a
 *    window reflection) moves the thumbnail as much as a cut, but over a run of frames that a
 *    global shift explains;
 *  - in dark or flat footage the motion test's floor is the two frames' contrast (the plane's mean
 *    absolute deviation) when that is below MOTION_MIN: a cut between two dark shots of similar
 *    tone changes every level a little, against neighbours that change them less still.
 */

import { MOTION_MIN, MOTION_RATIO, SPIKE, STRUCT_MIN, STRUCT_MOTION, STRUCT_RATIO } from './shot-features.js';
import type { ShotFrames } from './shot-frames.js';
import type { ShotOptions } from './shot-options.js';

/** f(n) is at least SPIKE × f(n − 1) and f(n + 1): one frame's change, not a run of them. */
function isSpike(F: ShotFrames, n: number, f: (m: number) => number): boolean {
  const before = n > 1 ? f(n - 1) : 0;
  const after = n + 1 < F.length ? f(n + 1) : 0;
  return f(n) >= SPIKE * Math.max(before, after);
}

const hist = (F: ShotFrames) => (m: number) => F.h[m]!;
const motion = (F: ShotFrames) => (m: number) => F.mc[m]!;

function isHistCut(F: ShotFrames, o: ShotOptions, n: number): boolean {
  const d = F.h[n]!;
  if (d < o.cutThreshold) return false;
  return d >= o.cutRatio * F.localMean(n, o.window, hist(F)) + 0.01;
}

/** The thumbnail jumps by ≥ STRUCT_MIN levels and STRUCT_RATIO × its neighbours' changes. */
function isStructuralCut(F: ShotFrames, o: ShotOptions, n: number): boolean {
  const d = F.step(n);
  if (d < STRUCT_MIN) return false;
  if (d < STRUCT_RATIO * F.localMean(n, o.window, (m) => F.step(m)) + 1) return false;
  if (!isSpike(F, n, (m) => F.step(m))) return false;
  return F.mc[n]! >= STRUCT_MOTION * (F.localMean(n, o.window, motion(F)) + 1);
}

/**
 * No shift of the previous frame explains this one: the motion-compensated change is ≥ MOTION_MIN
 * levels (or the two frames' contrast, when lower) and MOTION_RATIO × (its neighbours' mean + 1).
 */
function isMotionCut(F: ShotFrames, o: ShotOptions, n: number): boolean {
  const d = F.mc[n]!;
  if (d < Math.min(MOTION_MIN, F.contrast[n - 1]!, F.contrast[n]!)) return false;
  return d >= MOTION_RATIO * (F.localMean(n, o.window, motion(F)) + 1);
}

/** Every frame that starts a new shot by a hard cut. */
export function findCuts(F: ShotFrames, o: ShotOptions): Set<number> {
  const cuts = new Set<number>();
  for (let n = 1; n < F.length; n++)
    if ((isHistCut(F, o, n) || isStructuralCut(F, o, n) || isMotionCut(F, o, n)) && !F.onRamp(n)) cuts.add(n);
  return cuts;
}
