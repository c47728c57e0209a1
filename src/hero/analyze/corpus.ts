/**
 * `hero analyze corpus`: statistics of a dataset root like the published `stats/corpus_stats.json` —
 * films, chains, distinct images, criteria per film, the share of confident pairs, how many stills
 * the still floor replaced (from `stats/build_report.json`, which `hero build` writes; null when the
 * chains were not built here), and where the publicity still ranks in its chain.
 */
import { existsSync } from 'node:fs';
import { mean } from '../../stats/mean.js';
import { readJsonFile, readJsonl } from '../../store/jsonl.js';
import { defaultLayout, type Layout } from '../dataset/layout-map.js';
import { openDataset } from '../dataset/load.js';
import { BuildReport, Movie } from '../dataset/schemas.js';

export interface CorpusStats {
  films: number;
  chains: number;
  images: number;
  criteria_per_film: { mean: number; min: number; max: number } | null;
  pairs: number;
  confident_share: number;
  still_replacements: number | null;
  /** rank (1 = best) → number of chains whose still sits there. */
  still_rank: Record<string, number>;
}

/** `layout`: the map the root's files are read through (the CLI passes the one it resolved). */
export async function corpusStats(root: string, layout: Layout = defaultLayout()): Promise<CorpusStats> {
  const ds = openDataset(root, layout);
  const p = ds.paths;
  let films = 0;
  for await (const _ of readJsonl(p.movies, Movie)) films++;
  let chains = 0;
  let pairs = 0;
  let confident = 0;
  const images = new Set<string>();
  const stillRank: Record<string, number> = {};
  for (const film of (await ds.chains()).values()) {
    for (const c of film.chains) {
      chains++;
      for (const im of c.images) images.add(`${film.movie_id}/${im.image_id}`);
      for (const pr of c.pairs) {
        pairs++;
        if (pr.status === 'confident') confident++;
      }
      const still = c.images.find((im) => im.source === 'still');
      if (still) {
        const rank = String(c.order.indexOf(still.image_id) + 1);
        stillRank[rank] = (stillRank[rank] ?? 0) + 1;
      }
    }
  }
  let criteria: number[] | null = null;
  if (existsSync(p.rubrics)) {
    criteria = [];
    for (const r of (await ds.rubrics()).values()) criteria.push(r.criteria.length);
  }
  let replacements: number | null = null;
  if (existsSync(p.buildReport))
    replacements = (await readJsonFile(p.buildReport, BuildReport)).still_replacements;
  return {
    films,
    chains,
    images: images.size,
    criteria_per_film: criteria?.length
      ? {
          mean: mean(criteria),
          min: Math.min(...criteria),
          max: Math.max(...criteria),
        }
      : null,
    pairs,
    confident_share: pairs ? confident / pairs : 0,
    still_replacements: replacements,
    still_rank: Object.fromEntries(Object.entries(stillRank).sort(([a], [b]) => Number(a) - Number(b))),
  };
}
