/**
 * Transitions → shots (`shots.ts`): a cut's boundary is its first frame, a gradual transition's
 * its middle frame; a boundary closer than `minShot_s` to the previous one is dropped. Times are
 * the frames' presentation times when given (variable frame rate), else n/fps.
 */
import type { Shot, ShotOptions, ShotResult, Transition } from './shot-options.js';

export interface Timing {
  fps: number;
  frames: number;
  /** Each frame's presentation time, when the video has a variable rate. */
  times: readonly number[];
  /** How long the last frame is shown, when times are given. */
  lastDuration?: number;
}

export function shotsOf(transitions: Transition[], o: ShotOptions, t: Timing): ShotResult {
  const N = t.frames;
  const sorted = [...transitions].sort((a, b) => a.start_frame - b.start_frame);
  const minShot = Math.max(1, Math.round(o.minShot_s * t.fps));
  const boundaries: number[] = [];
  const kept: Transition[] = [];
  let last = 0;
  for (const x of sorted) {
    const b = x.kind === 'cut' ? x.start_frame : Math.floor((x.start_frame + x.end_frame + 1) / 2);
    if (b - last < minShot || N - b < 1) continue;
    boundaries.push(b);
    kept.push(x);
    last = b;
  }
  const edges = [0, ...boundaries, N];
  const real = t.times.length === N && N > 0;
  const at = (f: number) =>
    !real ? f / t.fps : f < N ? t.times[f]! : t.times[N - 1]! + (t.lastDuration ?? 1 / t.fps);
  const shots: Shot[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const s = edges[i]!;
    const e = edges[i + 1]!;
    shots.push({ start_frame: s, end_frame: e, start_s: at(s), end_s: at(e) });
  }
  return { shots, transitions: kept, frames: N, fps: t.fps };
}
