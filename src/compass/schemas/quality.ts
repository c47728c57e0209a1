/**
 * The video-quality files `compass evaluate` writes and kfbench reads again: checklists.jsonl
 * (`Checklist`) and the quality report of each video in evaluation.jsonl (`QualityReport`,
 * evaluation.ts), one zod schema each (the writers' types are `z.infer` of them). A value that
 * could not be computed is `null`, never NaN.
 */
import { z } from 'zod';
import { QUALITY_GROUP_NAMES, QUALITY_METRICS } from '../quality/metrics.js';
import { Count, PromptModeSchema } from './common.js';

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

const MetricStatus = z.enum(['scored', 'unresolved', 'not_applicable', 'not_measured']);

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
