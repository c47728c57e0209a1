/**
 * `hero analyze corpus`: statistics of a dataset root like the published `stats/corpus_stats.json` —
 * films, chains, distinct images, criteria per film, the share of confident pairs, how many stills
 * the still floor replaced (from `stats/build_report.json`, which `hero build` writes; null when the
 * chains were not built here), where the publicity still ranks in its chain, and what the release
 * says its file holds besides ("Genre distribution, year and runtime spread, rubric size
 * distribution, chain statistics, and the image-property correlations underpinning the analysis"):
 * the films' years, runtimes and genres (films.ts), criteria and chains per film, and the
 * correlation of each photographic property with chain rank (image-properties.ts; it decodes every
 * chain image, `imageProperties: false` skips it).
 */
import { existsSync } from 'node:fs';
import type { OnProgress } from '../../progress.js';
import { mean } from '../../stats/mean.js';
import { readJsonFile, readJsonl } from '../../store/jsonl.js';
import { defaultLayout, type Layout } from '../dataset/layout-map.js';
import { openDataset } from '../dataset/load.js';
import { BuildReport, Movie } from '../dataset/schemas.js';
import { type FilmFacts, filmFacts } from './films.js';
import { type ImagePropertyResult, imagePropertyCorrelations } from './image-properties.js';

export interface CorpusStats {
  films: number;
  chains: number;
  images: number;
  criteria_per_film: { mean: number; min: number; max: number } | null;
  /** Criteria in a film's rubric → films with that many (the rubric size distribution). */
  criteria_histogram: Record<string, number>;
  chains_per_film: { mean: number; min: number; max: number } | null;
  pairs: number;
  confident_share: number;
  still_replacements: number | null;
  /** rank (1 = best) → number of chains whose still sits there. */
  still_rank: Record<string, number>;
  /** Years, runtimes and genres from movies.jsonl (genres and runtime from the TMDB record). */
  film_facts: FilmFacts;
  /** Null with `imageProperties: false`. */
  image_properties: ImagePropertyResult | null;
}

export interface CorpusOptions {
  /** Decode every chain image for the image-property correlations (default true). */
  imageProperties?: boolean | undefined;
  onProgress?: OnProgress | undefined;
  signal?: AbortSignal | undefined;
}

const spanOf = (v: number[]) =>
  v.length ? { mean: mean(v), min: Math.min(...v), max: Math.max(...v) } : null;

/** `n` → how many of `values` equal n, in ascending n. */
function histogram(values: number[]): Record<string, number> {
  const h = new Map<number, number>();
  for (const v of values) h.set(v, (h.get(v) ?? 0) + 1);
  return Object.fromEntries([...h].sort(([a], [b]) => a - b).map(([k, n]) => [String(k), n]));
}

/** `layout`: the map the root's files are read through (the CLI passes the one it resolved). */
export async function corpusStats(
  root: string,
  layout: Layout = defaultLayout(),
  o: CorpusOptions = {},
): Promise<CorpusStats> {
  const ds = openDataset(root, layout);
  const p = ds.paths;
  const movies: Movie[] = [];
  for await (const { value } of readJsonl(p.movies, Movie)) movies.push(value);
  const perFilm: number[] = [];
  let chains = 0;
  let pairs = 0;
  let confident = 0;
  const images = new Set<string>();
  const stillRank: Record<string, number> = {};
  const filmChains = [...(await ds.chains()).values()];
  for (const film of filmChains) {
    perFilm.push(film.chains.length);
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
    films: movies.length,
    chains,
    images: images.size,
    criteria_per_film: criteria ? spanOf(criteria) : null,
    criteria_histogram: histogram(criteria ?? []),
    chains_per_film: spanOf(perFilm),
    pairs,
    confident_share: pairs ? confident / pairs : 0,
    still_replacements: replacements,
    still_rank: Object.fromEntries(Object.entries(stillRank).sort(([a], [b]) => Number(a) - Number(b))),
    film_facts: filmFacts(movies),
    image_properties:
      o.imageProperties === false
        ? null
        : await imagePropertyCorrelations(root, filmChains, { onProgress: o.onProgress, signal: o.signal }),
  };
}
