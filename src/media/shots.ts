/**
 * Shot segmentation: hard cuts and gradual transitions (fades, dissolves) → shots [start, end).
 *
 * Features per frame, from small RGB frames decoded by one ffmpeg process (64×36):
 *  - a colour histogram (Y, Cb, Cr; 32 bins each); h[n] = total-variation distance between the
 *    histograms of frames n−1 and n, in [0, 1] — robust to camera motion, which moves content
 *    without changing its colour distribution much. Between two flat frames (luma variance < 16)
 *    h is the largest change of mean Y, Cb or Cr / 255 instead: a one-spike histogram jumps bins
 *    as a level ramps, which is not a change of content;
 *  - a 24×14 luma thumbnail, for the ramp and blend tests.
 * Cuts (in the spirit of PySceneDetect's AdaptiveDetector): h[n] ≥ `cutThreshold` and
 * h[n] ≥ `cutRatio` × the mean of h over ±`window` frames (excluding n−1..n+1) + 0.01, and frame
 * n is not on a ramp (its thumbnail is not near the midpoint of its neighbours': a crossfade or
 * fade moves in equal steps, a cut's first frame already looks like the next).
 * Gradual transitions (twin comparison, Zhang et al. 1993, with an adaptive floor): runs of
 * frames with h ≥ max(`gradualLow`, `gradualRatio` × the median of h over ±`baseline_s`, a window
 * that keeps its width near the end), gaps of one frame allowed and gaps of flat frames bridged
 * (a fade through black or white), split at cuts; a run from frame s to e (3 frames to
 * `maxGradual_s`) is a transition when its end frames differ by ≥ `gradualThreshold`, are not
 * both flat (a level ramp over a uniform field is one shot), and it is blend-like: each inner
 * frame, projected onto the line from f_s to f_e (or, for a fade through a flat colour, the two
 * lines through the run's flattest frame), leaves a residual, relative to |f_e − f_s|, whose
 * median is ≤ `blendMax` — or, when the footage beside the run is busy (texture that changes
 * every frame), the straight blend holds on 6×4 block means with median residual ≤
 * `coarseBlendMax`. A dissolve or fade is a blend of its ends; camera and subject motion is not.
 * A gradual transition's shot boundary is its middle frame. Boundaries closer than `minShot_s`
 * to the previous one are dropped. Times are the frames' presentation times when the caller
 * gives them (variable frame rate), else n/fps. Memory: about 530 bytes of features per frame
 * (decisions need the ±`baseline_s` neighbourhood), i.e. ~45 MB for an hour at 24 fps.
 */

import { streamFrames } from './frames.js';
import { probe, type VideoInfo } from './probe.js';
import type { RawImage } from './raw.js';
import {
  BUSY,
  BUSY_STEP,
  blendResidual,
  coarsen,
  FLAT_VARIANCE,
  flatness,
  frameFeatures,
  histDistance,
  meanAbsDiff,
  median,
  PLAIN_RAMP_MAX,
  RAMP_MAX,
  STRUCT_MIN,
  STRUCT_RATIO,
} from './shot-features.js';
import {
  DEFAULT_SHOT_OPTIONS,
  type Shot,
  type ShotOptions,
  type ShotResult,
  type Transition,
} from './shot-options.js';

export {
  DEFAULT_SHOT_OPTIONS,
  type Shot,
  type ShotOptions,
  type ShotResult,
  type Transition,
} from './shot-options.js';

/** Shot detector: push frames in order (features are kept compactly), then `finish`. */
export class ShotDetector {
  private readonly o: ShotOptions;
  private readonly h: number[] = [];
  private readonly hists: Uint16Array[] = [];
  private readonly thumbs: Uint8Array[] = [];
  private readonly flat: boolean[] = [];
  private readonly means: number[][] = [];
  private coarse: Uint8Array[] | undefined;
  /** Frame start times when the caller gives them (variable frame rate); else n/fps. */
  private readonly times: number[] = [];
  private pixels = 0;

  /**
   * `fps`: the (mean) frame rate, which turns the options' seconds into frame counts;
   * `lastDuration`: how long the last frame is shown, when times are given.
   */
  constructor(
    private readonly fps: number,
    options: Partial<ShotOptions> = {},
    private readonly lastDuration?: number,
  ) {
    this.o = { ...DEFAULT_SHOT_OPTIONS, ...options };
  }

  /** `time_s`: the frame's presentation time; give it for every frame of a variable-rate video. */
  push(frame: RawImage, time_s?: number): void {
    if (time_s !== undefined) this.times.push(time_s);
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
    this.hists.push(hist);
    this.thumbs.push(thumb);
    this.flat.push(flat);
    this.means.push(mean);
  }

  /**
   * Frame n continues a straight pixel ramp from n−1 through n+1 (a crossfade or a fade, frame
   * by frame): its distance to the midpoint of its neighbours is small against its step from n−1.
   * A cut is not: its first frame already looks like the next, so that distance is half the step.
   */
  private onRamp(n: number): boolean {
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

  private isCut(n: number): boolean {
    const { h, o } = this;
    const d = h[n]!;
    if (d < o.cutThreshold) return false;
    let sum = 0;
    let cnt = 0;
    for (let m = Math.max(1, n - o.window); m <= Math.min(h.length - 1, n + o.window); m++) {
      if (Math.abs(m - n) <= 1) continue;
      sum += h[m]!;
      cnt++;
    }
    return d >= o.cutRatio * (cnt ? sum / cnt : 0) + 0.01 && !this.onRamp(n);
  }

  /** Mean absolute difference of the thumbnails of frames n − 1 and n (levels). */
  private step(n: number): number {
    const T = this.thumbs;
    if (n < 1 || n >= T.length) return 0;
    let d = 0;
    for (let k = 0; k < T[n]!.length; k++) d += Math.abs(T[n]![k]! - T[n - 1]![k]!);
    return d / T[n]!.length;
  }

  /**
   * A cut between two shots of similar colour and brightness, whose histograms barely differ: the
   * picture itself jumps — its thumbnail change is at least STRUCT_MIN levels and STRUCT_RATIO ×
   * the mean change over ±`window` frames (excluding n−1..n+1) — and n is not on a ramp.
   */
  private isStructuralCut(n: number): boolean {
    const d = this.step(n);
    if (d < STRUCT_MIN) return false;
    let sum = 0;
    let cnt = 0;
    for (let m = Math.max(1, n - this.o.window); m <= Math.min(this.h.length - 1, n + this.o.window); m++) {
      if (Math.abs(m - n) <= 1) continue;
      sum += this.step(m);
      cnt++;
    }
    return d >= STRUCT_RATIO * (cnt ? sum / cnt : 0) + 1 && !this.onRamp(n);
  }

  /**
   * Whether the footage just before s or just after e changes, frame to frame, by at least
   * BUSY × the run's whole change (mean absolute thumbnail differences): texture that moves
   * every frame, not a still or a slow pan.
   */
  private busyBeside(s: number, e: number): boolean {
    const step = (k: number) => this.thumbStep(k);
    const beside = Math.max(step(s), step(s - 1), step(e + 1), step(e + 2));
    return beside >= BUSY * meanAbsDiff(this.thumbs[s]!, this.thumbs[e]!);
  }

  /** The mean absolute difference between thumbnails k − 1 and k (0 outside the video). */
  private thumbStep(k: number): number {
    const T = this.thumbs;
    return k >= 1 && k < T.length ? meanAbsDiff(T[k - 1]!, T[k]!) : 0;
  }

  /** The footage at the run's non-flat end changes every frame (texture in motion). */
  private busyFootage(s: number, e: number): boolean {
    const step = (k: number) => this.thumbStep(k);
    return this.flat[s]
      ? Math.max(step(e + 1), step(e + 2)) >= BUSY_STEP
      : Math.max(step(s), step(s - 1)) >= BUSY_STEP;
  }

  /**
   * The share of the non-flat end in each inner frame — its RMS difference from the flat end's
   * thumbnail against the other end's — follows the straight ramp from 0 to 1 (median error ≤
   * PLAIN_RAMP_MAX): a dissolve out of (or into) a plain field.
   */
  private plainDissolve(s: number, e: number, inner: number[]): boolean {
    const T = this.thumbs;
    const [c, far] = this.flat[s] ? [s, e] : [e, s];
    const rms = (t: Uint8Array) => {
      let q = 0;
      for (let k = 0; k < t.length; k++) q += (t[k]! - T[c]![k]!) ** 2;
      return Math.sqrt(q / t.length);
    };
    const full = rms(T[far]!);
    if (full === 0) return false;
    const err = inner.map((m) => {
      const share = rms(T[m]!) / full;
      const ramp = Math.abs(m - c) / (e - s);
      return Math.abs(share - ramp);
    });
    return median(err) <= PLAIN_RAMP_MAX;
  }

  private isBlend(s: number, e: number): boolean {
    const T = this.thumbs;
    const inner: number[] = [];
    for (let m = s + 1; m < e; m++) inner.push(m);
    if (inner.length === 0) return false;
    const straight = median(inner.map((m) => blendResidual(T[s]!, T[e]!, T[m]!)));
    if (straight <= this.o.blendMax) return true;
    // a fade through a flat colour: two blends meeting at the flattest frame
    let via = inner[0]!;
    for (const m of inner) if (flatness(T[m]!) < flatness(T[via]!)) via = m;
    const bent = median(
      inner
        .filter((m) => m !== via)
        .map((m) => (m < via ? blendResidual(T[s]!, T[via]!, T[m]!) : blendResidual(T[via]!, T[e]!, T[m]!))),
    );
    if (bent <= this.o.blendMax) return true;
    // a dissolve between a plain (flat) shot and busy moving footage: no inner frame is a blend of
    // the run's ends (the footage moves under the blend), but its contrast against the plain field
    // grows in equal steps, as the plain shot's share falls
    if (this.flat[s] !== this.flat[e] && this.busyFootage(s, e) && this.plainDissolve(s, e, inner))
      return true;
    // busy footage (texture that changes every frame) crossfades only at a coarser scale: a
    // straight blend of block means (not a bent one — a slide between two stills looks bent
    // there), tried only when the footage next to the run is busy
    if (!this.busyBeside(s, e)) return false;
    this.coarse ??= [];
    for (let m = this.coarse.length; m < T.length; m++) this.coarse.push(coarsen(T[m]!));
    const C = this.coarse;
    return median(inner.map((m) => blendResidual(C[s]!, C[e]!, C[m]!))) <= this.o.coarseBlendMax;
  }

  finish(): ShotResult {
    const { h, o } = this;
    const N = h.length;
    const cutSet = new Set<number>();
    for (let n = 1; n < N; n++) if (this.isCut(n) || this.isStructuralCut(n)) cutSet.add(n);

    // adaptive floor from the local median of h over ±baseline_s (the window is wider than the
    // longest transition, so transition frames stay a minority; near the end of the video it is
    // shifted inwards to keep its width, as a long fade-out often ends a film)
    const half = Math.max(4, Math.round(o.baseline_s * this.fps));
    const marked: boolean[] = new Array(N).fill(false);
    // the window's bounds only move forward: keep it sorted (binary insert and remove, no re-sort)
    const win: number[] = [];
    const slot = (v: number) => {
      let a = 0;
      let b = win.length;
      while (a < b) {
        const m = (a + b) >> 1;
        if (win[m]! < v) a = m + 1;
        else b = m;
      }
      return a;
    };
    let wLo = 1;
    let wHi = 0; // window = h[wLo..wHi]
    for (let n = 1; n < N; n++) {
      let lo = Math.max(1, n - half);
      const hi = Math.min(N - 1, n + half);
      if (hi === N - 1) lo = Math.max(1, N - 1 - 2 * half);
      while (wHi < hi) win.splice(slot(h[++wHi]!), 0, h[wHi]!);
      while (wLo < lo) win.splice(slot(h[wLo++]!), 1);
      if (cutSet.has(n)) continue;
      const L = win.length;
      const med = L % 2 ? win[L >> 1]! : (win[(L >> 1) - 1]! + win[L >> 1]!) / 2;
      const floor = Math.max(o.gradualLow, o.gradualRatio * med);
      marked[n] = h[n]! >= floor;
    }
    const maxLen = Math.max(3, Math.round(o.maxGradual_s * this.fps));
    const gradual: Transition[] = [];
    let n = 1;
    while (n < N) {
      if (!marked[n]) {
        n++;
        continue;
      }
      const r0 = n;
      let r1 = n;
      let m = n + 1;
      // a fade through a flat field: its flat middle barely changes, so the run bridges flat frames
      const bridge = (k: number) => {
        let g = k;
        while (g < N && g - r0 <= maxLen && this.flat[g] && !marked[g] && !cutSet.has(g)) g++;
        return g > k && g < N && marked[g]! && !cutSet.has(g) && g - r0 <= maxLen;
      };
      while (
        m < N &&
        !cutSet.has(m) &&
        (marked[m] || (m + 1 < N && marked[m + 1] && !cutSet.has(m + 1)) || bridge(m))
      ) {
        if (marked[m]) r1 = m;
        m++;
      }
      n = m;
      const s = r0 - 1;
      const e = r1;
      if (s === 0 || e - s < 3 || e - s > maxLen) continue;
      if (histDistance(this.hists[s]!, this.hists[e]!, this.pixels) < o.gradualThreshold) continue;
      if (this.flat[s] && this.flat[e]) continue; // a level ramp over a flat field: one shot
      if (!this.isBlend(s, e)) continue;
      gradual.push({ kind: 'gradual', start_frame: s + 1, end_frame: e });
    }

    const transitions: Transition[] = [
      ...[...cutSet].map((c) => ({ kind: 'cut' as const, start_frame: c, end_frame: c })),
      ...gradual,
    ].sort((a, b) => a.start_frame - b.start_frame);
    const minShot = Math.max(1, Math.round(o.minShot_s * this.fps));
    const boundaries: number[] = [];
    const kept: Transition[] = [];
    let last = 0;
    for (const t of transitions) {
      const b = t.kind === 'cut' ? t.start_frame : Math.floor((t.start_frame + t.end_frame + 1) / 2);
      if (b - last < minShot || N - b < 1) continue;
      boundaries.push(b);
      kept.push(t);
      last = b;
    }
    const edges = [0, ...boundaries, N];
    const real = this.times.length === N && N > 0;
    const at = (f: number) =>
      !real
        ? f / this.fps
        : f < N
          ? this.times[f]!
          : this.times[N - 1]! + (this.lastDuration ?? 1 / this.fps);
    const shots: Shot[] = [];
    for (let i = 0; i + 1 < edges.length; i++) {
      const s = edges[i]!;
      const e = edges[i + 1]!;
      shots.push({ start_frame: s, end_frame: e, start_s: at(s), end_s: at(e) });
    }
    return { shots, transitions: kept, frames: N, fps: this.fps };
  }
}

/** Decode a video once at 64×36 and segment it into shots. */
export async function detectShots(
  info: VideoInfo,
  options: Partial<ShotOptions> = {},
  signal?: AbortSignal,
): Promise<ShotResult> {
  const last = info.times ? info.duration_s - info.times[info.times.length - 1]! : undefined;
  const det = new ShotDetector(info.mean_fps, options, last);
  for await (const f of streamFrames(
    info,
    { kind: 'all' },
    { width: 64, height: 36, pixels: 'rgb' },
    signal,
  )) {
    det.push(f, info.times ? f.time_s : undefined);
  }
  return det.finish();
}

/** Probe a video file and segment it into shots (`media shots`). */
export async function detectShotsInFile(
  file: string,
  options: Partial<ShotOptions> = {},
): Promise<ShotResult> {
  return detectShots(await probe(file), options);
}
