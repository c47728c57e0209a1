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
 */

import { MOTION_MIN, MOTION_RATIO, STRUCT_MIN, STRUCT_RATIO } from './shot-features.js';
import type { ShotFrames } from './shot-frames.js';
import type { ShotOptions } from './shot-options.js';

function isHistCut(F: ShotFrames, o: ShotOptions, n: number): boolean {
  const d = F.h[n]!;
  if (d < o.cutThreshold) return false;
  return d >= o.cutRatio * F.localMean(n, o.window, (m) => F.h[m]!) + 0.01;
}

/** The thumbnail jumps by ≥ STRUCT_MIN levels and STRUCT_RATIO × its neighbours' changes. */
function isStructuralCut(F: ShotFrames, o: ShotOptions, n: number): boolean {
  const d = F.step(n);
  if (d < STRUCT_MIN) return false;
  return d >= STRUCT_RATIO * F.localMean(n, o.window, (m) => F.step(m)) + 1;
}

/**
 * No shift of the previous frame explains this one: the motion-compensated change is ≥ MOTION_MIN
 * levels and MOTION_RATIO × (its neighbours' mean + 1).
 */
function isMotionCut(F: ShotFrames, o: ShotOptions, n: number): boolean {
  const d = F.mc[n]!;
  if (d < MOTION_MIN) return false;
  return d >= MOTION_RATIO * (F.localMean(n, o.window, (m) => F.mc[m]!) + 1);
}

/** Every frame that starts a new shot by a hard cut. */
export function findCuts(F: ShotFrames, o: ShotOptions): Set<number> {
  const cuts = new Set<number>();
  for (let n = 1; n < F.length; n++)
    if ((isHistCut(F, o, n) || isStructuralCut(F, o, n) || isMotionCut(F, o, n)) && !F.onRamp(n)) cuts.add(n);
  return cuts;
}
