/**
 * Camera motion per shot, from frame-to-frame global motion at low resolution (a perception
 * tool's summary for a judge, in the spirit of KeyFrame-Compass's auxiliary evidence).
 *
 * Frames are decoded grey at 96 px wide, 8 per second. For each consecutive pair the best global
 * model is chosen by the mean absolute difference over the frame's centre (an 8 px margin): a
 * translation (dx, dy) within ±6 px, where cur(x, y) ≈ prev(x + dx, y + dy), or a zoom by s about
 * the centre (0.90…1.10), where cur(p) ≈ prev(c + (p − c)/s). Per shot the steps are summed and
 * turned into rates: zoom when |log s| per second ≥ `zoomRate` (in when s > 1), else a pan (dx:
 * right when positive) or tilt (dy: down when positive) when the larger of |dx|, |dy| per second
 * is ≥ `panRate` of the frame width, else static.
 */

import { type SideFrames, streamFrames, type VideoFrame } from './frames.js';
import type { ShotResult } from './shot-options.js';
import type { VideoInfo } from './video-info.js';

export type CameraMotion =
  | 'static'
  | 'pan left'
  | 'pan right'
  | 'tilt up'
  | 'tilt down'
  | 'zoom in'
  | 'zoom out';

export interface MotionStep {
  dx: number;
  dy: number;
  /** Zoom factor; 1 when the step is a translation. */
  scale: number;
}

export interface ShotMotion {
  start_s: number;
  end_s: number;
  motion: CameraMotion;
  /** Translation per second as a fraction of the frame width / height; zoom as log-scale per second. */
  pan_per_s: number;
  tilt_per_s: number;
  zoom_per_s: number;
}

export interface MotionOptions {
  width: number;
  fps: number;
  panRate: number;
  zoomRate: number;
}

export const DEFAULT_MOTION_OPTIONS: MotionOptions = { width: 96, fps: 8, panRate: 0.04, zoomRate: 0.04 };

const MARGIN = 8;
const SHIFT = 6;
const SCALES = [0.9, 0.92, 0.94, 0.96, 0.98, 1.02, 1.04, 1.06, 1.08, 1.1];

/**
 * A candidate model: the pixel pairs (index in the current frame, index in the previous one) it
 * compares, only those that fall inside both frames.
 */
interface Model {
  step: MotionStep;
  curIdx: Int32Array;
  prevIdx: Int32Array;
}

/**
 * Mean absolute difference over a model's pixel pairs. Stops early, returning +∞, once the error
 * can no longer fall below `bound`: the partial sum only grows, so partial/n ≥ bound means the
 * whole mean is ≥ bound too (the same comparison, in the same floating point, as on the full sum),
 * and the choice of model is exactly the one a full evaluation of every candidate makes.
 */
function errorOf(prev: Uint8Array, cur: Uint8Array, m: Model, bound: number): number {
  const n = m.curIdx.length;
  if (!n) return Number.POSITIVE_INFINITY;
  const ci = m.curIdx;
  const pi = m.prevIdx;
  let s = 0;
  for (let k = 0; k < n; ) {
    const stop = Math.min(n, k + 256);
    for (; k < stop; k++) s += Math.abs(cur[ci[k]!]! - prev[pi[k]!]!);
    if (s / n >= bound) return Number.POSITIVE_INFINITY;
  }
  return s / n;
}

const models = new Map<string, { still: Model; candidates: Model[]; byStep: Map<string, Model> }>();

const stepKey = (s: MotionStep) => `${s.dx},${s.dy},${s.scale}`;

/** Index pairs of every candidate model for a frame size (built once per size). */
function modelsFor(w: number, h: number) {
  const key = `${w}x${h}`;
  let m = models.get(key);
  if (m) return m;
  const cur: number[] = [];
  for (let y = MARGIN; y < h - MARGIN; y++) for (let x = MARGIN; x < w - MARGIN; x++) cur.push(y * w + x);
  const model = (step: MotionStep, f: (x: number, y: number) => [number, number]): Model => {
    const c: number[] = [];
    const p: number[] = [];
    for (const i of cur) {
      const [sx, sy] = f(i % w, Math.floor(i / w));
      const ix = Math.round(sx);
      const iy = Math.round(sy);
      if (ix < 0 || iy < 0 || ix >= w || iy >= h) continue;
      c.push(i);
      p.push(iy * w + ix);
    }
    return { step, curIdx: Int32Array.from(c), prevIdx: Int32Array.from(p) };
  };
  const candidates: Model[] = [];
  for (let dy = -SHIFT; dy <= SHIFT; dy++)
    for (let dx = -SHIFT; dx <= SHIFT; dx++)
      if (dx || dy) candidates.push(model({ dx, dy, scale: 1 }, (x, y) => [x + dx, y + dy]));
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (const s of SCALES)
    candidates.push(model({ dx: 0, dy: 0, scale: s }, (x, y) => [cx + (x - cx) / s, cy + (y - cy) / s]));
  m = {
    still: model({ dx: 0, dy: 0, scale: 1 }, (x, y) => [x, y]),
    candidates,
    byStep: new Map(candidates.map((c) => [stepKey(c.step), c])),
  };
  models.set(key, m);
  return m;
}

/**
 * The global motion between two grey frames of the same size: the candidate with the least mean
 * absolute difference (the first in candidate order on a tie within 1e-9). `hint`, a step likely
 * to fit (the previous pair's), is measured first so that the others can stop early against its
 * error; the choice is the same with or without it. Each error is an integer sum over n pixels,
 * so two unequal errors differ by at least 1/n², above 1e-9 while n ≤ 31,000 (a 96 px frame has
 * ~3,000): then errors within 1e-9 are equal, the candidate chosen is the first of the least error
 * in candidate order, and a candidate whose error is above the hint's cannot be it. Larger frames
 * take no hint.
 */
export function globalMotion(
  prev: Uint8Array,
  cur: Uint8Array,
  w: number,
  h: number,
  hint?: MotionStep,
): MotionStep {
  const m = modelsFor(w, h);
  const still = errorOf(prev, cur, m.still, Number.POSITIVE_INFINITY);
  const hinted = hint && m.still.curIdx.length <= 31_000 ? m.byStep.get(stepKey(hint)) : undefined;
  const ceiling = Math.min(
    still,
    hinted ? errorOf(prev, cur, hinted, Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY,
  );
  let best: MotionStep = { dx: 0, dy: 0, scale: 1 };
  let bestErr = still;
  for (const c of m.candidates) {
    const e = errorOf(prev, cur, c, Math.min(bestErr - 1e-9, ceiling + 2e-9));
    if (e < bestErr - 1e-9) {
      bestErr = e;
      best = c.step;
    }
  }
  // a change too small to tell from noise is no motion
  return still - bestErr < 0.5 ? { dx: 0, dy: 0, scale: 1 } : { ...best };
}

export function classifyMotion(
  steps: readonly MotionStep[],
  seconds: number,
  width: number,
  height: number,
  o: Pick<MotionOptions, 'panRate' | 'zoomRate'> = DEFAULT_MOTION_OPTIONS,
): Omit<ShotMotion, 'start_s' | 'end_s'> {
  const t = Math.max(seconds, 1e-9);
  const pan = steps.reduce((s, x) => s + x.dx, 0) / width / t;
  const tilt = steps.reduce((s, x) => s + x.dy, 0) / height / t;
  const zoom = steps.reduce((s, x) => s + Math.log(x.scale), 0) / t;
  let motion: CameraMotion = 'static';
  if (Math.abs(zoom) >= o.zoomRate) motion = zoom > 0 ? 'zoom in' : 'zoom out';
  else if (Math.max(Math.abs(pan), Math.abs(tilt)) >= o.panRate)
    motion =
      Math.abs(pan) >= Math.abs(tilt)
        ? pan > 0
          ? 'pan right'
          : 'pan left'
        : tilt > 0
          ? 'tilt down'
          : 'tilt up';
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  return { motion, pan_per_s: r(pan), tilt_per_s: r(tilt), zoom_per_s: r(zoom) };
}

/** Camera motion of each shot (one decode, grey, small). */
export async function cameraMotion(
  info: VideoInfo,
  shots: Pick<ShotResult['shots'][number], 'start_s' | 'end_s'>[],
  options: Partial<MotionOptions> = {},
): Promise<ShotMotion[]> {
  const m = motionMeter(info, options);
  for await (const f of streamFrames(info, m.side.req, m.side.fmt)) m.side.onFrame(f);
  return m.shots(shots);
}

/**
 * Camera motion measured on frames someone else decodes: `side` is the request to add to that
 * decode (`streamFrames`'s side output: grey, small, at the motion rate), `shots` the result once
 * every frame has come — the same as `cameraMotion`'s.
 */
export function motionMeter(
  info: VideoInfo,
  options: Partial<MotionOptions> = {},
): {
  side: SideFrames;
  shots: (shots: Pick<ShotResult['shots'][number], 'start_s' | 'end_s'>[]) => ShotMotion[];
} {
  const o = { ...DEFAULT_MOTION_OPTIONS, ...options };
  const w = Math.min(o.width, info.width);
  const h = Math.max(16, Math.round((w * info.height) / info.width));
  const steps: { t: number; step: MotionStep }[] = [];
  let prev: { t: number; data: Uint8Array } | undefined;
  const onFrame = (f: VideoFrame) => {
    if (prev) steps.push({ t: f.time_s, step: globalMotion(prev.data, f.data, w, h, steps.at(-1)?.step) });
    prev = { t: f.time_s, data: f.data };
  };
  const shots = (list: Pick<ShotResult['shots'][number], 'start_s' | 'end_s'>[]) =>
    list.map((s) => {
      // only steps whose two frames lie inside the shot (never across its cut)
      const inside = steps.filter((x) => x.t - 1 / o.fps >= s.start_s - 1e-9 && x.t < s.end_s);
      return {
        start_s: s.start_s,
        end_s: s.end_s,
        ...classifyMotion(
          inside.map((x) => x.step),
          inside.length / o.fps,
          w,
          h,
          o,
        ),
      };
    });
  return {
    side: { req: { kind: 'rate', rate: o.fps }, fmt: { width: w, height: h, pixels: 'gray' }, onFrame },
    shots,
  };
}
