/**
 * `hero evaluate` step 1: every input read and checked before anything is spent — the dataset, the
 * submitted selections (their track frames present), the official rows, the films of the run and
 * of its shard; the first fault is a typed error naming the file.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { defined } from '../../defined.js';
import { BadInputError } from '../../errors.js';
import { trackFramePath } from '../dataset/layout.js';
import { defaultLayout, type Layout } from '../dataset/layout-map.js';
import { type loadCore, openDataset } from '../dataset/load.js';
import type { BaselineRow, FilmChains, FilmRubric } from '../dataset/schemas.js';
import { checkSelections } from '../dataset/selections.js';
import { selectFilms } from '../track/shard.js';
import type { Timeline } from '../track/timeline.js';
import type { EvaluateOptions, SubmittedMethod } from './options.js';

type Frames = Map<string, { frame_idx: number; rank: number }[]>;

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
  const root = openDataset(o.data, o.layout ?? defaultLayout());
  const ds = await root.core();
  const chains = await root.chains();
  const rubrics = await root.rubrics();
  const submissions = new Map<string, Frames>();
  for (const m of o.methods) submissions.set(m.method, await readSubmission(m, ds.timelines));
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
  const files = new Map(o.methods.map((m) => [m.method, m.file]));
  for (const [method, sel] of submissions)
    checkCoverage(method, sel, films, {
      track: o.track,
      missing: o.missing,
      file: files.get(method) ?? root.paths.baselines,
    });
  return { ds, chains, rubrics, submissions, official, allFilms, everyFilm, films };
}

/** The official rows of eval/baselines.jsonl (none when the file is absent). */
export async function officialRows(data: string, layout: Layout): Promise<BaselineRow[]> {
  return openDataset(data, layout).baselines();
}

/** A method's name as `hero evaluate` gives it: its selections file's name without `.jsonl(.zst)`. */
export function methodName(file: string): string {
  return basename(file).replace(/\.jsonl(\.zst)?$/, '');
}

/**
 * One method's selections file read and checked (see dataset/selections.ts) — `hero evaluate`
 * and `hero check-selections` both call this: the first problem is the error (`file: line N: …`,
 * with how many more there are).
 */
async function readSubmission(m: SubmittedMethod, timelines: Map<string, Timeline>): Promise<Frames> {
  const r = await checkSelections(m.file, timelines);
  const fault = selectionsFault(m.file, r.problems);
  if (fault) throw fault;
  return r.selections;
}

/** The error for a selections file's problems: the first (`file: line N: …`) and how many more. */
function selectionsFault(file: string, problems: string[]): BadInputError | undefined {
  if (!problems.length) return undefined;
  return new BadInputError(
    `${problems[0]!.replace(`${file}:`, 'line ')}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}`,
    { file },
  );
}

/** Of the films of the run, those a method selects frames for and those it does not. */
interface Coverage {
  selected: number;
  films: number;
  missing: string[];
}

/**
 * A method's selections against the films of the run, as `hero evaluate` and `hero
 * check-selections` both check them: with `track`, every selected frame of those films is in the
 * rebuilt track; a film without a submission is an error unless `missing` is `zero`.
 */
function checkCoverage(
  method: string,
  sel: Frames,
  films: string[],
  o: { track?: string | undefined; missing?: 'error' | 'zero' | undefined; file?: string | undefined },
): Coverage {
  const filmSet = new Set(films);
  if (o.track !== undefined)
    for (const [film, frames] of sel)
      for (const f of filmSet.has(film) ? frames : []) {
        const file = trackFramePath(o.track, film, f.frame_idx);
        if (!existsSync(file))
          throw new BadInputError(
            `track frame ${f.frame_idx} of ${film} (method ${method}) is missing: rebuild the track`,
            { file },
          );
      }
  const missing = films.filter((f) => !sel.has(f));
  if (missing.length && (o.missing ?? 'error') === 'error')
    throw new BadInputError(
      `method ${method} submits nothing for ${missing.length} of ${films.length} film(s) with chains (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}); pass --missing zero to score them 0`,
      defined({ file: o.file }),
    );
  return { selected: films.length - missing.length, films: films.length, missing };
}

/** What `hero check-selections` reports: the coverage, every problem, and the error `hero evaluate` would stop at. */
export interface SelectionsReport {
  /** Films the file selects frames for, and their frames. */
  films: number;
  frames: number;
  /** Coverage: of the films with chains (those `hero evaluate` scores), how many are selected. */
  covered: number;
  films_in_set: number;
  missing_films: string[];
  /** Every problem of the file, `file:line: …`. */
  problems: string[];
  /** The line `hero evaluate` would refuse this file with, or null when it would accept it. */
  error: string | null;
}

/**
 * `hero check-selections` as one call: the selections file checked by the steps `hero evaluate`
 * takes (the file's problems, then checkCoverage), against the films with chains at `data`.
 * Returns the report and the error evaluate would throw (the caller throws it after printing).
 */
export async function checkSelectionsFile(
  file: string,
  data: string,
  layout: Layout,
  o: { track?: string | undefined; missing?: 'error' | 'zero' | undefined } = {},
): Promise<{ report: SelectionsReport; fault: BadInputError | undefined }> {
  const root = openDataset(data, layout);
  const ds = await root.core();
  const films = selectFilms((await root.chains()).keys(), {});
  const r = await checkSelections(file, ds.timelines);
  let fault = selectionsFault(file, r.problems);
  const missing = films.filter((f) => !r.selections.has(f));
  if (!fault)
    try {
      checkCoverage(methodName(file), r.selections, films, { ...o, file });
    } catch (e) {
      if (!(e instanceof BadInputError)) throw e;
      fault = e;
    }
  return {
    report: {
      films: r.selections.size,
      frames: [...r.selections.values()].reduce((a, f) => a + f.length, 0),
      covered: films.length - missing.length,
      films_in_set: films.length,
      missing_films: missing,
      problems: r.problems,
      error: fault ? fault.message : null,
    },
    fault,
  };
}
