/**
 * Whether a run of changing frames s..e is a blend of its ends (`shot-gradual.ts`): a dissolve or
 * fade is; camera and subject motion is not. Each inner frame, projected onto the line from f_s
 * to f_e (or, for a fade through a flat colour, the two lines through the run's flattest frame),
 * leaves a residual, relative to |f_e − f_s|, whose median is ≤ `blendMax` — or, beside busy
 * footage (texture that changes every frame), the straight blend holds on 6×4 block means with
 * median residual ≤ `coarseBlendMax`; or a plain field's share falls in equal steps.
 */
import {
  BUSY,
  BUSY_STEP,
  blendResidual,
  coarseAlpha,
  flatness,
  meanAbsDiff,
  median,
  PLAIN_RAMP_MAX,
  RAMP_JUMP,
} from './shot-features.js';
import type { ShotFrames } from './shot-frames.js';
import type { ShotOptions } from './shot-options.js';

/**
 * Whether the footage just before s or just after e changes, frame to frame, by at least
 * BUSY × the run's whole change (mean absolute thumbnail differences): texture that moves
 * every frame, not a still or a slow pan.
 */
function busyBeside(F: ShotFrames, s: number, e: number): boolean {
  const beside = Math.max(F.step(s), F.step(s - 1), F.step(e + 1), F.step(e + 2));
  return beside >= BUSY * meanAbsDiff(F.thumbs[s]!, F.thumbs[e]!);
}

/** The footage at the run's non-flat end changes every frame (texture in motion). */
function busyFootage(F: ShotFrames, s: number, e: number): boolean {
  return F.flat[s]
    ? Math.max(F.step(e + 1), F.step(e + 2)) >= BUSY_STEP
    : Math.max(F.step(s), F.step(s - 1)) >= BUSY_STEP;
}

/**
 * The share of the non-flat end in each inner frame — its RMS difference from the flat end's
 * thumbnail against the other end's — follows the straight ramp from 0 to 1 (median error ≤
 * PLAIN_RAMP_MAX): a dissolve out of (or into) a plain field.
 */
function plainDissolve(F: ShotFrames, s: number, e: number, inner: number[]): boolean {
  const T = F.thumbs;
  const [c, far] = F.flat[s] ? [s, e] : [e, s];
  const rms = (t: Uint8Array) => {
    let q = 0;
    for (let k = 0; k < t.length; k++) q += (t[k]! - T[c]![k]!) ** 2;
    return Math.sqrt(q / t.length);
  };
  const full = rms(T[far]!);
  if (full === 0) return false;
  const err = inner.map((m) => Math.abs(rms(T[m]!) / full - Math.abs(m - c) / (e - s)));
  return median(err) <= PLAIN_RAMP_MAX;
}

/** A fade through a flat colour: two blends meeting at the run's flattest frame. */
function bentBlend(F: ShotFrames, s: number, e: number, inner: number[]): number {
  const T = F.thumbs;
  let via = inner[0]!;
  for (const m of inner) if (flatness(T[m]!) < flatness(T[via]!)) via = m;
  return median(
    inner
      .filter((m) => m !== via)
      .map((m) => (m < via ? blendResidual(T[s]!, T[via]!, T[m]!) : blendResidual(T[via]!, T[e]!, T[m]!))),
  );
}

export function isBlend(F: ShotFrames, o: ShotOptions, s: number, e: number): boolean {
  const T = F.thumbs;
  const inner: number[] = [];
  for (let m = s + 1; m < e; m++) inner.push(m);
  if (inner.length === 0) return false;
  if (median(inner.map((m) => blendResidual(T[s]!, T[e]!, T[m]!))) <= o.blendMax) return true;
  if (bentBlend(F, s, e, inner) <= o.blendMax) return true;
  // a dissolve between a plain (flat) shot and busy moving footage: no inner frame is a blend of
  // the run's ends (the footage moves under the blend), but its contrast against the plain field
  // grows in equal steps, as the plain shot's share falls
  if (F.flat[s] !== F.flat[e] && busyFootage(F, s, e) && plainDissolve(F, s, e, inner)) return true;
  // busy footage (texture that changes every frame) crossfades only at a coarser scale: a
  // straight blend of block means (not a bent one — a slide between two stills looks bent
  // there), tried only when the footage next to the run is busy
  if (!busyBeside(F, s, e)) return false;
  const C = F.coarse();
  return median(inner.map((m) => blendResidual(C[s]!, C[e]!, C[m]!))) <= o.coarseBlendMax;
}

/** The blend weight of each frame s..e on the coarse line from frame s to frame e. */
export function weights(F: ShotFrames, s: number, e: number): number[] {
  const C = F.coarse();
  const out: number[] = [];
  for (let m = s; m <= e; m++) out.push(coarseAlpha(C[s]!, C[e]!, C[m]!));
  return out;
}

/** The blend weight rises from the span's start to its end in steps of at most RAMP_JUMP. */
export function rampsUp(F: ShotFrames, s: number, e: number): boolean {
  const w = weights(F, s, e);
  for (let i = 1; i < w.length; i++)
    if (w[i]! - w[i - 1]! > RAMP_JUMP || w[i]! < w[i - 1]! - 0.25) return false;
  return true;
}
