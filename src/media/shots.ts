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
import { shotsOf } from './shot-boundaries.js';
import { findCuts } from './shot-cuts.js';
import { ShotFrames } from './shot-frames.js';
import { findGradual } from './shot-gradual.js';
import { DEFAULT_SHOT_OPTIONS, type ShotOptions, type ShotResult, type Transition } from './shot-options.js';

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
    const gradual = findGradual(F, this.o, this.fps, cuts);
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
