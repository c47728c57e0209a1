/**
 * The HeroFrame-Bench files, one zod schema each, in one place: the dataset card publishes no
 * field-level schemas, so these are ours (SPEC §2.1); adapting to the published field names is a
 * change to this file alone. Unknown extra fields are kept.
 */
import { z } from 'zod';

/** An id that is safe as a path part: no separators, no "..", no NUL, not empty. */
export const SafeId = z
  .string()
  .min(1, 'id is empty')
  .refine(
    (s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..' && !s.includes('..'),
    'id is not safe as a path part (/, \\, .. or NUL)',
  );

/** Seconds as a number or "hh:mm:ss.fff" (also "mm:ss.fff"). */
export const Timecode = z.union([
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

export const ChainImage = z.looseObject({
  image_id: SafeId,
  source: z.enum(['still', 'sampled']),
  clip_id: SafeId.optional(),
  t_in_clip: z.number().nonnegative().optional(),
  gamma: z.number(),
  theta_0_100: z.number().min(0).max(100),
});
export const ChainPair = z.looseObject({
  a: SafeId,
  b: SafeId,
  winner: SafeId.nullable(),
  status: z.enum(['confident', 'unresolved']),
  votes: z.unknown().optional(),
});
export const Chain = z.looseObject({
  chain_id: SafeId,
  order: z.array(SafeId),
  images: z.array(ChainImage),
  pairs: z.array(ChainPair),
  stability: z.unknown().optional(),
});
export const FilmChains = z.looseObject({ movie_id: SafeId, chains: z.array(Chain) });

export const Criterion = z.looseObject({
  criterion_id: z.string().min(1),
  as_the_judge_read_it: z.string().min(1),
  source_pair: z.tuple([SafeId, SafeId]),
  round: z.number().int().nonnegative(),
});
export const FilmRubric = z.looseObject({
  movie_id: SafeId,
  criteria: z.array(Criterion),
  pruned_by_phase_b: z.array(z.unknown()).optional(),
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

export const SelectionFrame = z.looseObject({
  rank: z.number().int().positive(),
  frame_idx: z.number().int().nonnegative(),
});
export const Selection = z.looseObject({ movie_id: SafeId, frames: z.array(SelectionFrame) });

export const BaselineRow = z.looseObject({
  method: z.string().min(1),
  reader: z.string().min(1),
  S: z.number(),
  S_at_k: z.record(z.string(), z.number()),
  top1_rate: z.number(),
  beat_still_rate: z.number(),
  per_film: z.unknown(),
  selections: z.array(Selection).optional(),
});

export type Movie = z.output<typeof Movie>;
export type Clip = z.output<typeof Clip>;
export type FilmClips = z.output<typeof FilmClips>;
export type Chain = z.output<typeof Chain>;
export type FilmChains = z.output<typeof FilmChains>;
export type FilmRubric = z.output<typeof FilmRubric>;
export type TrackRow = z.output<typeof TrackRow>;
export type VerifyRow = z.output<typeof VerifyRow>;
export type Selection = z.output<typeof Selection>;
export type BaselineRow = z.output<typeof BaselineRow>;
