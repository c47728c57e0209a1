/**
 * What the viewer shows, read once at start from the folders it was given. Nothing here throws on
 * bad input: a missing folder, a malformed line or results from another dataset become `problems`
 * that the pages print, so the server always starts and says what is wrong.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { type LoadedCase, loadCases, PROMPT_MODES, type PromptMode } from '../compass/cases.js';
import { Checklist, Leaderboard, ResponseRow, ResponseSummary, VideoEvaluation } from '../compass/results.js';
import { isKfbenchError } from '../errors.js';
import { loadByFilm, openDataset } from '../hero/dataset/load.js';
import { type FilmChains, type FilmRubric, Movie, RubricProposal } from '../hero/dataset/schemas.js';
import { HeroSummary, InsertionRecord, type MethodSummary } from '../hero/results.js';
import { readJsonFile, readJsonlLenient } from '../store/jsonl.js';

export interface Problem {
  area: 'hero' | 'compass';
  message: string;
}

export interface HeroResults {
  dir: string;
  label: string;
  reader: string;
  protocol: string;
  methods: MethodSummary[];
  official: MethodSummary[];
  warnings: string[];
  /** By film, then in file order (results written before verdicts were kept have none). */
  insertions: Map<string, InsertionRecord[]>;
}

export type ProposalRow = RubricProposal;

export interface HeroView {
  data: string;
  track: string | undefined;
  movies: Map<string, { title: string; year: number }>;
  chains: Map<string, FilmChains>;
  rubrics: Map<string, FilmRubric>;
  proposals: Map<string, ProposalRow[]>;
  results: HeroResults[];
}

export interface CompassResults {
  dir: string;
  label: string;
  summary: ResponseSummary | undefined;
  leaderboard: Leaderboard | undefined;
  /** response.jsonl rows by `case_id|model|prompt_mode`. */
  responses: Map<string, ResponseRow>;
  /** evaluation.jsonl rows (first run) by `case_id|model|prompt_mode`. */
  evaluations: Map<string, VideoEvaluation>;
  /** checklists.jsonl by `case_id|prompt_mode|metric`. */
  checklists: Map<string, Checklist>;
}

export interface CompassView {
  casesFile: string;
  casesDir: string;
  cases: LoadedCase[];
  videos: string | undefined;
  results: CompassResults[];
  models: string[];
}

export interface ViewerData {
  hero: HeroView | undefined;
  compass: CompassView | undefined;
  problems: Problem[];
}

export interface ViewerInputs {
  data?: string | undefined;
  track?: string | undefined;
  results?: string[] | undefined;
  cases?: string | undefined;
  videos?: string | undefined;
  compassResults?: string[] | undefined;
}

export const videoKey = (caseId: string, model: string, mode: PromptMode | string) =>
  `${caseId}|${model}|${mode}`;
export const checklistKey = (caseId: string, mode: PromptMode | string, metric: string) =>
  `${caseId}|${mode}|${metric}`;

/** Whether any Compass results folder scored this model's video of a case in a mode. */
export function hasVideo(
  view: CompassView,
  caseId: string,
  model: string,
  mode: PromptMode | string,
): boolean {
  return view.results.some((r) => r.responses.has(videoKey(caseId, model, mode)));
}

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

const some = (ids: string[]) => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;

/** A results folder whose ids are not (all) in what it was given with: from another set, or partly. */
function mismatch(
  problems: Problem[],
  area: Problem['area'],
  dir: string,
  ids: string[],
  known: (id: string) => boolean,
  words: { set: string; items: string; where: string },
): void {
  const unknown = ids.filter((id) => !known(id));
  if (!unknown.length) return;
  problems.push({
    area,
    message:
      unknown.length === ids.length
        ? `results folder ${dir} is from another ${words.set}: none of its ${ids.length} ${words.items} (${some(unknown)}) ${words.where}`
        : `results folder ${dir}: ${unknown.length} of its ${ids.length} ${words.items} (${some(unknown)}) are not in the ${words.set} given; they are not shown`,
  });
}

/** Unique labels for results folders: the folder name, with its parent when two share a name. */
function labels(dirs: string[]): string[] {
  const names = dirs.map((d) => basename(d));
  return dirs.map((d, i) =>
    names.filter((n) => n === names[i]).length > 1 ? `${basename(dirname(d))}/${names[i]}` : names[i]!,
  );
}

async function lenientRows<S extends z.ZodType>(
  file: string,
  schema: S,
  area: Problem['area'],
  problems: Problem[],
): Promise<z.output<S>[]> {
  const out: z.output<S>[] = [];
  let bad = 0;
  try {
    for await (const l of readJsonlLenient(file, schema)) {
      if (l.ok) out.push(l.value);
      else if (bad++ < 3) problems.push({ area, message: `${file}:${l.line}: ${l.error} (line skipped)` });
    }
  } catch (e) {
    // a damaged .zst or a line past the limit: show what was read, and say where it stopped
    if (!isKfbenchError(e)) throw e;
    problems.push({ area, message: `${e.message} (read stopped there)` });
  }
  if (bad > 3) problems.push({ area, message: `${file}: ${bad - 3} more malformed lines skipped` });
  return out;
}

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

async function loadHero(i: ViewerInputs, problems: Problem[]): Promise<HeroView | undefined> {
  if (!i.data) {
    if (i.results?.length)
      problems.push({
        area: 'hero',
        message: 'results folders were given without --data: nothing to place them in',
      });
    return undefined;
  }
  const data = resolve(i.data);
  const root = openDataset(data);
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

async function loadCompassResults(
  dir: string,
  label: string,
  problems: Problem[],
): Promise<CompassResults | undefined> {
  if (!existsSync(dir)) {
    problems.push({ area: 'compass', message: `results folder ${dir}: missing` });
    return undefined;
  }
  const r: CompassResults = {
    dir,
    label,
    summary: undefined,
    leaderboard: undefined,
    responses: new Map(),
    evaluations: new Map(),
    checklists: new Map(),
  };
  const rf = join(dir, 'response.jsonl');
  if (!existsSync(rf)) {
    problems.push({
      area: 'compass',
      message: `results folder ${dir}: no response.jsonl (not a \`compass score\` or \`compass evaluate\` output?)`,
    });
    return undefined;
  }
  for (const row of await lenientRows(rf, ResponseRow, 'compass', problems))
    r.responses.set(videoKey(row.case_id, row.model, row.prompt_mode), row);
  const json = async <S extends z.ZodType>(name: string, schema: S): Promise<z.output<S> | undefined> => {
    if (!existsSync(join(dir, name))) return undefined;
    try {
      return await readJsonFile(join(dir, name), schema);
    } catch (e) {
      problems.push({ area: 'compass', message: `${msg(e)} (not shown)` });
      return undefined;
    }
  };
  r.summary = await json('summary.json', ResponseSummary);
  r.leaderboard = await json('leaderboard.json', Leaderboard);
  const ef = join(dir, 'evaluation.jsonl');
  if (existsSync(ef))
    for (const row of await lenientRows(ef, VideoEvaluation, 'compass', problems)) {
      const k = videoKey(row.case_id, row.model, row.prompt_mode);
      if (!r.evaluations.has(k) || row.run === 0) r.evaluations.set(k, row);
    }
  const cf = join(dir, 'checklists.jsonl');
  if (existsSync(cf))
    for (const row of await lenientRows(cf, Checklist, 'compass', problems))
      r.checklists.set(checklistKey(row.case_id, row.prompt_mode, row.metric), row);
  return r;
}

async function loadCompass(i: ViewerInputs, problems: Problem[]): Promise<CompassView | undefined> {
  if (!i.cases) {
    if (i.compassResults?.length || i.videos)
      problems.push({
        area: 'compass',
        message: 'Compass results or videos were given without --cases: nothing to match them to',
      });
    return undefined;
  }
  const casesFile = resolve(i.cases);
  const view: CompassView = {
    casesFile,
    casesDir: dirname(casesFile),
    cases: [],
    videos: i.videos ? resolve(i.videos) : undefined,
    results: [],
    models: [],
  };
  try {
    view.cases = await loadCases(casesFile);
  } catch (e) {
    problems.push({ area: 'compass', message: msg(e) });
  }
  if (!i.videos) problems.push({ area: 'compass', message: 'no --videos: case pages show no video' });
  else if (!existsSync(i.videos))
    problems.push({ area: 'compass', message: `--videos ${view.videos}: missing` });
  const ids = new Set(view.cases.map((c) => c.case_id));
  const dirs = (i.compassResults ?? []).map((d) => resolve(d));
  const names = labels(dirs);
  for (const [k, dir] of dirs.entries()) {
    const r = await loadCompassResults(dir, names[k]!, problems);
    if (!r) continue;
    const seen = [...new Set([...r.responses.values()].map((x) => x.case_id))];
    mismatch(problems, 'compass', dir, seen, (c) => ids.has(c), {
      set: 'case set',
      items: 'cases',
      where: `is in ${casesFile}`,
    });
    view.results.push(r);
  }
  if (!dirs.length)
    problems.push({
      area: 'compass',
      message: 'no --compass-results folder: case pages show keyframes only',
    });
  view.models = [
    ...new Set(view.results.flatMap((r) => [...r.responses.values()].map((x) => x.model))),
  ].sort();
  return view;
}

export async function loadViewerData(i: ViewerInputs): Promise<ViewerData> {
  const problems: Problem[] = [];
  const hero = await loadHero(i, problems);
  const compass = await loadCompass(i, problems);
  if (!hero && !compass)
    problems.push({
      area: 'hero',
      message: 'nothing to show: give --data (HeroFrame) and/or --cases (Compass)',
    });
  return { hero, compass, problems };
}

export const MODES: readonly PromptMode[] = PROMPT_MODES;
