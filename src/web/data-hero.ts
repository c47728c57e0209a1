/** The viewer's HeroFrame view (data.ts): the dataset given with --data and its results folders. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultLayout } from '../hero/dataset/layout-map.js';
import { loadByFilm, openDataset } from '../hero/dataset/load.js';
import { Movie, RubricProposal } from '../hero/dataset/schemas.js';
import { HeroSummary, InsertionRecord } from '../hero/results.js';
import { readJsonFile } from '../store/jsonl.js';
import { labels, lenientRows, mismatch, msg } from './read-results.js';
import type { HeroResults, HeroView, Problem, ViewerInputs } from './view-types.js';

async function loadHeroResults(
  dir: string,
  label: string,
  problems: Problem[],
): Promise<HeroResults | undefined> {
  const summaryFile = join(dir, 'summary.json');
  if (!existsSync(summaryFile)) {
    problems.push({
      area: 'hero',
      message: `results folder ${dir}: ${existsSync(dir) ? 'no summary.json (not a `hero evaluate` output?)' : 'missing'}`,
    });
    return undefined;
  }
  let summary: HeroSummary;
  try {
    summary = await readJsonFile(summaryFile, HeroSummary);
  } catch (e) {
    problems.push({ area: 'hero', message: msg(e) });
    return undefined;
  }
  const insertions = new Map<string, InsertionRecord[]>();
  const file = join(dir, 'insertions.jsonl');
  if (existsSync(file)) {
    for (const r of await lenientRows(file, InsertionRecord, 'hero', problems)) {
      const list = insertions.get(r.movie_id) ?? [];
      list.push(r);
      insertions.set(r.movie_id, list);
    }
  } else
    problems.push({
      area: 'hero',
      message: `results folder ${dir}: no insertions.jsonl (film pages show no placements)`,
    });
  return {
    dir,
    label,
    reader: summary.reader,
    protocol: summary.protocol,
    methods: summary.methods,
    official: summary.official,
    warnings: summary.warnings,
    insertions,
  };
}

export async function loadHero(i: ViewerInputs, problems: Problem[]): Promise<HeroView | undefined> {
  if (!i.data) {
    if (i.results?.length)
      problems.push({
        area: 'hero',
        message: 'results folders were given without --data: nothing to place them in',
      });
    return undefined;
  }
  const data = resolve(i.data);
  const root = openDataset(data, i.layout ?? defaultLayout());
  const paths = root.paths;
  const view: HeroView = {
    data,
    track: i.track ? resolve(i.track) : undefined,
    movies: new Map(),
    chains: new Map(),
    rubrics: new Map(),
    proposals: new Map(),
    results: [],
  };
  if (!existsSync(data)) problems.push({ area: 'hero', message: `--data ${data}: missing` });
  if (!i.track) problems.push({ area: 'hero', message: 'no --track: method frames cannot be shown' });
  else if (!existsSync(i.track)) problems.push({ area: 'hero', message: `--track ${view.track}: missing` });
  const byFilm = async <T>(file: string, load: () => Promise<Map<string, T>>, required: boolean) => {
    if (!existsSync(file)) {
      if (required) problems.push({ area: 'hero', message: `${file}: missing` });
      return new Map<string, T>();
    }
    try {
      return await load();
    } catch (e) {
      problems.push({ area: 'hero', message: msg(e) });
      return new Map<string, T>();
    }
  };
  if (existsSync(data)) {
    for (const [id, m] of await byFilm(paths.movies, () => loadByFilm(paths.movies, Movie), true))
      view.movies.set(id, { title: m.title, year: m.year });
    view.chains = await byFilm(paths.chains, () => root.chains(), true);
    view.rubrics = await byFilm(paths.rubrics, () => root.rubrics(), false);
    if (existsSync(paths.rubricProposals))
      for (const p of await lenientRows(paths.rubricProposals, RubricProposal, 'hero', problems)) {
        const list = view.proposals.get(p.movie_id) ?? [];
        list.push(p);
        view.proposals.set(p.movie_id, list);
      }
  }
  const dirs = (i.results ?? []).map((d) => resolve(d));
  const names = labels(dirs);
  for (const [k, dir] of dirs.entries()) {
    const r = await loadHeroResults(dir, names[k]!, problems);
    if (!r) continue;
    const films = [...r.insertions.keys()];
    mismatch(problems, 'hero', dir, films, (f) => view.chains.has(f), {
      set: 'dataset',
      items: 'films',
      where: `has chains in ${data}`,
    });
    view.results.push(r);
  }
  if (!dirs.length)
    problems.push({ area: 'hero', message: 'no --results folder: chains are shown without any method' });
  return view;
}
