/**
 * Writes a HeroFrame evaluation's output folder atomically: summary.json (deterministic), run.json,
 * per_film.csv, insertions.jsonl, report.md, report.html. It lives with the renderers because it
 * renders: hero/ computes, report/ draws (imports point down).
 */
import { join } from 'node:path';
import { trackFramePath } from '../hero/dataset/layout.js';
import type { EvaluateResult } from '../hero/evaluate/evaluate.js';
import { HeroRun, HeroSummary, InsertionRecord } from '../hero/results.js';
import { encodeImage, loadImage, resizeImage } from '../media/image.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { writeJsonFile, writeJsonl } from '../store/jsonl.js';
import { type FolderFile, placed, writeOutputFolder } from '../store/out-folder.js';
import type { NamedPath } from '../store/path-overlap.js';
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
 * An evaluated `hero evaluate` run (`evaluateHeroRun`, src/runs/hero-evaluate.ts) written to `out` whole or not at all: the
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
