/**
 * What movies.jsonl says of the films, as the release's `stats/corpus_stats.json` is described
 * ("Genre distribution, year and runtime spread"; movies.jsonl: "Title, year, synopsis,
 * characters, key events, TMDB record"). Genres and runtime come from the film's TMDB record
 * (`tmdb.genres`: names or `{name}` objects, `tmdb.runtime`: minutes), where its line carries one;
 * a film without them is counted apart, never guessed.
 */
import { z } from 'zod';
import { quantile } from '../../stats/bootstrap.js';
import type { Movie } from '../dataset/schemas.js';

/** Five numbers of a spread: min, quartiles (numpy's linear rule), max. */
export interface Spread {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

export interface FilmFacts {
  years: Spread | null;
  /** `1940s` → films released in that decade. */
  by_decade: Record<string, number>;
  /** Runtime in minutes of the films whose TMDB record gives one (`films` of them). */
  runtime_min: (Spread & { films: number }) | null;
  /** Genre → films of it, most frequent first (a film counts once for each of its genres). */
  genres: { name: string; films: number }[];
  films_with_genres: number;
}

/** The part of a TMDB record read here; anything else in it is left alone. */
const TmdbFacts = z.looseObject({
  runtime: z.number().positive().finite().optional().catch(undefined),
  genres: z
    .array(z.union([z.string(), z.looseObject({ name: z.string() })]))
    .optional()
    .catch(undefined),
});

function spreadOf(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return {
    min: s[0]!,
    q1: quantile(s, 0.25),
    median: quantile(s, 0.5),
    q3: quantile(s, 0.75),
    max: s.at(-1)!,
  };
}

/** A film's runtime in minutes from its TMDB record, if the record gives one. */
export function tmdbRuntimeMin(movie: Pick<Movie, 'tmdb'>): number | undefined {
  const t = TmdbFacts.safeParse(movie.tmdb);
  return t.success ? t.data.runtime : undefined;
}

export function filmFacts(movies: Iterable<Pick<Movie, 'year' | 'tmdb'>>): FilmFacts {
  const years: number[] = [];
  const runtimes: number[] = [];
  const genres = new Map<string, number>();
  let withGenres = 0;
  for (const m of movies) {
    years.push(m.year);
    const t = TmdbFacts.safeParse(m.tmdb);
    if (!t.success) continue;
    if (t.data.runtime !== undefined) runtimes.push(t.data.runtime);
    const names = new Set((t.data.genres ?? []).map((g) => (typeof g === 'string' ? g : g.name)));
    if (names.size) withGenres++;
    for (const g of names) genres.set(g, (genres.get(g) ?? 0) + 1);
  }
  const decades = new Map<number, number>();
  for (const y of years)
    decades.set(Math.floor(y / 10) * 10, (decades.get(Math.floor(y / 10) * 10) ?? 0) + 1);
  const runtime = spreadOf(runtimes);
  return {
    years: spreadOf(years),
    by_decade: Object.fromEntries([...decades].sort(([a], [b]) => a - b).map(([d, n]) => [`${d}s`, n])),
    runtime_min: runtime ? { ...runtime, films: runtimes.length } : null,
    genres: [...genres]
      .map(([name, films]) => ({ name, films }))
      .sort((a, b) => b.films - a.films || (a.name < b.name ? -1 : 1)),
    films_with_genres: withGenres,
  };
}
