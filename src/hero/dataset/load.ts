/** Loaders for the per-film files (strict: the first bad line is an error naming file and line). */
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { BadInputError, messageOf } from '../../errors.js';
import { readJsonl, readJsonlAll } from '../../store/jsonl.js';
import { readTextFile } from '../../store/limits.js';
import { Timeline } from '../track/timeline.js';
import { type DatasetPaths, datasetPaths } from './layout.js';
import { defaultLayout, type Layout, LayoutReport } from './layout-map.js';
import {
  type BaselineRow,
  baselineRowSchema,
  type FilmChains,
  FilmClips,
  type FilmRubric,
  filmChainsSchema,
  filmRubricSchema,
  Movie,
  VerifyRow,
} from './schemas.js';

/** One line per film → Map by movie_id (a duplicate is an error). */
export async function loadByFilm<S extends z.ZodType<{ movie_id: string }>>(
  file: string,
  schema: S,
): Promise<Map<string, z.output<S> & { line: number }>> {
  const out = new Map<string, z.output<S> & { line: number }>();
  for await (const l of readJsonl(file, schema)) {
    const v = l.value;
    if (out.has(v.movie_id))
      throw new BadInputError(`duplicate movie_id ${v.movie_id}`, { file, line: l.line });
    out.set(v.movie_id, { ...v, line: l.line });
  }
  if (out.size === 0) throw new BadInputError('no rows (an empty file is not valid)', { file });
  return out;
}

export interface HeroDataset {
  paths: DatasetPaths;
  movies: Map<string, z.output<typeof Movie> & { line: number }>;
  clips: Map<string, z.output<typeof FilmClips> & { line: number }>;
  timelines: Map<string, Timeline>;
}

/**
 * A HeroFrame root opened once: its paths, the layout map, and its files read on first use (each
 * once) into kfbench's shape. Every command that reads a root goes through this.
 */
export interface OpenDataset {
  root: string;
  paths: DatasetPaths;
  layout: Layout;
  /** Which alias each mapped field resolved to in the records read so far. */
  report: LayoutReport;
  core(): Promise<HeroDataset>;
  chains(): Promise<Map<string, FilmChains & { line: number }>>;
  /** Empty when data/rubrics.jsonl is absent. */
  rubrics(): Promise<Map<string, FilmRubric & { line: number }>>;
  /** The official rows of eval/baselines.jsonl (none when it is absent). */
  baselines(): Promise<BaselineRow[]>;
}

/** `layout`: the layout map its files are read through (`resolveLayout`, `defaultLayout`). */
export function openDataset(root: string, layout: Layout): OpenDataset {
  const paths = datasetPaths(root);
  const map = layout;
  const report = new LayoutReport();
  const once = <T>(f: () => Promise<T>): (() => Promise<T>) => {
    let p: Promise<T> | undefined;
    return () => {
      p ??= f();
      return p;
    };
  };
  return {
    root,
    paths,
    layout: map,
    report,
    core: once(() => readCore(paths)),
    chains: once(async () =>
      uniqueChains(paths.chains, await loadByFilm(paths.chains, filmChainsSchema(map, report))),
    ),
    rubrics: once(async () =>
      existsSync(paths.rubrics) ? loadByFilm(paths.rubrics, filmRubricSchema(map, report)) : new Map(),
    ),
    baselines: once(async () =>
      existsSync(paths.baselines)
        ? (await readJsonlAll(paths.baselines, baselineRowSchema(map, report))).map((l) => l.value)
        : [],
    ),
  };
}

/**
 * Chains as loaded, refused when a film lists one chain id twice (two chains with the same
 * group_id + chain_index): every command that reads chains, not only `hero validate`, stops there.
 */
function uniqueChains<T extends Map<string, FilmChains & { line: number }>>(file: string, films: T): T {
  for (const f of films.values()) {
    const first = new Map<string, number>();
    for (const [i, c] of f.chains.entries()) {
      const was = first.get(c.chain_id);
      if (was !== undefined)
        throw new BadInputError(
          `chains[${i}] is a second chain ${c.chain_id} (chains[${was}] is the first): run hero validate`,
          { file, line: f.line },
        );
      first.set(c.chain_id, i);
    }
  }
  return films;
}

export async function loadCore(
  root: string | OpenDataset,
  layout: Layout = defaultLayout(),
): Promise<HeroDataset> {
  return (typeof root === 'string' ? openDataset(root, layout) : root).core();
}

async function readCore(paths: DatasetPaths): Promise<HeroDataset> {
  for (const f of [paths.movies, paths.clips])
    if (!existsSync(f))
      throw new BadInputError('missing (required file of the published layout)', { file: f });
  const movies = await loadByFilm(paths.movies, Movie);
  const clips = await loadByFilm(paths.clips, FilmClips);
  const timelines = new Map<string, Timeline>();
  for (const [id, f] of clips) {
    try {
      timelines.set(id, new Timeline(id, f.clips));
    } catch (e) {
      throw new BadInputError(messageOf(e), { file: paths.clips, line: f.line });
    }
  }
  return { paths, movies, clips, timelines };
}

export async function loadChains(root: string | OpenDataset, layout: Layout = defaultLayout()) {
  return (typeof root === 'string' ? openDataset(root, layout) : root).chains();
}

export async function loadRubrics(root: string | OpenDataset, layout: Layout = defaultLayout()) {
  return (typeof root === 'string' ? openDataset(root, layout) : root).rubrics();
}

/** verify_dhash rows grouped by film, in frame order. */
export async function loadVerifyHashes(
  root: string,
): Promise<Map<string, { frame_idx: number; dhash: string }[]>> {
  const file = datasetPaths(root).verifyDhash;
  if (!existsSync(file))
    throw new BadInputError('missing: rebuild it with `npx kfbench hero track make-index`', { file });
  const out = new Map<string, { frame_idx: number; dhash: string }[]>();
  for await (const l of readJsonl(file, VerifyRow)) {
    const list = out.get(l.value.movie_id) ?? [];
    list.push({ frame_idx: l.value.frame_idx, dhash: l.value.dhash });
    out.set(l.value.movie_id, list);
  }
  if (out.size === 0) throw new BadInputError('no rows (an empty file is not valid)', { file });
  for (const l of out.values()) l.sort((a, b) => a.frame_idx - b.frame_idx);
  return out;
}

export function readQuery(root: string): string {
  const f = datasetPaths(root).query;
  if (!existsSync(f)) throw new BadInputError('missing', { file: f });
  return readTextFile(f).trim();
}
