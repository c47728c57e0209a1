/**
 * `hero analyze position`: is a sampled frame's place in the film related to its chain rank? For
 * every sampled chain image, its normalised film time (0 = the first frame, 1 = the end, through
 * the clip timeline) against its rank in the chain (1 = best): the mean time per rank and Spearman's
 * ρ over all such images, with an exact permutation p for up to 9 images and an asymptotic one
 * above. Publicity stills have no film time and are left out.
 */

import { mean } from '../../stats/mean.js';
import { spearman, spearmanAsymptoticP, spearmanExactP } from '../../stats/rank.js';
import { defaultLayout, type Layout } from '../dataset/layout-map.js';
import { openDataset } from '../dataset/load.js';

export interface PositionResult {
  images: number;
  by_rank: { rank: number; n: number; mean_time: number }[];
  spearman: { rho: number | null; p_exact?: number; p_asymptotic?: number };
}

/** `layout`: the map the root's files are read through (the CLI passes the one it resolved). */
export async function positionAnalysis(
  root: string,
  layout: Layout = defaultLayout(),
): Promise<PositionResult> {
  const ds = openDataset(root, layout);
  const core = await ds.core();
  const ranks: number[] = [];
  const times: number[] = [];
  for (const film of (await ds.chains()).values()) {
    const tl = core.timelines.get(film.movie_id);
    if (!tl) continue;
    const length = tl.length_us / 1e6;
    for (const c of film.chains)
      for (const im of c.images) {
        if (im.source !== 'sampled' || im.clip_id === undefined || im.t_in_clip === undefined) continue;
        const t = tl.timeOf(im.clip_id, im.t_in_clip);
        if (t === undefined) continue;
        ranks.push(c.order.indexOf(im.image_id) + 1);
        times.push(t / length);
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
    images: n,
    by_rank: byRank,
    spearman: Number.isFinite(rho)
      ? n <= 9
        ? { rho, p_exact: spearmanExactP(ranks, times) }
        : { rho, p_asymptotic: spearmanAsymptoticP(rho, n) }
      : { rho: null },
  };
}
