/**
 * Writes a HeroFrame evaluation's output folder atomically: summary.json (deterministic), run.json,
 * per_film.csv, insertions.jsonl, report.md, report.html. It lives with the renderers because it
 * renders: hero/ computes, report/ draws (imports point down).
 */
import { join, resolve } from 'node:path';
import { trackFramePath } from '../hero/dataset/layout.js';
import type { EvaluateResult } from '../hero/evaluate.js';
import { mergeHero } from '../hero/merge.js';
import { HeroRun, HeroSummary, InsertionRecord } from '../hero/results.js';
import {
  evaluateHeroRun,
  type HeroRunEvaluated,
  type HeroRunInput,
  type HeroRunOutcome,
} from '../hero/run.js';
import { encodeImage, loadImage, resizeImage } from '../media/image.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { writeJsonFile, writeJsonl } from '../store/jsonl.js';
import { type FolderFile, outsideShards, placed, writeOutputFolder } from '../store/out-folder.js';
import { type NamedPath, outputFiles, refuseOverlap } from '../store/path-overlap.js';
import { RECORD_FILES, type ShardRecord, writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import { heroHtml, heroMarkdown, perFilmCsv } from './hero.js';
/** What `writeEvaluation` writes, in its order (the names it uses; `--help` lists them). */
export const HERO_EVALUATION_FILES: readonly FolderFile[] = [
  { name: 'summary.json', what: 'per method: S, S@k, top-1 with bootstrap CIs (deterministic)' },
  { name: 'run.json', what: 'the reader, protocol, judge calls (from the cache) and wall time' },
  { name: 'per_film.csv', what: "each method's score per film" },
  {
    name: 'insertions.jsonl',
    what: "every insertion: method, film, frame, chain, the judge's answer, the position",
  },
  { name: 'report.md', what: 'the leaderboard as Markdown' },
  { name: 'report.html', what: "the leaderboard with each method's top frame per film" },
];

/** Everything `hero evaluate` and `kfbench merge hero` write into the folder. */
export const HERO_FOLDER_FILES: readonly FolderFile[] = [...HERO_EVALUATION_FILES, ...RECORD_FILES];

export async function writeEvaluation(
  out: string,
  r: EvaluateResult,
  run: HeroRun,
  track: string,
): Promise<string[]> {
  const files = HERO_EVALUATION_FILES.map((f) => join(out, f.name));
  await writeJsonFile(files[0]!, HeroSummary, r.summary);
  await writeJsonFile(files[1]!, HeroRun, run);
  await writeFileAtomic(files[2]!, perFilmCsv(r.perFilm));
  await writeJsonl(files[3]!, InsertionRecord, r.insertions);
  await writeFileAtomic(files[4]!, heroMarkdown(r.summary));
  const thumbs = [];
  const top = new Map<string, { method: string; movie_id: string; frame: number }>();
  for (const i of r.insertions)
    if (i.rank === 1 && typeof i.frame === 'number')
      top.set(`${i.method}|${i.movie_id}`, { method: i.method, movie_id: i.movie_id, frame: i.frame });
  for (const t of [...top.values()].sort(
    (a, b) => a.movie_id.localeCompare(b.movie_id) || a.method.localeCompare(b.method),
  )) {
    const img = await loadImage(trackFramePath(track, t.movie_id, t.frame));
    const small = await resizeImage(img, 160, Math.max(8, Math.round((img.height * 160) / img.width)));
    thumbs.push({
      method: t.method,
      movie_id: t.movie_id,
      dataUrl: `data:image/jpeg;base64,${(await encodeImage(small, { format: 'jpeg', quality: 80 })).toString('base64')}`,
    });
  }
  await writeFileAtomic(files[5]!, heroHtml(r.summary, thumbs));
  return files;
}

/**
 * An evaluated `hero evaluate` run (`evaluateHeroRun`) written to `out` whole or not at all: the
 * files of `writeEvaluation`, settings.json and outputs.json, staged beside `out` and moved into
 * place (a failure leaves `out` as it was). Returns the paths written, report.html sixth.
 */
export function writeHeroRun(
  out: string,
  r: { result: EvaluateResult; run: HeroRun; record: ShardRecord },
  track: string,
  reads: readonly NamedPath[] = [],
): Promise<string[]> {
  return writeOutputFolder(
    out,
    async (stage) => {
      const fs = await writeEvaluation(stage, r.result, r.run, track);
      fs.push(await writeShardRecord(stage, r.record));
      await writeOutputsRecord(stage, 'movie_id');
      return fs.map((f) => placed(stage, out, f));
    },
    { reads },
  );
}

/** The files a hero run writes into `out`. */
const heroRunFiles = (out: string) =>
  outputFiles(
    out,
    HERO_FOLDER_FILES.map((f) => f.name),
  );

/** What `hero evaluate` reads, named by its flags: none of it may be a file the run writes. */
function heroReads(o: HeroRunInput): NamedPath[] {
  return [
    { flag: '--data', path: o.data },
    { flag: '--track', path: o.track },
    { flag: '--layout', path: typeof o.layout === 'string' ? o.layout : undefined },
    { flag: '--stills-dir', path: o.stillsDir },
    { flag: '--judge-cache', path: o.judge.cache },
    ...o.methods.map((m) => ({ flag: '--selections', path: m.file })),
  ];
}

/** What `evaluateHeroFolder` did: a dry run's counts, or the evaluation with the files it wrote. */
export type HeroFolderOutcome =
  | Extract<HeroRunOutcome, { kind: 'dry-run' }>
  | (HeroRunEvaluated & { files: string[] });

/**
 * `hero evaluate` as one call: the methods evaluated (`evaluateHeroRun`: the judge opened and
 * closed) and, unless it is a dry run, the run written to `out` (`writeHeroRun`).
 */
export function evaluateHeroFolder(
  o: HeroRunInput & { out: string; dryRun?: false },
): Promise<HeroRunEvaluated & { files: string[] }>;
export function evaluateHeroFolder(o: HeroRunInput & { out: string }): Promise<HeroFolderOutcome>;
export async function evaluateHeroFolder(o: HeroRunInput & { out: string }): Promise<HeroFolderOutcome> {
  const { out, ...input } = o;
  const reads = heroReads(input);
  if (!o.dryRun) refuseOverlap({ reads, writes: heroRunFiles(out) });
  const r = await evaluateHeroRun(input);
  if (r.kind === 'dry-run') return r;
  return { ...r, files: await writeHeroRun(out, r, o.track, reads) };
}

/**
 * `kfbench merge hero` as one call: the shard folders merged (`mergeHero`) and written to `out`
 * as the unsharded run would have written them, `out` never one of the shards.
 */
export async function mergeHeroRun(
  dirs: readonly string[],
  out: string,
): Promise<{ films: number; insertions: number; files: string[] }> {
  const target = outsideShards(out, dirs);
  const t0 = Date.now();
  const m = await mergeHero(dirs);
  const run = {
    reader: m.reader,
    merged_from: dirs.map((d) => resolve(d)),
    insertions: m.result.insertions.length,
    complete: true,
    wall_ms: Date.now() - t0,
  };
  const files = await writeHeroRun(
    target,
    { result: m.result, run, record: m.record },
    m.track,
    dirs.map((d) => ({ flag: 'shard', path: d })),
  );
  return { films: m.record.all.length, insertions: m.result.insertions.length, files };
}
