/**
 * "The image-property correlations underpinning the analysis" (the release's
 * `stats/corpus_stats.json`): is a chain's order a proxy for a photographic property? For every
 * image of every chain, its photographic statistics (`media/image-stats.ts`: brightness,
 * contrast, sharpness, colourfulness, centredness, on its 96-px-wide copy) against its chain rank
 * (1 = best), Spearman's ρ over all (chain, image) pairs. A negative ρ: the property is higher
 * nearer the top of the chains. Each distinct image is decoded once.
 */
import { cpus } from 'node:os';
import { runPool } from '../../concurrency/pool.js';
import { loadImage } from '../../media/image.js';
import { type ImageStats, imageStats } from '../../media/image-stats.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { spearman, spearmanAsymptoticP } from '../../stats/rank.js';
import { imagePath } from '../dataset/layout.js';
import type { FilmChains } from '../dataset/schemas.js';

const IMAGE_PROPERTIES = ['brightness', 'contrast', 'sharpness', 'colourfulness', 'centredness'] as const;

interface PropertyCorrelation {
  property: (typeof IMAGE_PROPERTIES)[number];
  /** Spearman ρ(property, chain rank); null when either is constant. */
  rho: number | null;
  p_asymptotic: number | null;
  /** Mean of the property at rank 1 and at the last rank of the chains. */
  mean_top: number;
  mean_bottom: number;
}

export interface ImagePropertyResult {
  /** (chain, image) pairs: an image in two chains counts twice. */
  pairs: number;
  images: number;
  correlations: PropertyCorrelation[];
}

export async function imagePropertyCorrelations(
  root: string,
  chains: Iterable<FilmChains>,
  o: { onProgress?: OnProgress | undefined; signal?: AbortSignal | undefined } = {},
): Promise<ImagePropertyResult> {
  const pairs: { key: string; rank: number; last: boolean }[] = [];
  const files = new Map<string, string>();
  for (const film of chains)
    for (const c of film.chains)
      c.order.forEach((id, i) => {
        const key = `${film.movie_id}/${id}`;
        files.set(key, imagePath(root, film.movie_id, id));
        pairs.push({ key, rank: i + 1, last: i === c.order.length - 1 });
      });
  const keys = [...files.keys()];
  const progress = phaseReporter(o.onProgress, 'image properties', 'images');
  progress.start(keys.length);
  const { results } = await runPool(
    keys,
    async (key) => {
      const s = await imageStats(await loadImage(files.get(key)!));
      progress.done(key);
      return s;
    },
    { concurrency: Math.max(1, Math.min(4, cpus().length)), signal: o.signal },
  );
  progress.finish();
  const stats = new Map<string, ImageStats>(keys.map((k, i) => [k, results[i]!]));
  const ranks = pairs.map((p) => p.rank);
  return {
    pairs: pairs.length,
    images: keys.length,
    correlations: IMAGE_PROPERTIES.map((property) => {
      const values = pairs.map((p) => stats.get(p.key)![property]);
      const rho = pairs.length >= 3 ? spearman(values, ranks) : Number.NaN;
      const at = (f: (p: (typeof pairs)[number]) => boolean) => {
        const v = values.filter((_, i) => f(pairs[i]!));
        return v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN;
      };
      return {
        property,
        rho: Number.isFinite(rho) ? rho : null,
        p_asymptotic: Number.isFinite(rho) ? spearmanAsymptoticP(rho, pairs.length) : null,
        mean_top: at((p) => p.rank === 1),
        mean_bottom: at((p) => p.last),
      };
    }),
  };
}
