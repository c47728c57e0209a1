/**
 * The shot detector's per-frame store (`shots.ts`): each frame's colour histogram, its distance h
 * to the previous frame's, its 24×14 luma thumbnail, flatness and mean colour, and its
 * motion-compensated content change (`shot-motion-diff.ts`), with the small frame-to-frame tests
 * the cut and gradual-transition finders share.
 */

import type { RawImage } from './raw.js';
import {
  coarsen,
  FLAT_VARIANCE,
  flatness,
  frameFeatures,
  histDistance,
  meanAbsDiff,
  RAMP_MAX,
} from './shot-features.js';
import { motionDiff, motionPlane, planeContrast } from './shot-motion-diff.js';

/** The features of every frame pushed so far, in order. */
export class ShotFrames {
  /** h[n]: histogram distance between frames n − 1 and n (or the change of mean level between two flat frames). */
  readonly h: number[] = [];
  readonly hists: Uint16Array[] = [];
  readonly thumbs: Uint8Array[] = [];
  readonly flat: boolean[] = [];
  private readonly means: number[][] = [];
  /** mc[n]: frame n's mean luma change from frame n − 1 moved by the best global shift (levels). */
  readonly mc: number[] = [];
  /** contrast[n]: frame n's mean absolute luma deviation on its motion plane (levels; low in dark or flat frames). */
  readonly contrast: number[] = [];
  private plane: Float32Array | undefined;
  private coarseThumbs: Uint8Array[] | undefined;
  pixels = 0;

  get length(): number {
    return this.h.length;
  }

  push(frame: RawImage): void {
    const { hist, thumb, mean } = frameFeatures(frame);
    this.pixels = frame.width * frame.height;
    const flat = flatness(thumb) < FLAT_VARIANCE;
    const prev = this.hists[this.hists.length - 1];
    const prevMean = this.means[this.means.length - 1];
    // two flat frames: a histogram of one spike jumps bins as the level ramps, so compare the levels
    this.h.push(
      !prev || !prevMean
        ? 0
        : flat && this.flat[this.flat.length - 1]
          ? Math.max(...mean.map((v, c) => Math.abs(v - prevMean[c]!))) / 255
          : histDistance(prev, hist, this.pixels),
    );
    const plane = motionPlane(frame);
    this.contrast.push(planeContrast(plane));
    this.mc.push(this.plane ? motionDiff(this.plane, plane) : 0);
    this.plane = plane;
    this.hists.push(hist);
    this.thumbs.push(thumb);
    this.flat.push(flat);
    this.means.push(mean);
  }

  /** The mean absolute difference between thumbnails k − 1 and k (0 outside the video). */
  step(k: number): number {
    const T = this.thumbs;
    return k >= 1 && k < T.length ? meanAbsDiff(T[k - 1]!, T[k]!) : 0;
  }

  /**
   * Frame n continues a straight pixel ramp from n−1 through n+1 (a crossfade or a fade, frame
   * by frame): its distance to the midpoint of its neighbours is small against its step from n−1.
   * A cut is not: its first frame already looks like the next, so that distance is half the step.
   */
  onRamp(n: number): boolean {
    const T = this.thumbs;
    if (n < 1 || n + 1 >= T.length) return false;
    const a = T[n - 1]!;
    const m = T[n]!;
    const b = T[n + 1]!;
    let step = 0;
    let off = 0;
    for (let k = 0; k < m.length; k++) {
      step += Math.abs(m[k]! - a[k]!);
      off += Math.abs(m[k]! - (a[k]! + b[k]!) / 2);
    }
    return step > 0 && off < RAMP_MAX * step;
  }

  /** The thumbnails averaged over 4×4 blocks (made on first use). */
  coarse(): Uint8Array[] {
    this.coarseThumbs ??= [];
    const C = this.coarseThumbs;
    for (let m = C.length; m < this.thumbs.length; m++) C.push(coarsen(this.thumbs[m]!));
    return C;
  }

  /** The mean of f(m) over ±w frames of n, leaving out n − 1..n + 1 (frames 1..N − 1). */
  localMean(n: number, w: number, f: (m: number) => number): number {
    let sum = 0;
    let cnt = 0;
    for (let m = Math.max(1, n - w); m <= Math.min(this.length - 1, n + w); m++) {
      if (Math.abs(m - n) <= 1) continue;
      sum += f(m);
      cnt++;
    }
    return cnt ? sum / cnt : 0;
  }
}
