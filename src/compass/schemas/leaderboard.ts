/**
 * leaderboard.json's schema (`Leaderboard`): the ranked table and the
 * other one, each with its rows overall and by factor, and how a missing video is treated
 * (`MissingPolicy`). Part of the Compass file schemas (schemas/).
 */
import { z } from 'zod';
import { UnresolvedShare } from '../../judge/unresolved.js';

const Count = z.number().int().nonnegative();

/** How leaderboards treat a missing or undecodable video: 0 on every metric, or skip its case for every model. */
export const MissingPolicy = z.enum(['zero', 'skip']);
export type MissingPolicy = z.infer<typeof MissingPolicy>;

export const ModelOverall = z.object({
  model: z.string(),
  /**
   * Mean over runs of the per-run Overall (mean over the table's cases of the per-case Overall, the
   * mean of its prompt modes), by the table's formula (`Leaderboard.formula`).
   */
  overall: z.number().nullable(),
  /** Standard deviation over runs (0 for one run). */
  overall_sd: z.number().nonnegative(),
  runs: Count,
  cases: Count,
  /** Groups of the table's formula that could not be measured for some case (left out of its mean, never zero). */
  flagged: z.array(z.string()),
  /** Joint table: the videos without an audio track, scored AV Coordination 0 ("case__mode"). */
  no_audio_track: z.array(z.string()).optional(),
  /** Videos judged below the published 8 fps (--frame-budget, --quality-fps or a slow video): "case__mode at R fps". */
  below_rate: z.array(z.string()),
  /** Videos present (scored) / expected, per run; missing and undecodable ones are not present. */
  coverage: z.object({ present: Count, expected: Count }),
  groups: z.record(z.string(), z.number().nullable()),
  /** Each group's sample standard deviation over runs (Table 7; with more than one run). */
  groups_sd: z.record(z.string(), z.number().nullable()).optional(),
});
export type ModelOverall = z.infer<typeof ModelOverall>;

const FACTOR_NAMES = ['keyframes', 'structure', 'prompt_mode', 'conditioning'] as const;
export type Factor = (typeof FACTOR_NAMES)[number];

/**
 * The two leaderboards (seed §4.2, Table 3; docs/compass.md "How the leaderboard is computed"):
 * `joint`, the joint audio-video one, over the common set of cases every compared model answered
 * (the models whose videos carry audio), AV Coordination in the mean; `video`, the video-only one,
 * over all cases and every model, without AV Coordination.
 */
export const BOARD_TABLES = ['joint', 'video'] as const;
export const BoardTable = z.enum(BOARD_TABLES);
export type BoardTable = z.infer<typeof BoardTable>;

/** One leaderboard: which table, its formula, its cases, and its rows overall and by factor. */
export const LeaderboardTable = z.object({
  table: BoardTable,
  /** The Overall's formula, in words. */
  formula: z.string(),
  /** The cases the table averages over: all evaluated cases (video) or the common set (joint). */
  cases: z.object({ count: Count, ids: z.array(z.string()) }),
  /** Joint table: evaluated models left off it because none of their videos has an audio track. */
  models_without_audio: z.array(z.string()).optional(),
  models: z.array(ModelOverall),
  by: z.record(z.enum(FACTOR_NAMES), z.record(z.string(), z.array(ModelOverall))),
  /** Table 5's keyframe-density buckets (3, 6, 9&12 keyframes): the rows per bucket. Absent in older files. */
  keyframe_density: z.record(z.string(), z.array(ModelOverall)).optional(),
  /** The rows per application domain and per structure–duration setting (§3.4). Absent in older files. */
  domain: z.record(z.string(), z.array(ModelOverall)).optional(),
  setting: z.record(z.string(), z.array(ModelOverall)).optional(),
});
export type LeaderboardTable = z.infer<typeof LeaderboardTable>;

/**
 * leaderboard.json: the ranked table (the joint one by default whenever audio was judged and some
 * model's videos carry audio, else the video-only one; `--rank-by`) at the top level, the other
 * one in `other`. Files written before the two tables have neither `table` nor `other`: video.
 */
export const Leaderboard = LeaderboardTable.partial({ table: true, formula: true, cases: true }).extend({
  judge: z.string(),
  embedder: z.string(),
  /** Said when the embedder is not the paper's DINOv3 (compass/paper-scale.ts): Overall is not on its scale. */
  embedder_notice: z.string().optional(),
  runs: Count,
  /** What cut the videos into shots (pixel detector or judge, seed E.2). */
  segmenter: z.string().optional(),
  missing: MissingPolicy,
  /**
   * Judged items the parser dropped, by reason, over every judged video and run (a metric's score
   * is the mean of the items kept); `kept_by_rule`: the items `--item-rule snap` kept that the strict
   * rule drops. Absent in files written before they were counted.
   */
  dropped_items: z.record(z.string(), Count).optional(),
  kept_by_rule: z.record(z.string(), Count).optional(),
  /** Checklists kept with an item count outside the published preference, per metric. */
  checklists_outside_preferred_size: z.record(z.string(), Count).optional(),
  /**
   * Quality metrics of the judged videos (every run) that the judge left unresolved (no checklist,
   * a reply that could not be read, no valid item), out of those it was asked for; absent in files
   * written before it.
   */
  unresolved: UnresolvedShare.optional(),
  /**
   * Each quality metric's mean per prompt mode and model over the judged videos (§4.3: "segment-specific
   * prompts lower VMA by 0.060–0.260 versus minimal prompts"). Absent in older files.
   */
  metrics_by_prompt_mode: z
    .record(z.string(), z.record(z.string(), z.record(z.string(), z.number().nullable())))
    .optional(),
  /** The table not ranked (absent when there is only one: no audio judged, or no model with audio). */
  other: LeaderboardTable.optional(),
});
export type Leaderboard = z.infer<typeof Leaderboard>;
