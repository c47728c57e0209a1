/**
 * `hero validate`: checks a dataset root in the published layout and lists every problem as
 * `file:line: what is wrong` (capped per file), with a summary. The films, clips, image hashes,
 * rubrics and the optional files here; the chains in validate-chains.ts, the frame track in
 * validate-frames.ts.
 */
import { existsSync, statSync } from 'node:fs';
import { BadInputError, messageOf } from '../../errors.js';
import { readTextFile } from '../../store/limits.js';
import { Timeline } from '../track/timeline.js';
import { type DatasetPaths, datasetPaths } from './layout.js';
import { type Layout, LayoutReport, resolveLayout } from './layout-map.js';
import { baselineRowSchema, FilmClips, filmRubricSchema, ImageHash, Movie } from './schemas.js';
import { FirstSeen } from './unique-ids.js';
import { type ChainTally, checkChains, checkImageFiles } from './validate-chains.js';
import { checkTrackIndex, checkVerifyRows } from './validate-frames.js';
import { checkLines, Problems } from './validate-problems.js';

interface ValidationSummary {
  films: number;
  chains: number;
  images: number;
  criteria: number;
  pairs: number;
  confident_share: number;
  track_frames: number;
  /**
   * Track-index rows whose (clip_id, t_in_clip) is not the midpoint rule's (issue 54 item 5): the
   * published coordinate is the one extracted; each named "<movie> <frame>: index …, rule …".
   */
  rule_disagreements: { count: number; frames: string[] };
  verify_rows: number;
  absent: string[];
}

export interface ValidationReport {
  summary: ValidationSummary;
  problems: string[];
  /** The layout map used and which alias each mapped field resolved to. */
  layout: { source: string } & ReturnType<LayoutReport['toJSON']>;
}

/** The hint that ends every schema error: see what the file holds. */
const inspectHint = (root: string) =>
  ` — see what the file holds beside what kfbench reads: npx kfbench hero inspect --data ${root}`;

/** `data/movies.jsonl`: each movie_id once. */
async function checkMovies(p: DatasetPaths, problems: Problems): Promise<Set<string>> {
  const movies = new Set<string>();
  if (existsSync(p.movies))
    await checkLines(p.movies, Movie, problems, (m, line) => {
      if (movies.has(m.movie_id)) problems.add(p.movies, line, `duplicate movie_id ${m.movie_id}`);
      movies.add(m.movie_id);
    });
  return movies;
}

/** `data/clips.jsonl`: each film known and once, its clip ids distinct, its timeline sound. */
async function checkClips(
  p: DatasetPaths,
  movies: Set<string>,
  problems: Problems,
): Promise<Map<string, Timeline>> {
  const timelines = new Map<string, Timeline>();
  if (existsSync(p.clips))
    await checkLines(p.clips, FilmClips, problems, (f, line) => {
      if (!movies.has(f.movie_id)) problems.add(p.clips, line, `movie ${f.movie_id} is not in movies.jsonl`);
      if (timelines.has(f.movie_id)) problems.add(p.clips, line, `duplicate movie_id ${f.movie_id}`);
      const ids = new Set<string>();
      for (const c of f.clips) {
        if (ids.has(c.clip_id)) problems.add(p.clips, line, `duplicate clip_id ${c.clip_id}`);
        ids.add(c.clip_id);
      }
      try {
        timelines.set(f.movie_id, new Timeline(f.movie_id, f.clips));
      } catch (e) {
        problems.add(p.clips, line, messageOf(e));
      }
    });
  return timelines;
}

/** `images/image_sha256.jsonl`: each path once; the sha256 by path. */
async function checkImageHashes(p: DatasetPaths, problems: Problems): Promise<Map<string, string>> {
  const shaByPath = new Map<string, string>();
  if (existsSync(p.imageSha)) {
    const paths = new FirstSeen<string>();
    await checkLines(p.imageSha, ImageHash, problems, (h, line) => {
      const first = paths.seen(h.path, `${p.imageSha}:${line}`);
      if (first) problems.add(p.imageSha, line, `duplicate path ${h.path} (first listed at ${first})`);
      else shaByPath.set(h.path, h.sha256);
    });
  }
  return shaByPath;
}

/**
 * `data/rubrics.jsonl`: each film known and once, each criterion of a film once; then every
 * criterion a chain names must be in its film's rubric. The number of criteria.
 */
async function checkRubrics(
  p: DatasetPaths,
  layout: { map: Layout; report: LayoutReport },
  movies: Set<string>,
  tally: ChainTally,
  problems: Problems,
): Promise<number> {
  let criteria = 0;
  const criterionIds = new Map<string, Set<string>>();
  const rubricFilms = new FirstSeen<string>();
  if (existsSync(p.rubrics))
    await checkLines(p.rubrics, filmRubricSchema(layout.map, layout.report), problems, (r, line) => {
      if (!movies.has(r.movie_id))
        problems.add(p.rubrics, line, `movie ${r.movie_id} is not in movies.jsonl`);
      const firstRow = rubricFilms.seen(r.movie_id, `${p.rubrics}:${line}`);
      if (firstRow)
        problems.add(p.rubrics, line, `duplicate movie_id ${r.movie_id} (its first row is ${firstRow})`);
      const ids = new FirstSeen<string>();
      for (const [i, c] of r.criteria.entries()) {
        const first = ids.seen(c.criterion_id, `criteria[${i}]`);
        if (first)
          problems.add(
            p.rubrics,
            line,
            `criteria[${i}] repeats criterion_id ${c.criterion_id} of ${first} (each criterion of a film once)`,
          );
      }
      criteria += r.criteria.length;
      criterionIds.set(r.movie_id, new Set(r.criteria.map((c) => c.criterion_id)));
    });
  // every criterion a chain names must be in its film's rubric
  for (const r of tally.rubricIds) {
    const have = criterionIds.get(r.movie);
    const absentIds = r.ids.filter((id) => !have?.has(id));
    if (absentIds.length)
      problems.add(
        p.chains,
        r.line,
        `chain ${r.chain}: rubric_ids ${absentIds.join(', ')} ${absentIds.length > 1 ? 'are' : 'is'} not in ${r.movie}'s rubric (data/rubrics.jsonl${have ? '' : ' has no row for the film'})`,
      );
  }
  return criteria;
}

/** The optional evaluation and statistics files: baselines (each method and reader once), corpus stats. */
async function checkOptional(
  p: DatasetPaths,
  layout: { map: Layout; report: LayoutReport },
  problems: Problems,
  absent: string[],
): Promise<void> {
  if (existsSync(p.baselines)) {
    const rows = new FirstSeen<string>();
    await checkLines(
      p.baselines,
      baselineRowSchema(layout.map, layout.report),
      problems,
      (b, line) => {
        const first = rows.seen(JSON.stringify([b.method, b.reader]), `${p.baselines}:${line}`);
        if (first)
          problems.add(
            p.baselines,
            line,
            `a second row of method ${b.method} with reader ${b.reader} (the first is ${first})`,
          );
      },
      false,
    );
  } else absent.push('eval/baselines.jsonl');
  if (!existsSync(p.query)) absent.push('eval/query.txt');
  if (existsSync(p.corpusStats)) {
    try {
      JSON.parse(readTextFile(p.corpusStats));
    } catch (e) {
      if (e instanceof BadInputError)
        problems.add(p.corpusStats, undefined, e.message.replace(`${p.corpusStats}: `, ''));
      else problems.add(p.corpusStats, undefined, `not valid JSON (${messageOf(e)})`);
    }
  } else absent.push('stats/corpus_stats.json');
}

export async function validateDataset(root: string, layout?: Layout | string): Promise<ValidationReport> {
  // one line for a root that is not there, not a summary of nothing and five missing files
  if (!existsSync(root)) throw new BadInputError('no such folder (the dataset root)', { file: root });
  if (!statSync(root).isDirectory())
    throw new BadInputError('is a file, not a folder (the dataset root)', { file: root });
  const p = datasetPaths(root);
  const map = typeof layout === 'object' ? layout : resolveLayout(layout);
  const report = new LayoutReport();
  const problems = new Problems(inspectHint(root));
  const absent: string[] = [];
  for (const f of [p.movies, p.clips, p.chains, p.rubrics, p.imageSha])
    if (!existsSync(f)) problems.add(f, undefined, 'missing (required file of the published layout)');
  const movies = await checkMovies(p, problems);
  const timelines = await checkClips(p, movies, problems);
  const shaByPath = await checkImageHashes(p, problems);
  const tally = await checkChains(p, { map, report }, { movies, timelines }, problems);
  await checkImageFiles(p, tally, shaByPath, problems);
  const criteria = await checkRubrics(p, { map, report }, movies, tally, problems);
  const track = await checkTrackIndex(p, timelines, problems, absent);
  const verifyRows = await checkVerifyRows(p, timelines, problems, absent);
  await checkOptional(p, { map, report }, problems, absent);
  const { chains, pairs, confident, images } = tally;
  return {
    summary: {
      films: movies.size,
      chains,
      images: images.size,
      criteria,
      pairs,
      confident_share: pairs ? confident / pairs : 0,
      track_frames: track.frames,
      rule_disagreements: { count: track.disagreements.length, frames: track.disagreements },
      verify_rows: verifyRows,
      absent,
    },
    problems: problems.finish(),
    layout: { source: map.source, ...report.toJSON() },
  };
}
