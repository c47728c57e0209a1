/**
 * Shot segmentation: hard cuts and gradual transitions (fades, dissolves) → shots [start, end).
 *
 * Features per frame (`shot-frames.ts`), from small RGB frames decoded by one ffmpeg process
 * (64×36): a colour histogram (Y, Cb, Cr; 32 bins each) and its total-variation distance h[n]
 * between frames n−1 and n, in [0, 1] — robust to camera motion, which moves content without
 * changing its colour distribution much (between two flat frames, luma variance < 16, the largest
 * change of mean Y, Cb or Cr / 255 instead: a one-spike histogram jumps bins as a level ramps);
 * a 24×14 luma thumbnail, for the ramp and blend tests; and the motion-compensated change, frame n
 * against frame n−1 moved by the best global shift (`shot-motion-diff.ts`), a change of content
 * that a change of motion does not make.
 * Then, in order:
 *  - cuts (`shot-cuts.ts`): a histogram, thumbnail or motion-compensated change that stands out
 *    from its neighbours' (±`window` frames), at a frame not on a pixel ramp;
 *  - gradual transitions (`shot-gradual.ts`, `shot-blend.ts`): twin comparison with an adaptive
 *    floor, runs of changing frames that are a blend of their ends;
 *  - one dissolve, one transition (`shot-dissolves.ts`, issue 48 item 1): a cut inside a dissolve
 *    (into busy footage) is absorbed into it, a fade out and in through a flat field is one
 *    transition, and each transition's bounds are tightened and widened to where the blend
 *    really starts and ends;
 *  - shots (`shot-boundaries.ts`): a gradual transition's boundary is its middle frame;
 *    boundaries closer than `minShot_s` to the previous one are dropped. Times are the frames'
 *    presentation times when the caller gives them (variable frame rate), else n/fps.
 * Memory: about 550 bytes of features per frame (decisions need the ±`baseline_s` neighbourhood),
 * i.e. ~47 MB for an hour at 24 fps.
 */

import { streamFrames } from './frames.js';
import { probe } from './probe.js';
import type { RawImage } from './raw.js';
import { shotsOf } from './shot-boundaries.js';
import { findCuts } from './shot-cuts.js';
import { absorbCuts, joinThroughFlat, widenAll } from './shot-dissolves.js';
import { ShotFrames } from './shot-frames.js';
import { findGradual } from './shot-gradual.js';
import { DEFAULT_SHOT_OPTIONS, type ShotOptions, type ShotResult, type Transition } from './shot-options.js';
import type { VideoInfo } from './video-info.js';

/** Shot detector: push frames in order (features are kept compactly), then `finish`. */
export class ShotDetector {
  private readonly o: ShotOptions;
  private readonly frames = new ShotFrames();
  /** Frame start times when the caller gives them (variable frame rate); else n/fps. */
  private readonly times: number[] = [];

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
    this.frames.push(frame);
  }

  finish(): ShotResult {
    const F = this.frames;
    const cuts = findCuts(F, this.o);
    const maxLen = Math.max(3, Math.round(this.o.maxGradual_s * this.fps));
    const found = findGradual(F, this.o, this.fps, cuts);
    const { gradual: whole, bounded } = absorbCuts(F, this.o, cuts, found, maxLen);
    const gradual = widenAll(F, joinThroughFlat(F, whole, cuts, maxLen), cuts, bounded, maxLen);
    const transitions: Transition[] = [
      ...[...cuts].map((c) => ({ kind: 'cut' as const, start_frame: c, end_frame: c })),
      ...gradual,
    ];
    return shotsOf(transitions, this.o, {
      fps: this.fps,
      frames: F.length,
      times: this.times,
      ...(this.lastDuration !== undefined ? { lastDuration: this.lastDuration } : {}),
    });
  }
}

/**
 * ffmpeg's decoder threads for the shot detector's own decode: one, the least CPU per frame (issue
 * 56 item 6: "spend no more CPU" than PySceneDetect; frame threads cost ≈ 15 % more CPU on a 720p
 * clip, bench/RESULTS.md), at some wall time on an idle many-core machine.
 */
export const SHOT_DECODE_THREADS = 1;

/** Decode a video once at 64×36 (one decoder thread) and segment it into shots. */
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
    { width: 64, height: 36, pixels: 'rgb', threads: SHOT_DECODE_THREADS },
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
