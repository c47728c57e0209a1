/**
 * `hero analyze position`: is a sampled frame's place in the film related to its chain rank? The
 * card: "Sampled frames average 0.545 in normalised film time and stay flat across chain rank, so
 * rank is not a proxy for when something happens." For every sampled chain image, its normalised
 * film time against its rank in the chain (1 = best): the mean time over all of them (the card's
 * 0.545), the mean per rank, and Spearman's ρ, with an exact permutation p for up to 9 images and
 * an asymptotic one above. Publicity stills have no film time and are left out.
 *
 * Normalised film time (`normalise`):
 *  - `runtime` (the default, the card's "normalised film time"): the frame's time in the film (its
 *    clip's start timecode + its time in the clip) over the film's runtime — the TMDB record's
 *    `runtime` (minutes) where movies.jsonl carries it, else, and whenever it is shorter, the end of
 *    the film's last clip; `runtime_from` counts the films of each source.
 *  - `timeline`: its place on the clip timeline (the clips laid end to end, the gaps between LSMDC
 *    clips left out: what `hero track rebuild` samples), over that timeline's length.
 */

import { mean } from '../../stats/mean.js';
import { spearman, spearmanAsymptoticP, spearmanExactP } from '../../stats/rank.js';
import { defaultLayout, type Layout } from '../dataset/layout-map.js';
import { openDataset } from '../dataset/load.js';
import type { Clip, Movie } from '../dataset/schemas.js';
import { parseTimecode, type Timeline } from '../track/timeline.js';
import { tmdbRuntimeMin } from './films.js';

export type PositionNormalise = 'runtime' | 'timeline';

export interface PositionResult {
  normalise: PositionNormalise;
  images: number;
  /** Mean normalised time of every sampled chain image (the card's 0.545). */
  mean_time: number | null;
  /** With `runtime`: films whose runtime came from the TMDB record, and from their last clip. */
  runtime_from?: { tmdb: number; last_clip: number };
  by_rank: { rank: number; n: number; mean_time: number }[];
  spearman: { rho: number | null; p_exact?: number; p_asymptotic?: number };
}

/** A film's time → normalised time, under `normalise`. */
function normaliser(
  normalise: PositionNormalise,
  tl: Timeline,
  clips: readonly Pick<Clip, 'clip_id' | 'start' | 'end'>[],
  movie: Pick<Movie, 'tmdb'> | undefined,
): { at(clipId: string, tInClip: number): number | undefined; source?: 'tmdb' | 'last_clip' } {
  if (normalise === 'timeline')
    return {
      at: (clipId, t) => {
        const s = tl.timeOf(clipId, t);
        return s === undefined ? undefined : s / (tl.length_us / 1e6);
      },
    };
  const starts = new Map(clips.map((c) => [c.clip_id, parseTimecode(c.start)]));
  const lastEnd = Math.max(...clips.map((c) => parseTimecode(c.end)));
  const tmdb = movie ? tmdbRuntimeMin(movie) : undefined;
  const fromTmdb = tmdb !== undefined && tmdb * 60 >= lastEnd;
  const runtime = fromTmdb ? tmdb * 60 : lastEnd;
  return {
    at: (clipId, t) => {
      const s = starts.get(clipId);
      return s === undefined ? undefined : (s + t) / runtime;
    },
    source: fromTmdb ? 'tmdb' : 'last_clip',
  };
}

/** `layout`: the map the root's files are read through (the CLI passes the one it resolved). */
export async function positionAnalysis(
  root: string,
  layout: Layout = defaultLayout(),
  normalise: PositionNormalise = 'runtime',
): Promise<PositionResult> {
  const ds = openDataset(root, layout);
  const core = await ds.core();
  const ranks: number[] = [];
  const times: number[] = [];
  const from = { tmdb: 0, last_clip: 0 };
  for (const film of (await ds.chains()).values()) {
    const tl = core.timelines.get(film.movie_id);
    const clips = core.clips.get(film.movie_id);
    if (!tl || !clips) continue;
    const norm = normaliser(normalise, tl, clips.clips, core.movies.get(film.movie_id));
    if (norm.source) from[norm.source]++;
    for (const c of film.chains)
      for (const im of c.images) {
        if (im.source !== 'sampled' || im.clip_id === undefined || im.t_in_clip === undefined) continue;
        const t = norm.at(im.clip_id, im.t_in_clip);
        if (t === undefined) continue;
        ranks.push(c.order.indexOf(im.image_id) + 1);
        times.push(t);
      }
  }
  const byRank = [...new Set(ranks)]
    .sort((a, b) => a - b)
    .map((rank) => {
      const ts = times.filter((_, i) => ranks[i] === rank);
      return { rank, n: ts.length, mean_time: mean(ts) };
    });
  const n = ranks.length;
  const rho = n >= 3 ? spearman(ranks, times) : Number.NaN;
  return {
    normalise,
    images: n,
    mean_time: n ? mean(times) : null,
    ...(normalise === 'runtime' ? { runtime_from: from } : {}),
    by_rank: byRank,
    spearman: Number.isFinite(rho)
      ? n <= 9
        ? { rho, p_exact: spearmanExactP(ranks, times) }
        : { rho, p_asymptotic: spearmanAsymptoticP(rho, n) }
      : { rho: null },
  };
}
