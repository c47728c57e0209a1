/**
 * The HeroFrame-Bench files, one zod schema each, in one place: the dataset card publishes no
 * field-level schemas, so these are ours (SPEC §2.1). A record as published is first read into this
 * shape through the layout map (layout-map.ts, release.ts): `FilmChains`, `FilmRubric` and
 * `BaselineRow` read both shapes with the built-in map, `filmChainsSchema(layout)` etc. with a
 * user's. Unknown extra fields are kept.
 */
import { z } from 'zod';
import { defaultLayout, type Layout, type LayoutReport } from './layout-map.js';
import { readBaselineRow, readFilmChains, readFilmRubric } from './release.js';

/** An id that is safe as a path part: no separators, no "..", no NUL, not empty. */
export const SafeId = z
  .string()
  .min(1, 'id is empty')
  .refine(
    (s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..' && !s.includes('..'),
    'id is not safe as a path part (/, \\, .. or NUL)',
  );

/** Seconds as a number or "hh:mm:ss.fff" (also "mm:ss.fff"). */
const Timecode = z.union([
  z.number().nonnegative(),
  z.string().regex(/^(\d+:)?\d{1,2}:\d{1,2}(\.\d+)?$/, 'a time must be seconds or hh:mm:ss.fff'),
]);

export const Movie = z.looseObject({
  movie_id: SafeId,
  title: z.string(),
  year: z.number().int(),
  synopsis: z.string().optional(),
  characters: z.array(z.unknown()).optional(),
  key_events: z.array(z.unknown()).optional(),
  tmdb: z.unknown().optional(),
});

export const Clip = z.looseObject({
  clip_id: SafeId,
  start: Timecode,
  end: Timecode,
  duration_s: z.number().nonnegative(),
  caption: z.string().optional(),
  sampled: z.array(SafeId).optional(),
});
export const FilmClips = z.looseObject({ movie_id: SafeId, clips: z.array(Clip) });

const ChainImage = z.looseObject({
  image_id: SafeId,
  source: z.enum(['still', 'sampled']),
  clip_id: SafeId.optional(),
  t_in_clip: z.number().nonnegative().optional(),
  gamma: z.number(),
  theta_0_100: z.number().min(0).max(100),
  /** Set by the reader when a published `source` disagrees with the chain's `anchor` (validate reports it). */
  source_as_published: z.unknown().optional(),
});
const ChainPair = z.looseObject({
  a: SafeId,
  b: SafeId,
  winner: SafeId.nullable(),
  status: z.enum(['confident', 'unresolved']),
  votes: z.unknown().optional(),
});
/** A chain's stability re-judgement (`hero build` step 7, on a seeded sample of chains). */
export const ChainStability = z.looseObject({
  /** Share of pair outcomes that came out the same. */
  agreement: z.number().min(0).max(1),
  /** Kendall τ between the two strength orders; null when undefined (a constant order). */
  kendall_tau: z.number().nullable(),
});
export const Chain = z.looseObject({
  chain_id: SafeId,
  order: z.array(SafeId),
  images: z.array(ChainImage),
  pairs: z.array(ChainPair),
  /** The published files carry their own shape here; `hero build` writes a `ChainStability`. */
  stability: z.unknown().optional(),
  /** `hero build`: the film ran out of stills while this chain's still sat in the bottom half. */
  still_floor_unmet: z.literal(true).optional(),
  /** `hero build`: the ridge Bradley–Terry needed (the comparisons were separable). */
  ridge: z.number().positive().optional(),
  /** The release: the criteria (`L1`, …) of the film's rubric this chain was judged with. */
  rubric_ids: z.array(z.string()).optional(),
});
/** kfbench's own shape of a chains.jsonl row (what `hero build` writes). */
export const FilmChainsRecord = z.looseObject({ movie_id: SafeId, chains: z.array(Chain) });
/** A chains.jsonl row in either shape, read through `layout`. */
export const filmChainsSchema = (layout: Layout, report?: LayoutReport) =>
  z.preprocess((v) => readFilmChains(v, layout, report), FilmChainsRecord);
export const FilmChains = filmChainsSchema(defaultLayout());

export const Criterion = z.looseObject({
  criterion_id: z.string().min(1),
  as_the_judge_read_it: z.string().min(1),
  source_pair: z.tuple([SafeId, SafeId]),
  round: z.number().int().nonnegative(),
  /** `hero build --learn-rubric`: the chain the source pair came from (Phase B prunes by it). */
  source_chain: SafeId.optional(),
  /** `hero build --learn-rubric`: the source chain's publicity still when the rule was learned (Phase B prunes when it is deleted). */
  source_anchor: SafeId.optional(),
});
export const FilmRubricRecord = z.looseObject({
  movie_id: SafeId,
  criteria: z.array(Criterion),
  /** Rules Phase B removed; the published files carry their own shape here. */
  pruned_by_phase_b: z.array(z.unknown()).optional(),
});
export const filmRubricSchema = (layout: Layout, report?: LayoutReport) =>
  z.preprocess((v) => readFilmRubric(v, layout, report), FilmRubricRecord);
export const FilmRubric = filmRubricSchema(defaultLayout());

/** Why a proposed guideline was or was not admitted (see rubric-learn.ts). */
export const ProposalOutcome = z.enum(['admitted', 'gate1', 'gate2', 'no_proposal', 'max_rules']);

/** One row of stats/rubric_proposals.jsonl (`hero build --learn-rubric`): every proposal, logged. */
export const RubricProposal = z.object({
  movie_id: SafeId,
  round: z.number().int().nonnegative(),
  source_pair: z.tuple([SafeId, SafeId]),
  source_status: z.enum(['confident', 'unresolved']),
  guideline: z.string().nullable(),
  reversed: z.string().nullable(),
  outcome: ProposalOutcome,
});

/** One round of rubric learning for one film. */
export const RoundReport = z.object({
  round: z.number().int().nonnegative(),
  proposals: z.number().int().nonnegative(),
  admitted: z.number().int().nonnegative(),
  rejected_gate1: z.number().int().nonnegative(),
  rejected_gate2: z.number().int().nonnegative(),
  no_proposal: z.number().int().nonnegative(),
  /** Share of proposals (with a guideline) that a gate rejected (0 when there were none). */
  rejection_rate: z.number().min(0).max(1),
});

/** stats/build_report.json, written by `hero build` (absent from the published dataset). */
export const BuildReport = z.object({
  films: z.number().int().nonnegative(),
  chains: z.number().int().nonnegative(),
  pairs: z.number().int().nonnegative(),
  confident_share: z.number().min(0).max(1),
  still_replacements: z.number().int().nonnegative(),
  /** Chains kept with their still in the bottom half because the film ran out of stills. */
  still_floor_unmet: z.number().int().nonnegative(),
  ridge_used: z.number().int().nonnegative(),
  /** How unresolved pairs entered the chains' fits (`--unresolved-pairs`; absent before issue 54). */
  unresolved_pairs: z.enum(['error', 'tie']).optional(),
  /** Means over the re-judged chains; null when no chain was sampled. */
  stability: z.object({
    chains: z.number().int().nonnegative(),
    agreement: z.number().nullable(),
    kendall_tau: z.number().nullable(),
    measures: z.string(),
  }),
  /** With rubric learning: every round of every film, rules kept, rules pruned by Phase B. */
  rubric: z
    .object({
      rounds: z.array(RoundReport.extend({ movie_id: SafeId })),
      rules: z.number().int().nonnegative(),
      pruned_by_phase_b: z.number().int().nonnegative(),
    })
    .optional(),
});

export const ImageHash = z.looseObject({
  path: z.string().regex(/^images\/[^/]+\/[^/]+\.jpg$/, 'path must be images/<movie_id>/<image_id>.jpg'),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 hex digits'),
});

export const TrackRow = z.looseObject({
  movie_id: SafeId,
  frame_idx: z.number().int().nonnegative(),
  clip_id: SafeId,
  t_in_clip: z.number().nonnegative(),
});

export const VerifyRow = z.looseObject({
  movie_id: SafeId,
  frame_idx: z.number().int().nonnegative(),
  dhash: z.string().regex(/^[0-9a-f]{16}$/, 'dhash must be 16 hex digits'),
});

const SelectionFrame = z.looseObject({
  rank: z.number().int().positive(),
  frame_idx: z.number().int().nonnegative(),
});
export const Selection = z.looseObject({ movie_id: SafeId, frames: z.array(SelectionFrame) });

export const BaselineRecord = z.looseObject({
  method: z.string().min(1),
  reader: z.string().min(1),
  S: z.number(),
  S_at_k: z.record(z.string(), z.number()),
  top1_rate: z.number(),
  beat_still_rate: z.number(),
  per_film: z.unknown(),
  selections: z.array(Selection).optional(),
});
export const baselineRowSchema = (layout: Layout, report?: LayoutReport) =>
  z.preprocess((v) => readBaselineRow(v, layout, report), BaselineRecord);
export const BaselineRow = baselineRowSchema(defaultLayout());

export type Movie = z.output<typeof Movie>;
export type Clip = z.output<typeof Clip>;
export type FilmClips = z.output<typeof FilmClips>;
export type Chain = z.output<typeof Chain>;
export type FilmChains = z.output<typeof FilmChainsRecord>;
export type FilmRubric = z.output<typeof FilmRubricRecord>;
export type Criterion = z.output<typeof Criterion>;
export type ChainStability = z.output<typeof ChainStability>;
export type ProposalOutcome = z.output<typeof ProposalOutcome>;
export type RubricProposal = z.output<typeof RubricProposal>;
export type RoundReport = z.output<typeof RoundReport>;
export type BuildReport = z.output<typeof BuildReport>;
export type ImageHash = z.output<typeof ImageHash>;
export type TrackRow = z.output<typeof TrackRow>;
export type VerifyRow = z.output<typeof VerifyRow>;
export type Selection = z.output<typeof Selection>;
export type BaselineRow = z.output<typeof BaselineRecord>;
