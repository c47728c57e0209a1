/**
 * Gradual transitions (`shots.ts`): twin comparison (Zhang, Kankanhalli and Smoliar, 1993) with an
 * adaptive floor.
 * Frames with h ≥ max(`gradualLow`, `gradualRatio` × the median of h over ±`baseline_s`, a window
 * that keeps its width near the end) are marked; runs of marked frames, gaps of one frame allowed
 * and gaps of flat frames bridged (a fade through black or white), split at cuts, from frame s to
 * e (3 frames to `maxGradual_s`) are transitions when their end frames differ by ≥
 * `gradualThreshold`, are not both flat (a level ramp over a uniform field is one shot), and the
 * run is a blend of its ends (`shot-blend.ts`) — or, when not, the run without a lone last frame
 * past a one-frame gap whose blend weight rises steadily (`blendOfRun`).
 */
import { isBlend, rampsUp } from './shot-blend.js';
import { histDistance } from './shot-features.js';
import type { ShotFrames } from './shot-frames.js';
import type { ShotOptions, Transition } from './shot-options.js';

/** A sorted window of numbers whose bounds only move forward (binary insert and remove). */
class SortedWindow {
  private readonly xs: number[] = [];
  private slot(v: number): number {
    let a = 0;
    let b = this.xs.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (this.xs[m]! < v) a = m + 1;
      else b = m;
    }
    return a;
  }
  add(v: number): void {
    this.xs.splice(this.slot(v), 0, v);
  }
  remove(v: number): void {
    this.xs.splice(this.slot(v), 1);
  }
  median(): number {
    const L = this.xs.length;
    return L % 2 ? this.xs[L >> 1]! : (this.xs[(L >> 1) - 1]! + this.xs[L >> 1]!) / 2;
  }
}

/**
 * Frames whose h reaches the adaptive floor (the window over ±baseline_s is wider than the longest
 * transition, so transition frames stay a minority; near the end of the video it is shifted
 * inwards to keep its width, as a long fade-out often ends a film). Cut frames are not marked.
 */
function markChanging(F: ShotFrames, o: ShotOptions, fps: number, cuts: Set<number>): boolean[] {
  const { h } = F;
  const N = F.length;
  const half = Math.max(4, Math.round(o.baseline_s * fps));
  const marked: boolean[] = new Array(N).fill(false);
  const win = new SortedWindow();
  let wLo = 1;
  let wHi = 0; // window = h[wLo..wHi]
  for (let n = 1; n < N; n++) {
    let lo = Math.max(1, n - half);
    const hi = Math.min(N - 1, n + half);
    if (hi === N - 1) lo = Math.max(1, N - 1 - 2 * half);
    while (wHi < hi) win.add(h[++wHi]!);
    while (wLo < lo) win.remove(h[wLo++]!);
    if (cuts.has(n)) continue;
    marked[n] = h[n]! >= Math.max(o.gradualLow, o.gradualRatio * win.median());
  }
  return marked;
}

/** Runs of marked frames [r0, r1]: one-frame gaps allowed, flat gaps bridged, split at cuts. */
function changingRuns(
  F: ShotFrames,
  marked: boolean[],
  cuts: Set<number>,
  maxLen: number,
): [number, number][] {
  const N = F.length;
  const runs: [number, number][] = [];
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
      while (g < N && g - r0 <= maxLen && F.flat[g] && !marked[g] && !cuts.has(g)) g++;
      return g > k && g < N && marked[g]! && !cuts.has(g) && g - r0 <= maxLen;
    };
    while (
      m < N &&
      !cuts.has(m) &&
      (marked[m] || (m + 1 < N && marked[m + 1] && !cuts.has(m + 1)) || bridge(m))
    ) {
      if (marked[m]) r1 = m;
      m++;
    }
    n = m;
    runs.push([r0, r1]);
  }
  return runs;
}

/** Whether frames s..e (s the last frame before the change) make one gradual transition. */
export function isGradual(F: ShotFrames, o: ShotOptions, s: number, e: number, maxLen: number): boolean {
  if (s <= 0 || e - s < 3 || e - s > maxLen || e >= F.length) return false;
  if (histDistance(F.hists[s]!, F.hists[e]!, F.pixels) < o.gradualThreshold) return false;
  if (F.flat[s] && F.flat[e]) return false; // a level ramp over a flat field: one shot
  return isBlend(F, o, s, e);
}

/** The gradual transitions between the cuts. */
export function findGradual(F: ShotFrames, o: ShotOptions, fps: number, cuts: Set<number>): Transition[] {
  const maxLen = Math.max(3, Math.round(o.maxGradual_s * fps));
  const marked = markChanging(F, o, fps, cuts);
  const gradual: Transition[] = [];
  for (const [r0, r1] of changingRuns(F, marked, cuts, maxLen)) {
    const run = blendOfRun(F, o, marked, r0, r1, maxLen);
    if (run) gradual.push({ kind: 'gradual', start_frame: run[0], end_frame: run[1] });
  }
  return gradual;
}

/**
 * The run r0..r1 as a transition, or else the run without its last (or first) piece beyond a
 * one-frame gap: a frame a rate conversion drops right after a dissolve into a fast pan makes a
 * large step in the pan, which the gap joins to the run though it is no blend (issue 48 item 1,
 * "A dissolve of any length, into any content, is one gradual transition"; crossfades.mp4's 0.4 s
 * dissolve sampled at 24 fps of 25).
 */
function blendOfRun(
  F: ShotFrames,
  o: ShotOptions,
  marked: boolean[],
  r0: number,
  r1: number,
  maxLen: number,
): [number, number] | undefined {
  if (isGradual(F, o, r0 - 1, r1, maxLen)) return [r0, r1];
  // the last frame alone past a one-frame gap, when what is left rises steadily from one end to
  // the other (a flicker between two pictures is on their line too, but goes back and forth)
  const e = r1 - 2;
  if (
    e - 2 > r0 &&
    !marked[r1 - 1] &&
    marked[e] &&
    rampsUp(F, r0 - 1, e) &&
    isGradual(F, o, r0 - 1, e, maxLen)
  )
    return [r0, e];
  return undefined;
}
