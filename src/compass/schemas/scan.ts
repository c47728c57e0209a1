/**
 * The scan the scan cache keeps (`Scan`): one video's sampled frames matched against a case's
 * keyframes, a pure function of the video, the keyframes and the options. Part of the Compass
 * file schemas (schemas/), with the timings of a scan `compass score`'s run.json records.
 */
import { z } from 'zod';

const Count = z.number().int().nonnegative();
const Seconds = z.number().nonnegative();

/** One video's scan as the scan cache keeps it (a pure function of the video, keyframes and options). */
export const ScanPeak = z.object({
  /** Index of f* among the sampled frames. */
  frame: Count,
  cos: z.number(),
  /** null when the frame and the keyframe are identical (PSNR infinite). */
  psnr_db: z.number().nullable(),
  ssim: z.number(),
});
export type ScanPeak = z.infer<typeof ScanPeak>;
export const ScanShot = z.object({ start_s: z.number(), end_s: z.number() });
export type ScanShot = z.infer<typeof ScanShot>;
const FrameRange = z.tuple([Count, Count]);
/** Stage 2's refinement of one keyframe's placement (scan/stage2.ts). */
export const ScanRefine = z.object({
  /** The placing run of sampled frames (stage 1) it refines. */
  run: FrameRange,
  /** The frames of the file read (the run and one sampled frame either side). */
  window: FrameRange,
  /** f*(k): the frame of the file most like the keyframe in pixels; its start time. */
  frame: Count,
  t_s: z.number(),
  /** The hold: the frames around f*(k) matching the keyframe as well as it does, and their time span [start, end). */
  hold: FrameRange,
  hold_s: z.tuple([z.number(), z.number()]),
  /** Luma PSNR at the working size (null: identical). */
  luma_psnr_db: z.number().nullable(),
  /** The pixel score's PSNR (null: identical) and SSIM, on f*(k). */
  psnr_db: z.number().nullable(),
  ssim: z.number(),
  /** Stage 1's cosine of f*(k) when stage 1 sampled it (null: a frame between two samples). */
  cos: z.number().nullable(),
  /**
   * Frames of the window not kept: the window was longer than stage 2's limit (`STAGE2_MAX_KEPT`,
   * scan/window-match.ts), so they were not compared and the hold may be cut there. Absent: none.
   */
  dropped: Count.optional(),
});
export type ScanRefine = z.infer<typeof ScanRefine>;

export const Scan = z.object({
  /** `vfr`: variable frame rate — frame j then lasts until times[j + 1] (the last, 1/sample_fps). */
  video: z.object({
    width: z.number(),
    height: z.number(),
    fps: z.number(),
    frames: z.number(),
    duration_s: z.number(),
    vfr: z.boolean().optional(),
    /** A variable-rate video's every frame's presentation time (stage 2's holds are frames of the file). */
    frame_times: z.array(z.number()).optional(),
    /** Begun mid-GOP (media/mid-stream.ts): packets that gave no frame, frames concealed. */
    decoding: z.object({ dropped: z.number(), concealed: z.number() }).optional(),
  }),
  /** Sampled frames per second (the video's rate — its mean rate when variable — or the cap). */
  sample_fps: z.number(),
  /** Start of each sampled frame's interval (its presentation time), seconds; each lasts 1/sample_fps. */
  times: z.array(z.number()),
  /** sims[k][j]: cosine of keyframe k with sampled frame j. */
  sims: z.array(z.array(z.number())),
  peaks: z.array(ScanPeak),
  shots: z.array(ScanShot),
  /** Per keyframe, stage 2's refinement (null when stage 1 did not match it). */
  refined: z.array(ScanRefine.nullable()).optional(),
});
export type Scan = z.infer<typeof Scan>;

export const ScanTimings = z.object({
  decode_embed_s: Seconds,
  pixels_s: Seconds,
  /** Stage 2 (scan/stage2.ts): reading the windows, finding f*(k), its pixel score. */
  stage2_s: Seconds.optional(),
});
export type ScanTimings = z.infer<typeof ScanTimings>;
