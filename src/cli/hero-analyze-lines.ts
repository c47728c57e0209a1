/** The terminal lines of `hero analyze corpus` and `hero analyze position`. */
import type { CorpusStats } from '../hero/analyze/corpus.js';
import type { Spread } from '../hero/analyze/films.js';
import type { PositionResult } from '../hero/analyze/position.js';

const f3 = (v: number) => v.toFixed(3);
const spread = (s: Spread, unit = '') =>
  `${s.min}${unit}–${s.max}${unit} (median ${+s.median.toFixed(1)}${unit}, quartiles ${+s.q1.toFixed(1)}–${+s.q3.toFixed(1)})`;
const counts = (h: Record<string, number>) =>
  Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

export function corpusLines(r: CorpusStats): string[] {
  const ff = r.film_facts;
  const span = (s: { mean: number; min: number; max: number } | null, none: string) =>
    s ? `mean ${s.mean.toFixed(2)} (${s.min}–${s.max})` : none;
  return [
    `${r.films} films, ${r.chains} chains, ${r.images} distinct images, ${r.pairs} pairs (${(100 * r.confident_share).toFixed(1)} % confident)`,
    `chains per film: ${span(r.chains_per_film, 'no chains')}`,
    `criteria per film: ${span(r.criteria_per_film, 'no rubrics')}${Object.keys(r.criteria_histogram).length ? `; films by rubric size ${counts(r.criteria_histogram)}` : ''}`,
    `still replacements: ${r.still_replacements ?? 'unknown (the chains were not built by kfbench hero build)'}`,
    `rank of the still in its chain: ${counts(r.still_rank)}`,
    `years: ${ff.years ? `${spread(ff.years)}; by decade ${counts(ff.by_decade)}` : 'no films'}`,
    `runtime: ${ff.runtime_min ? `${spread(ff.runtime_min, ' min')} over the ${ff.runtime_min.films} films whose TMDB record gives one` : 'no film of movies.jsonl carries a TMDB runtime'}`,
    `genres: ${ff.genres.length ? `${ff.genres.map((g) => `${g.name} ${g.films}`).join(', ')} (${ff.films_with_genres} films with genres)` : 'no film of movies.jsonl carries TMDB genres'}`,
    ...(r.image_properties
      ? [
          `image properties against chain rank (Spearman ρ over ${r.image_properties.pairs} chain images, ${r.image_properties.images} distinct; ρ < 0: higher near the top):`,
          ...r.image_properties.correlations.map(
            (c) =>
              `  ${c.property.padEnd(13)} ρ ${c.rho === null ? '—' : c.rho.toFixed(3)}${c.p_asymptotic === null ? '' : ` (p ${f3(c.p_asymptotic)})`}; mean at rank 1 ${f3(c.mean_top)}, at the last rank ${f3(c.mean_bottom)}`,
          ),
        ]
      : ['image properties: not computed (--no-image-properties)']),
  ];
}

export function positionLines(r: PositionResult): string[] {
  const sp = r.spearman;
  const p = sp.p_exact ?? sp.p_asymptotic;
  const by =
    r.normalise === 'runtime'
      ? `film time over the runtime (TMDB for ${r.runtime_from?.tmdb ?? 0} films, the last clip's end for ${r.runtime_from?.last_clip ?? 0})`
      : 'place on the clip timeline';
  return [
    `${r.images} sampled chain images; mean normalised time ${r.mean_time === null ? '—' : f3(r.mean_time)} (${by}; the card: 0.545)`,
    `Spearman ρ(rank, film time) ${sp.rho === null ? '—' : f3(sp.rho)}${p !== undefined ? ` (p ${sp.p_exact !== undefined ? 'exact' : 'asymptotic'} ${f3(p)})` : ''}`,
    ...r.by_rank.map((b) => `rank ${b.rank}: ${b.n} images, mean normalised time ${f3(b.mean_time)}`),
  ];
}
