/**
 * The files `compass score` writes and kfbench reads again (the viewer, `compass report`, merging),
 * one zod schema each: response.jsonl (`ResponseRow`), summary.json (`ResponseSummary`) and its
 * run.json (`ResponseRunFile`). The writers' types are `z.infer` of these schemas and every reader
 * parses with them. A value that could not be computed is `null`, never NaN, and the type says so.
 * The other Compass files: quality.ts (checklists.jsonl), evaluation.ts (evaluation.jsonl and its
 * run.json), leaderboard.ts (leaderboard.json), scan.ts (the scan cache's scans), align.ts.
 */
import { z } from 'zod';
import { Conditioning, Count, PromptModeSchema, Seconds, Structure, VideoStatus } from './common.js';
import { MissingPolicy } from './leaderboard.js';
import { ScanTimings } from './scan.js';

/** The six keyframe-response metrics, in their published order. */
export const METRICS = [
  'presence',
  'fidelity',
  'ordering',
  'localization',
  'persistence',
  'uniqueness',
] as const;
export type Metric = (typeof METRICS)[number];
export const MetricScores = z.record(z.enum(METRICS), z.number());
export type MetricScores = z.infer<typeof MetricScores>;

export const ResponseGroups = z.object({ keyframe_fidelity: z.number(), temporal_organization: z.number() });

export const KeyframeResponse = z.object({
  kf_id: z.string(),
  matched: z.boolean(),
  /**
   * t(k), a frame's presentation time: the frame of the hold that places the keyframe nearest its
   * target (one-take), else f*'s (`--place-at`, placement.ts); null when unmatched.
   */
  t_best_s: z.number().nullable(),
  /** Presentation time of f*, the single most similar frame. */
  t_peak_s: z.number(),
  /**
   * The KFS frame's cosine, PSNR and SSIM (response/fidelity.ts: one frame for both of KFS's
   * terms); unmatched: the best cosine, and no PSNR/SSIM.
   */
  cos: z.number(),
  psnr_db: z.number().nullable(),
  ssim: z.number().nullable(),
  /** The detected shot the keyframe is assigned to (the one holding t(k)); null when unmatched (seed E.2). */
  shot: z.number().int().nullable(),
  /** Multi-shot: the detected shot its intended shot was aligned to (null: none); one-take: null. */
  aligned_shot: z.number().int().nullable(),
  /** Seconds the γ-run around f* lasts; separate matched runs; whether its hold overlaps another's. */
  persistence_s: z.number().nullable(),
  runs: Count,
  shared_hold: z.boolean(),
  scores: MetricScores,
});
export type KeyframeResponse = z.infer<typeof KeyframeResponse>;

/** The keyframe-response report of one video for one case. */
export const ResponseReport = z.object({
  case_id: z.string(),
  embedder: z.string(),
  gamma: z.number(),
  metrics: MetricScores,
  groups: ResponseGroups,
  keyframes: z.array(KeyframeResponse),
  shots: z.array(
    z.object({ index: Count, start_s: z.number(), end_s: z.number(), keyframes: z.array(z.string()) }),
  ),
  sample_fps: z.number(),
});
export type ResponseReport = z.infer<typeof ResponseReport>;

/** One row of response.jsonl: one model's video of one case in one prompt mode. */
export const ResponseRow = ResponseReport.extend({
  model: z.string(),
  /** scored; or missing / failed (not decodable): every metric 0. */
  status: VideoStatus,
  /** What cut the video into shots: pixel (the shot detector) or judge (seed E.2). */
  segmenter: z.string(),
  /** With the judge segmenter: the judge's own assignment of each keyframe to a shot. */
  judge_assignments: z.record(z.string(), z.number().int().nullable()).optional(),
  prompt_mode: PromptModeSchema,
  structure: Structure,
  n_keyframes: Count,
  conditioning: Conditioning,
});
export type ResponseRow = z.infer<typeof ResponseRow>;

export const SummaryCell = z.object({
  /** Videos in the mean (present or zero-scored). */
  n: Count,
  metrics: MetricScores,
  groups: ResponseGroups,
});
export type SummaryCell = z.infer<typeof SummaryCell>;

/** summary.json of `compass score` (and `compass evaluate`): means by model and factor. */
export const ResponseSummary = z.object({
  embedder: z.string(),
  /** Said when the embedder is not the paper's DINOv3 (paper-scale.ts): the numbers are not on its scale. */
  embedder_notice: z.string().optional(),
  gamma: z.number(),
  /** zero: missing/undecodable videos score 0; skip: every model restricted to the videos all have. */
  missing: MissingPolicy,
  /** The segmenters that cut the videos into shots (pixel, judge). */
  segmenter: z.string(),
  models: z.record(
    z.string(),
    z.object({
      all: SummaryCell,
      /** Videos scored / expected (missing and undecodable ones are not present). */
      coverage: z.object({ present: Count, expected: Count }),
      by_keyframes: z.record(z.string(), SummaryCell),
      by_structure: z.record(z.string(), SummaryCell),
      by_prompt_mode: z.record(z.string(), SummaryCell),
      by_conditioning: z.record(z.string(), SummaryCell),
    }),
  ),
});
export type ResponseSummary = z.infer<typeof ResponseSummary>;

/** run.json of `compass score`: what varies between runs. */
export const ResponseRunFile = z.object({
  embedder: z.string(),
  wall_s: Seconds,
  scanned: Count,
  cached: Count,
  timings: ScanTimings,
  missing: z.array(z.string()),
  failed: z.array(z.object({ video: z.string(), error: z.string() })),
});
export type ResponseRunFile = z.infer<typeof ResponseRunFile>;
