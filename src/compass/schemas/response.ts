/**
 * The files `compass score` and `compass evaluate` write and kfbench reads again (the viewer,
 * `compass report`), one zod schema each, in one place: response.jsonl (`ResponseRow`),
 * summary.json (`ResponseSummary`), checklists.jsonl (`Checklist`), evaluation.jsonl
 * (`VideoEvaluation`), leaderboard.json (`Leaderboard`, leaderboard-schema.ts) and the two run.json files; also the scan
 * kept in the scan cache (`Scan`). The writers' types are `z.infer` of these schemas (the modules
 * that compute them re-export the types) and every reader parses with them. A value that could not
 * be computed is `null`, never NaN, and the type says so.
 */
import { z } from 'zod';
import { PROMPT_MODES, STRUCTURES } from '../cases/cases.js';
import { QUALITY_GROUP_NAMES, QUALITY_METRICS } from '../quality/metrics.js';
import { MissingPolicy } from './leaderboard.js';

export {
  BOARD_TABLES,
  BoardTable,
  FACTOR_NAMES,
  type Factor,
  Leaderboard,
  LeaderboardTable,
  MissingPolicy,
  ModelOverall,
} from './leaderboard.js';

const Count = z.number().int().nonnegative();
const Seconds = z.number().nonnegative();

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

export const VideoStatus = z.enum(['scored', 'missing', 'failed']);
export type VideoStatus = z.infer<typeof VideoStatus>;
const Structure = z.enum(STRUCTURES);
const Conditioning = z.enum(['image_list', 'storyboard_grid']);
const PromptModeSchema = z.enum(PROMPT_MODES);

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

export const ScanTimings = z.object({
  decode_embed_s: Seconds,
  pixels_s: Seconds,
  /** Stage 2 (response/stage2.ts): reading the windows, finding f*(k), its pixel score. */
  stage2_s: Seconds.optional(),
});
export type ScanTimings = z.infer<typeof ScanTimings>;

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

// ── video quality ───────────────────────────────────────────────────────────────────────────

const QualityMetricSchema = z.enum(QUALITY_METRICS);
const QualityGroupSchema = z.enum(QUALITY_GROUP_NAMES);

export const ChecklistItem = z.object({
  item_id: z.string().min(1).max(64),
  question: z.string().min(1),
  scope: z.enum(['shot', 'cross_shot', 'full_video']),
  anchors: z.array(z.string()),
  dimension: z.string().min(1),
  /** The item does not apply (seed §E.4: "an item marked not_applicable must not prompt an invented audio expectation"). */
  not_applicable: z.literal(true).optional(),
});
export type ChecklistItem = z.infer<typeof ChecklistItem>;

/** One row of checklists.jsonl: the items every model's video of a case and mode is judged against. */
export const Checklist = z.object({
  case_id: z.string(),
  prompt_mode: PromptModeSchema,
  metric: QualityMetricSchema,
  items: z.array(ChecklistItem),
  /** Why there are no items: the judge's reply did not parse twice (or listed none). */
  unresolved: z.string().optional(),
  /** The item count is outside the published preference for the metric (kept, and counted). */
  outside_preferred_size: z.literal(true).optional(),
  raw: z.array(z.string()).optional(),
});
export type Checklist = z.infer<typeof Checklist>;

export const MetricStatus = z.enum(['scored', 'unresolved', 'not_applicable', 'not_measured']);
export type MetricStatus = z.infer<typeof MetricStatus>;

export const MetricResult = z.object({
  status: MetricStatus,
  score: z.number().nullable(),
  reason: z.string().optional(),
});
export type MetricResult = z.infer<typeof MetricResult>;

export const GroupResult = z.object({
  score: z.number().nullable(),
  incomplete: z.array(QualityMetricSchema),
});
export type GroupResult = z.infer<typeof GroupResult>;

/** The verdict an item's evidence supports (seed §E.4: "evidence, and support"). */
export const Support = z.enum(['pass', 'partial', 'fail']);
export type Support = z.infer<typeof Support>;

export const JudgedItem = z.object({
  item_id: z.string(),
  score: z.number(),
  /** Absent in evaluations written before the prompts asked for it, or when the judge left it out. */
  support: Support.optional(),
  evidence: z.array(z.object({ t_start_s: z.number(), t_end_s: z.number(), observation: z.string() })),
});
export type JudgedItem = z.infer<typeof JudgedItem>;

export const DropReason = z.enum([
  'unknown_item',
  'repeated_item',
  'score_off_scale',
  'no_evidence',
  'time_out_of_range',
  'malformed',
  'support_contradicts_score',
]);
export type DropReason = z.infer<typeof DropReason>;

export const QualityMetricReport = MetricResult.extend({
  items: z.array(JudgedItem).optional(),
  dropped: z.partialRecord(DropReason, Count).optional(),
  /**
   * Items kept under `--item-rule snap` that the strict rule drops: a score off the anchors
   * (snapped to the nearest) or a `support` that contradicts the score (the score stands).
   */
  kept_by_rule: z.partialRecord(z.enum(['score_off_scale', 'support_contradicts_score']), Count).optional(),
  missing_items: Count.optional(),
});
export type QualityMetricReport = z.infer<typeof QualityMetricReport>;

export const QualityReport = z.object({
  /**
   * `fps` asked; `effective_fps` the rate actually sent: lower when the budget capped it, or when
   * the video has fewer distinct frames than asked (each is sent once).
   */
  frames: z.object({
    count: Count,
    fps: z.number(),
    effective_fps: z.number(),
    capped_by_budget: z.boolean(),
  }),
  metrics: z.record(QualityMetricSchema, QualityMetricReport),
  groups: z.record(QualityGroupSchema, GroupResult),
  /**
   * The video has an audio track (ffprobe). On the joint audio-video leaderboard a video without
   * one scores AV Coordination 0 and is marked. Absent in files written before it.
   */
  audio_track: z.boolean().optional(),
});
export type QualityReport = z.infer<typeof QualityReport>;

export const OVERALL_GROUPS = [
  'keyframe_fidelity',
  'temporal_organization',
  'visual_quality',
  'spatiotemporal_coherence',
  'instruction_adherence',
] as const;
export type OverallGroup = (typeof OVERALL_GROUPS)[number];

/** The joint audio-video Overall's groups: the video-only ones and AV Coordination (where it applies). */
export const JOINT_AV_GROUPS = [...OVERALL_GROUPS, 'av_coordination'] as const;
export type JointAvGroup = (typeof JOINT_AV_GROUPS)[number];

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

export { Scan, ScanPeak, ScanRefine, ScanShot } from './scan.js';
