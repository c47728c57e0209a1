/**
 * The files `hero evaluate` writes and the viewer reads again, one zod schema each, in one place:
 * summary.json (`HeroSummary`), insertions.jsonl (`InsertionRecord`) and the rows of per_film.csv
 * (`FilmScore`). The writer's types are `z.infer` of these schemas and every reader parses with
 * them. A mean or rate with nothing to average is `null` (never NaN: JSON has none), and the type
 * says so; `finiteOrNull` is the one place that turns a computed value into that.
 */
import { z } from 'zod';
import type { JudgeStats } from '../judge/types.js';
import { UnresolvedShare } from '../judge/unresolved.js';

/** A mean, rate or interval end: null when there was nothing to compute it from. */
export const Measure = z.number().nullable();
export type Measure = z.infer<typeof Measure>;

/** NaN and ±Infinity become null; a finite number stays. */
export const finiteOrNull = (x: number | null | undefined): number | null =>
  typeof x === 'number' && Number.isFinite(x) ? x : null;

/** Counts are whole and not negative. */
const Count = z.number().int().nonnegative();

export const InsertionVerdict = z.object({
  /** The chain image compared against; absent for a listwise answer. */
  against: z.string().optional(),
  /** Pairwise/binary: who won ('frame' = the submitted frame); null when unresolved. */
  winner: z.enum(['frame', 'chain']).nullable().optional(),
  /** Listwise: the position answered (images placed below the frame); null when unresolved. */
  position: z.number().int().nonnegative().nullable().optional(),
  /** Listwise: the order the chain was shown in for this answer. */
  order: z.enum(['best-first', 'worst-first']).optional(),
  status: z.enum(['confident', 'unresolved']),
  /** What the judge said in each placement (its reason, or why the reply was unresolved). */
  reasons: z.array(z.string()),
});
export type InsertionVerdict = z.infer<typeof InsertionVerdict>;

/** One row of insertions.jsonl: one submitted frame inserted into one chain. */
export const InsertionRecord = z.object({
  method: z.string().min(1),
  movie_id: z.string().min(1),
  /** Track frame for a method, image id for the stills row. */
  frame: z.union([z.number().int().nonnegative(), z.string().min(1)]),
  rank: z.number().int().positive(),
  chain_id: z.string().min(1),
  /**
   * Chain images placed below the frame: a whole number, except listwise with both orders under
   * `--disagreement mean`, where a disagreement scores the mean of the two answers (e.g. 2.5).
   */
  position: z.number().nonnegative(),
  chain_length: z.number().int().positive(),
  s: z.number().min(0).max(1),
  above_still: z.boolean(),
  unresolved: Count,
  calls: Count,
  cached: Count,
  /** Questions this insertion needed (answered over the network or from the cache). */
  questions: Count,
  /** Self-consistency checks made and failed (see InsertionOutcome). */
  checks: Count,
  disagreed: Count,
  /** Listwise: the position answered in each order shown (null = unresolved). */
  answers: z.array(z.number().int().nonnegative().nullable()).optional(),
  /**
   * The judge's verdicts behind the position (see verdicts.ts); absent in files written before
   * verdicts were kept, which the viewer still shows.
   */
  verdicts: z.array(InsertionVerdict).optional(),
});
export type InsertionRecord = z.infer<typeof InsertionRecord>;

/** S@k for k = 1…5, keyed "1"…"5". */
const AtK = z.record(z.string(), Measure);

/** One row of per_film.csv: a method's scores on one film (only films it has insertions for, or zeros). */
export const FilmScore = z.object({
  method: z.string().min(1),
  movie_id: z.string().min(1),
  S: z.number().min(0).max(1),
  S_at_k: z.record(z.string(), z.number()),
  top1_rate: z.number().min(0).max(1),
  beat_still_rate: z.number().min(0).max(1),
  insertions: Count,
  unresolved: Count,
});
export type FilmScore = z.infer<typeof FilmScore>;

/** A method's row of summary.json (also an official row of baselines.jsonl, shown as published). */
export const MethodSummary = z.object({
  method: z.string().min(1),
  reader: z.string(),
  S: Measure,
  S_at_k: AtK,
  top1_rate: Measure,
  beat_still_rate: Measure,
  ci: z.object({ S: z.tuple([Measure, Measure]) }),
  /** Null for an official row that does not list its films. */
  films: Count.nullable(),
  /** Null for an official row (it was scored elsewhere). */
  insertions: Count.nullable(),
  unresolved: Count.nullable(),
  official: z.boolean().optional(),
});
export type MethodSummary = z.infer<typeof MethodSummary>;

export const PairedDifference = z.object({
  a: z.string(),
  b: z.string(),
  diff: Measure,
  ci: z.tuple([Measure, Measure]),
  p: Measure,
});
export type PairedDifference = z.infer<typeof PairedDifference>;

/** summary.json: deterministic for the same inputs and cache. */
export const HeroSummary = z.object({
  reader: z.string(),
  protocol: z.enum(['pairwise', 'binary', 'listwise']),
  /** Listwise asked in both orders; the rule scoring a disagreement (null otherwise). */
  both_orders: z.boolean(),
  disagreement_rule: z.enum(['error', 'mean']).nullable(),
  /** Questions asked for the scored insertions (network or cache) and per insertion. */
  questions: Count,
  questions_per_insertion: z.number().nonnegative(),
  /**
   * Self-consistency checks: pairwise/binary, each comparison's two placements; listwise with
   * both orders, each insertion's two answers. rate = disagreed / checks, null without checks.
   */
  disagreement: z.object({ checks: Count, disagreed: Count, rate: Measure }),
  /**
   * The judge's decisions behind the scored insertions that were unresolved — listwise answers
   * that could not be read (scored as position 0); pairwise/binary comparisons whose placements
   * did not give one confident winner (F counts as not above) — out of all of them (listwise
   * answers, comparisons). Absent in files written before it.
   */
  unresolved: UnresolvedShare.optional(),
  methods: z.array(MethodSummary),
  official: z.array(MethodSummary),
  paired: z.array(PairedDifference),
  warnings: z.array(z.string()),
});
export type HeroSummary = z.infer<typeof HeroSummary>;

/** A judge's counters as `Judge.stats` keeps them (checked against the interface, so they cannot drift). */
const JudgeCounters = z.object({
  calls: Count,
  cached: Count,
  reasks: Count,
  retries: Count,
  unresolved: Count,
  prompt_tokens: Count,
  completion_tokens: Count,
  latency_ms: z.number().nonnegative(),
}) satisfies z.ZodType<JudgeStats>;

/** run.json of `hero evaluate`: what varies between runs of the same evaluation (calls made, cache hits, wall time). */
export const HeroEvaluateRun = z.object({
  reader: z.string(),
  protocol: HeroSummary.shape.protocol,
  both_orders: z.boolean(),
  ...JudgeCounters.shape,
  insertions: Count,
  complete: z.boolean(),
  wall_ms: z.number().nonnegative(),
});

/** run.json of `kfbench merge hero`: the shard folders it was merged from (no call was made). */
const HeroMergeRun = z.object({
  reader: z.string(),
  merged_from: z.array(z.string()).min(1),
  insertions: Count,
  complete: z.boolean(),
  wall_ms: z.number().nonnegative(),
});

/** run.json of a HeroFrame results folder: a run's or a merge's. */
export const HeroRun = z.union([HeroEvaluateRun, HeroMergeRun]);
export type HeroEvaluateRun = z.infer<typeof HeroEvaluateRun>;
export type HeroRun = z.infer<typeof HeroRun>;
