/**
 * `hero evaluate` step 1: every input read and checked before anything is spent — the dataset, the
 * submitted selections (their track frames present), the official rows, the films of the run and
 * of its shard; the first fault is a typed error naming the file.
 */
import { existsSync } from 'node:fs';
import { BadInputError } from '../errors.js';
import { trackFramePath } from './dataset/layout.js';
import type { Layout } from './dataset/layout-map.js';
import { type loadCore, openDataset } from './dataset/load.js';
import type { BaselineRow, FilmChains, FilmRubric } from './dataset/schemas.js';
import { checkSelections } from './dataset/selections.js';
import type { EvaluateOptions } from './evaluate-options.js';
import { selectFilms } from './track/shard.js';

export type Frames = Map<string, { frame_idx: number; rank: number }[]>;

/** What validation read and checked: everything the plan and the scores need. */
export interface ValidatedInputs {
  ds: Awaited<ReturnType<typeof loadCore>>;
  chains: Map<string, FilmChains>;
  rubrics: Map<string, FilmRubric>;
  /** Method → film → its frames, ranked (official rows too with `rescoreOfficial`). */
  submissions: Map<string, Frames>;
  official: BaselineRow[];
  /** Films with chains (of --movies), sorted. */
  allFilms: string[];
  everyFilm: string[];
  /** Of those, this shard's (all without --shard). */
  films: string[];
}

/** Step 1: read and check every input before anything is spent; the first fault is a typed error. */
export async function validateEvaluation(
  o: Pick<
    EvaluateOptions,
    'data' | 'layout' | 'track' | 'methods' | 'rescoreOfficial' | 'missing' | 'movies' | 'shard'
  >,
): Promise<ValidatedInputs> {
  const root = openDataset(o.data, o.layout);
  const ds = await root.core();
  const chains = await root.chains();
  const rubrics = await root.rubrics();
  const submissions = new Map<string, Frames>();
  for (const m of o.methods) {
    const r = await checkSelections(m.file, ds.timelines);
    if (r.problems.length)
      throw new BadInputError(
        `${r.problems[0]!.replace(`${m.file}:`, 'line ')}${r.problems.length > 1 ? ` (and ${r.problems.length - 1} more problems)` : ''}`,
        { file: m.file },
      );
    submissions.set(m.method, r.selections);
  }
  const official = await root.baselines();
  if (o.rescoreOfficial)
    for (const row of official) {
      const sel: Frames = new Map();
      for (const s of row.selections ?? [])
        sel.set(
          s.movie_id,
          [...s.frames].sort((a, b) => a.rank - b.rank),
        );
      submissions.set(`${row.method} (rescored)`, sel);
    }
  // every film of the run (--movies) and this shard's
  const allFilms = selectFilms(chains.keys(), { movies: o.movies });
  const everyFilm = selectFilms(chains.keys(), {});
  const films = selectFilms(chains.keys(), { movies: o.movies, shard: o.shard });
  const filmSet = new Set(films);
  for (const [method, sel] of submissions) {
    for (const [film, frames] of sel)
      for (const f of filmSet.has(film) ? frames : []) {
        const file = trackFramePath(o.track, film, f.frame_idx);
        if (!existsSync(file))
          throw new BadInputError(
            `track frame ${f.frame_idx} of ${film} (method ${method}) is missing: rebuild the track`,
            { file },
          );
      }
    const missingFilms = films.filter((f) => !sel.has(f));
    if (missingFilms.length && (o.missing ?? 'error') === 'error')
      throw new BadInputError(
        `method ${method} submits nothing for ${missingFilms.length} film(s) with chains (${missingFilms.slice(0, 3).join(', ')}${missingFilms.length > 3 ? ', …' : ''}); pass --missing zero to score them 0`,
      );
  }
  return { ds, chains, rubrics, submissions, official, allFilms, everyFilm, films };
}

/** The official rows of eval/baselines.jsonl (none when the file is absent). */
export async function officialRows(data: string, layout?: Layout | string): Promise<BaselineRow[]> {
  return openDataset(data, layout).baselines();
}
