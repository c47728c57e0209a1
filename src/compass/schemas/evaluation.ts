/**
 * evaluation.jsonl (`VideoEvaluation`: one video in one run, both axes and its Overall) and the
 * run.json of `compass evaluate` (`EvaluationRunFile`), one zod schema each. A value that could not
 * be computed is `null`, never NaN, and the type says so.
 */
import { z } from 'zod';
import { Conditioning, Count, PromptModeSchema, Seconds, Structure, VideoStatus } from './common.js';
import { QualityReport } from './quality.js';
import { MetricScores, ResponseGroups } from './response.js';

export const OVERALL_GROUPS = [
  'keyframe_fidelity',
  'temporal_organization',
  'visual_quality',
  'spatiotemporal_coherence',
  'instruction_adherence',
] as const;
export type OverallGroup = (typeof OVERALL_GROUPS)[number];

/** The joint audio-video Overall's groups: the video-only ones and AV Coordination (where it applies). */
const JOINT_AV_GROUPS = [...OVERALL_GROUPS, 'av_coordination'] as const;

export const OverallResult = z.object({
  /**
   * The video-only Overall of this video (one case, one prompt mode): mean(keyframe control,
   * Visual Quality, Spatiotemporal Coherence, Instruction Adherence), keyframe control =
   * mean(Keyframe Fidelity, Temporal Organization) (seed §4.2: "after joint keyframe-control
   * aggregation"; docs/compass.md, "How the leaderboard is computed").
   */
  score: z.number().nullable(),
  /** Groups left out because they could not be measured. */
  missing: z.array(z.enum(OVERALL_GROUPS)),
  /**
   * The joint audio-video Overall: the same and AV Coordination (AVC, judged on every video with
   * an audio track; 0 for a video without one, marked by `no_audio_track`). Where AVC could not be
   * measured (no audio judge, unresolved) it is left out and listed in `missing`.
   */
  joint_av: z
    .object({
      score: z.number().nullable(),
      missing: z.array(z.enum(JOINT_AV_GROUPS)),
      no_audio_track: z.literal(true).optional(),
    })
    .optional(),
  /** Groups scored from only some of their metrics (e.g. "instruction_adherence: AMA"). */
  incomplete: z.array(z.string()).optional(),
});
export type OverallResult = z.infer<typeof OverallResult>;

/** One row of evaluation.jsonl: one video in one run, both axes and its Overall. */
export const VideoEvaluation = z.object({
  case_id: z.string(),
  model: z.string(),
  prompt_mode: PromptModeSchema,
  run: Count,
  /** scored; or missing / failed (not decodable): 0 on every metric. */
  status: VideoStatus,
  structure: Structure,
  n_keyframes: Count,
  conditioning: Conditioning,
  /** The case's application domain and requested duration (for the tables by domain and setting; absent in older files). */
  domain: z.string().optional(),
  duration_s: z.number().optional(),
  response: z.object({ metrics: MetricScores, groups: ResponseGroups }),
  quality: QualityReport,
  overall: OverallResult,
});
export type VideoEvaluation = z.infer<typeof VideoEvaluation>;

/** run.json of `compass evaluate`. */
export const EvaluationRunFile = z.object({
  wall_s: Seconds,
  judge: z.string(),
  judge_stats: z.record(z.string(), z.number()),
  scans: z.object({ scanned: Count, cached: Count }),
  missing: z.array(z.string()),
  failed: z.array(z.object({ video: z.string(), error: z.string() })),
  skipped: z.array(z.string()),
});
export type EvaluationRunFile = z.infer<typeof EvaluationRunFile>;
