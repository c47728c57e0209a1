/**
 * `hero validate`: checks a dataset root in the published layout and lists every problem as
 * `file:line: what is wrong` (capped per file), with a summary.
 */
import { existsSync, statSync } from 'node:fs';
import type { z } from 'zod';
import { BadInputError, messageOf } from '../../errors.js';
import { sha256File } from '../../store/canonical.js';
import { readJsonlLenient } from '../../store/jsonl.js';
import { readTextFile } from '../../store/limits.js';
import { Timeline } from '../track/timeline.js';
import { datasetPaths, imagePath } from './layout.js';
import { type Layout, LayoutReport, resolveLayout } from './layout-map.js';
import {
  baselineRowSchema,
  FilmClips,
  filmChainsSchema,
  filmRubricSchema,
  ImageHash,
  Movie,
  TrackRow,
  VerifyRow,
} from './schemas.js';
import { chainIdentity, FirstSeen, FrameLines } from './unique-ids.js';

export interface ValidationSummary {
  films: number;
  chains: number;
  images: number;
  criteria: number;
  pairs: number;
  confident_share: number;
  track_frames: number;
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
export const inspectHint = (root: string) =>
  ` — see what the file holds beside what kfbench reads: npx kfbench hero inspect --data ${root}`;

const MAX_PER_FILE = 50;

class Problems {
  readonly list: string[] = [];
  /** Appended to every schema error. */
  constructor(readonly hint = '') {}
  private readonly perFile = new Map<string, number>();
  add(file: string, line: number | undefined, msg: string): void {
    const n = (this.perFile.get(file) ?? 0) + 1;
    this.perFile.set(file, n);
    if (n <= MAX_PER_FILE) this.list.push(`${file}${line !== undefined ? `:${line}` : ''}: ${msg}`);
  }
  finish(): string[] {
    for (const [file, n] of this.perFile)
      if (n > MAX_PER_FILE) this.list.push(`${file}: … and ${n - MAX_PER_FILE} more problems`);
    return this.list;
  }
}

/**
 * Every line of `file` through `each`; a bad line is a problem and the read goes on. A file that
 * cannot be read to its end (truncated or damaged `.zst`, a line past the limit) is a problem at
 * that point, and so is a required file with no rows at all (empty is not valid).
 */
async function lines<S extends z.ZodType>(
  file: string,
  schema: S,
  problems: Problems,
  each: (v: z.output<S>, line: number) => void,
  required = true,
): Promise<void> {
  let rows = 0;
  try {
    for await (const l of readJsonlLenient(file, schema)) {
      rows++;
      if (l.ok) each(l.value, l.line);
      else problems.add(file, l.line, `${l.error}${problems.hint}`);
    }
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    const where = `${file}${e.line !== undefined ? `:${e.line}` : ''}: `;
    problems.add(file, e.line, e.message.startsWith(where) ? e.message.slice(where.length) : e.message);
    return;
  }
  if (rows === 0 && required)
    problems.add(file, undefined, 'no rows (an empty file is not a valid dataset file)');
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

  const movies = new Set<string>();
  if (existsSync(p.movies))
    await lines(p.movies, Movie, problems, (m, line) => {
      if (movies.has(m.movie_id)) problems.add(p.movies, line, `duplicate movie_id ${m.movie_id}`);
      movies.add(m.movie_id);
    });

  const timelines = new Map<string, Timeline>();
  if (existsSync(p.clips))
    await lines(p.clips, FilmClips, problems, (f, line) => {
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

  const shaByPath = new Map<string, string>();
  if (existsSync(p.imageSha)) {
    const paths = new FirstSeen<string>();
    await lines(p.imageSha, ImageHash, problems, (h, line) => {
      const first = paths.seen(h.path, `${p.imageSha}:${line}`);
      if (first) problems.add(p.imageSha, line, `duplicate path ${h.path} (first listed at ${first})`);
      else shaByPath.set(h.path, h.sha256);
    });
  }

  let chains = 0;
  let pairs = 0;
  let confident = 0;
  const images = new Set<string>();
  const checkImages: { movie: string; id: string; line: number }[] = [];
  const rubricIds: { movie: string; chain: string; ids: string[]; line: number }[] = [];
  const chainFilms = new FirstSeen<string>();
  const chainIds = new FirstSeen<string>();
  if (existsSync(p.chains))
    await lines(p.chains, filmChainsSchema(map, report), problems, (f, line) => {
      if (!movies.has(f.movie_id)) problems.add(p.chains, line, `movie ${f.movie_id} is not in movies.jsonl`);
      if (!timelines.has(f.movie_id))
        problems.add(p.chains, line, `movie ${f.movie_id} is not in clips.jsonl`);
      const firstRow = chainFilms.seen(f.movie_id, `${p.chains}:${line}`);
      if (firstRow)
        problems.add(p.chains, line, `duplicate movie_id ${f.movie_id} (its first row is ${firstRow})`);
      for (const [i, c] of f.chains.entries()) {
        chains++;
        const where = `chain ${c.chain_id}`;
        // one chain, one id: the same group_id + chain_index twice (or the same chain_id) is refused
        const first = chainIds.seen(c.chain_id, `${p.chains}:${line} (chains[${i}])`);
        if (first)
          problems.add(
            p.chains,
            line,
            `chains[${i}] is a second chain ${chainIdentity(c)}: the first is at ${first}`,
          );
        const ids = c.images.map((i) => i.image_id);
        if (new Set(ids).size !== 6 || ids.length !== 6)
          problems.add(
            p.chains,
            line,
            `${where} has ${ids.length} images (${new Set(ids).size} distinct), expected 6 distinct`,
          );
        if (c.order.length !== ids.length || !c.order.every((o) => ids.includes(o)))
          problems.add(p.chains, line, `${where}: order does not list exactly its images`);
        const tl = timelines.get(f.movie_id);
        for (const im of c.images) {
          if (im.source_as_published !== undefined)
            problems.add(
              p.chains,
              line,
              `${where}: image ${im.image_id} is published as ${String(im.source_as_published)} but the chain's anchor makes it ${im.source}`,
            );
          // a sampled image's clip and time (given, or read from its id) must lie inside that clip
          if (im.source !== 'sampled' || im.clip_id === undefined || !tl) continue;
          const clip = tl.clips.find((x) => x.clip_id === im.clip_id);
          if (!clip)
            problems.add(
              p.chains,
              line,
              `${where}: image ${im.image_id}: clip ${im.clip_id} is not in clips.jsonl`,
            );
          else if (im.t_in_clip !== undefined && im.t_in_clip * 1e6 > clip.end_us - clip.start_us)
            problems.add(
              p.chains,
              line,
              `${where}: image ${im.image_id}: t_in_clip ${im.t_in_clip} s is past the end of clip ${im.clip_id} (${(clip.end_us - clip.start_us) / 1e6} s)`,
            );
        }
        if (c.rubric_ids) rubricIds.push({ movie: f.movie_id, chain: c.chain_id, ids: c.rubric_ids, line });
        const stills = c.images.filter((i) => i.source === 'still').length;
        if (stills !== 1)
          problems.add(p.chains, line, `${where} has ${stills} publicity stills, expected exactly 1`);
        const seen = new Set<string>();
        for (const pr of c.pairs) {
          pairs++;
          if (pr.status === 'confident') confident++;
          const key = [pr.a, pr.b].sort().join('|');
          if (seen.has(key)) problems.add(p.chains, line, `${where}: pair ${pr.a}/${pr.b} judged twice`);
          seen.add(key);
          if (!ids.includes(pr.a) || !ids.includes(pr.b) || pr.a === pr.b)
            problems.add(p.chains, line, `${where}: pair ${pr.a}/${pr.b} is not two of its images`);
          if (pr.winner !== null && pr.winner !== pr.a && pr.winner !== pr.b)
            problems.add(p.chains, line, `${where}: winner ${pr.winner} is neither ${pr.a} nor ${pr.b}`);
          if (pr.status === 'confident' && pr.winner === null)
            problems.add(p.chains, line, `${where}: a confident pair ${pr.a}/${pr.b} has no winner`);
        }
        const want = (ids.length * (ids.length - 1)) / 2;
        if (seen.size !== want || c.pairs.length !== want)
          problems.add(
            p.chains,
            line,
            `${where} has ${c.pairs.length} pairs, expected ${want} covering every pair once`,
          );
        for (const id of ids) {
          const k = `${f.movie_id}/${id}`;
          if (!images.has(k)) checkImages.push({ movie: f.movie_id, id, line });
          images.add(k);
        }
      }
    });

  for (const im of checkImages) {
    const file = imagePath(root, im.movie, im.id);
    const rel = `images/${im.movie}/${im.id}.jpg`;
    if (!existsSync(file)) {
      problems.add(p.chains, im.line, `image file ${rel} is missing`);
      continue;
    }
    const want = shaByPath.get(rel);
    if (!want) problems.add(p.imageSha, undefined, `no sha256 listed for ${rel}`);
    else if ((await sha256File(file)) !== want)
      problems.add(p.imageSha, undefined, `${rel} does not match its sha256`);
  }

  let criteria = 0;
  const criterionIds = new Map<string, Set<string>>();
  const rubricFilms = new FirstSeen<string>();
  if (existsSync(p.rubrics))
    await lines(p.rubrics, filmRubricSchema(map, report), problems, (r, line) => {
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
  for (const r of rubricIds) {
    const have = criterionIds.get(r.movie);
    const absentIds = r.ids.filter((id) => !have?.has(id));
    if (absentIds.length)
      problems.add(
        p.chains,
        r.line,
        `chain ${r.chain}: rubric_ids ${absentIds.join(', ')} ${absentIds.length > 1 ? 'are' : 'is'} not in ${r.movie}'s rubric (data/rubrics.jsonl${have ? '' : ' has no row for the film'})`,
      );
  }

  let trackFrames = 0;
  if (existsSync(p.trackIndex)) {
    const frames = new FrameLines(timelines);
    await lines(p.trackIndex, TrackRow, problems, (t, line) => {
      trackFrames++;
      const tl = timelines.get(t.movie_id);
      if (!tl) return problems.add(p.trackIndex, line, `movie ${t.movie_id} is not in clips.jsonl`);
      if (t.frame_idx >= tl.frameCount)
        return problems.add(
          p.trackIndex,
          line,
          `frame_idx ${t.frame_idx} is past the film's ${tl.frameCount} track frames`,
        );
      const first = frames.seen(t.movie_id, t.frame_idx, line);
      if (first)
        return problems.add(
          p.trackIndex,
          line,
          `duplicate frame ${t.movie_id} ${t.frame_idx} (first at ${p.trackIndex}:${first})`,
        );
      const f = tl.frame(t.frame_idx);
      if (f.clip_id !== t.clip_id || Math.abs(f.t_in_clip - t.t_in_clip) > 1e-3)
        problems.add(
          p.trackIndex,
          line,
          `frame ${t.frame_idx} maps to ${t.clip_id}@${t.t_in_clip} but the timeline rule gives ${f.clip_id}@${f.t_in_clip}`,
        );
    });
  } else absent.push('frame_track/track_index.jsonl.zst');
  let verifyRows = 0;
  if (existsSync(p.verifyDhash)) {
    const frames = new FrameLines(timelines);
    await lines(p.verifyDhash, VerifyRow, problems, (v, line) => {
      verifyRows++;
      const tl = timelines.get(v.movie_id);
      if (!tl) problems.add(p.verifyDhash, line, `movie ${v.movie_id} is not in clips.jsonl`);
      else if (v.frame_idx >= tl.frameCount)
        problems.add(
          p.verifyDhash,
          line,
          `frame_idx ${v.frame_idx} is past the film's ${tl.frameCount} track frames`,
        );
      else {
        const first = frames.seen(v.movie_id, v.frame_idx, line);
        if (first)
          problems.add(
            p.verifyDhash,
            line,
            `duplicate frame ${v.movie_id} ${v.frame_idx} (first at ${p.verifyDhash}:${first})`,
          );
      }
    });
  } else absent.push('frame_track/verify_dhash.jsonl.zst');
  if (existsSync(p.baselines)) {
    const rows = new FirstSeen<string>();
    await lines(
      p.baselines,
      baselineRowSchema(map, report),
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

  return {
    summary: {
      films: movies.size,
      chains,
      images: images.size,
      criteria,
      pairs,
      confident_share: pairs ? confident / pairs : 0,
      track_frames: trackFrames,
      verify_rows: verifyRows,
      absent,
    },
    problems: problems.finish(),
    layout: { source: map.source, ...report.toJSON() },
  };
}
