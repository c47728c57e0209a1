/**
 * The mini HeroFrame set: six generated "films" (footage made by ffmpeg from shipped photographs,
 * named the LSMDC way), their stills, the rebuilt 1 fps track and placeholder chains in the
 * release's shape. Deterministic; built once per folder (build-folder.ts).
 */
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { InternalError } from '../errors.js';
import { datasetPaths } from '../hero/dataset/layout.js';
import { loadChains, loadCore, loadRubrics } from '../hero/dataset/load.js';
import { FilmClips, Movie } from '../hero/dataset/schemas.js';
import { filmText, readerPromptText, requestText } from '../hero/reader/prompt.js';
import { makeIndex } from '../hero/track/make-index.js';
import { rebuildTrack } from '../hero/track/rebuild.js';
import { probe } from '../media/probe.js';
import type { VideoInfo } from '../media/video-info.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { createRng } from '../stats/rng.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { sha256Hex } from '../store/canonical.js';
import { writeJsonl } from '../store/jsonl.js';
import { copyFromMaterialCache, finishBuild, isBuilt, startBuild } from './build-folder.js';
import { placeholderChains } from './mini-hero-chains.js';
import { type FilmSpec, KINDS, makeClip, makeStill, rational } from './mini-hero-footage.js';

const MINI_VERSION = '6';

export const MINI_FILMS: FilmSpec[] = [
  {
    movie_id: '9001_Astronaut_Diaries',
    title: 'Astronaut Diaries',
    year: 1998,
    genres: ['Documentary', 'Drama'],
    photo: 'astronaut.png',
    hue: 0,
    fps: '24',
    seconds: 42,
  },
  {
    movie_id: '9002_The_Cat_Who_Stayed',
    title: 'The Cat Who Stayed',
    year: 1961,
    genres: ['Comedy', 'Family'],
    photo: 'chelsea.png',
    hue: 0,
    fps: '25',
    seconds: 36,
  },
  {
    movie_id: '9003_Coffee_at_Midnight',
    title: 'Coffee at Midnight',
    year: 1974,
    genres: ['Drama', 'Romance'],
    photo: 'coffee.png',
    hue: 0,
    fps: '24',
    seconds: 40,
  },
  {
    movie_id: '9004_Launch_Window',
    title: 'Launch Window',
    year: 2009,
    genres: ['Drama', 'Science Fiction', 'Thriller'],
    photo: 'rocket.jpg',
    hue: 0,
    fps: '30000/1001',
    seconds: 34,
  },
  {
    movie_id: '9005_Blue_Orbit',
    title: 'Blue Orbit',
    year: 1987,
    genres: ['Science Fiction'],
    photo: 'astronaut.png',
    hue: 140,
    fps: '24',
    seconds: 38,
  },
  {
    movie_id: '9006_Green_Roast',
    title: 'Green Roast',
    year: 2013,
    photo: 'coffee.png',
    hue: 100,
    fps: '25',
    seconds: 32,
  },
];

/** An LSMDC clip id: `<movie_id>_<hh.mm.ss.fff>-<hh.mm.ss.fff>` (film time of its start and end). */
export function lsmdcClipId(movieId: string, start: number, end: number): string {
  return `${movieId}_${timecode(start).replaceAll(':', '.')}-${timecode(end).replaceAll(':', '.')}`;
}

/** Seconds → `hh:mm:ss.fff` (the LSMDC clip id and clips.jsonl form). */
export function timecode(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s - 3600 * h - 60 * m;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${sec.toFixed(3).padStart(6, '0')}`;
}

/** A film's movies.jsonl line; `end`: where its last clip (and the gap after it) ends, in seconds. */
function movieLine(film: FilmSpec, end: number): Movie {
  return {
    movie_id: film.movie_id,
    title: film.title,
    year: film.year,
    synopsis: `A generated film for the kfbench mini set, made from ${film.photo}.`,
    // TMDB's runtime is in whole minutes: the film runs on 1.5 minutes past its last clip
    ...(film.genres
      ? { tmdb: { runtime: Math.ceil(end / 60 + 1.5), genres: film.genres.map((name) => ({ name })) } }
      : {}),
  };
}

export interface MiniHeroPaths {
  root: string;
  lsmdc: string;
  stills: string;
  track: string;
  data: string;
}

function miniHeroPaths(out: string): MiniHeroPaths {
  return {
    root: out,
    lsmdc: join(out, 'lsmdc'),
    stills: join(out, 'stills'),
    track: join(out, 'track'),
    data: join(out, 'heroframe'),
  };
}

/** Build the mini set if it is not complete already. Returns its paths. */
export async function buildMiniHero(
  out: string,
  opts: { onProgress?: OnProgress; films?: FilmSpec[]; materialCache?: string | undefined } = {},
): Promise<MiniHeroPaths> {
  const p = miniHeroPaths(out);
  const films = opts.films ?? MINI_FILMS;
  const folder = { out, name: '.mini-hero', version: MINI_VERSION, what: 'a mini HeroFrame set' };
  if (await isBuilt(folder)) return p;
  if (
    !opts.films &&
    (await copyFromMaterialCache(folder, (d) => buildMiniHero(d, opts), opts.materialCache, opts.onProgress))
  )
    return p;
  await startBuild(folder);
  const ds = datasetPaths(p.data);
  const movies = [];
  const clipsRows = [];
  const stillIds = new Map<string, string[]>();
  /** Each clip's probe, under its final name. */
  const clipInfo = new Map<string, VideoInfo>();
  const progress = phaseReporter(opts.onProgress, 'mini-hero', 'films');
  progress.start(films.length, 'generating footage and stills');
  for (const film of films) {
    const rng = createRng(`mini-hero/${film.movie_id}`);
    const fps = rational(film.fps);
    const clips = [];
    let filmTime = 60 + rng.next() * 120; // where the first clip sits in the "original film"
    let total = 0;
    let i = 0;
    while (total < film.seconds) {
      const frames = Math.round((2 + rng.next() * 4) * fps);
      const kind = i === 0 ? 'pan' : KINDS[rng.int(KINDS.length)]!;
      // made under a working name, then named the LSMDC way once its length is known
      const work = join(p.lsmdc, film.movie_id, `clip-${i}.mp4`);
      await mkdir(join(p.lsmdc, film.movie_id), { recursive: true });
      await makeClip(work, kind, rng, film, frames);
      const info = await probe(work);
      const dur = info.frames / fps;
      const start = Math.round(filmTime * 1000) / 1000;
      const end = Math.round((filmTime + dur) * 1000) / 1000;
      const clip_id = lsmdcClipId(film.movie_id, start, end);
      const file = join(p.lsmdc, film.movie_id, `${clip_id}.mp4`);
      await rename(work, file);
      clipInfo.set(clip_id, { ...info, file });
      clips.push({
        clip_id,
        start: timecode(start),
        end: timecode(end),
        duration_s: Math.round((end - start) * 1000) / 1000,
        caption: `${kind} shot ${i + 1} of ${film.title}`,
      });
      filmTime = end + 1 + rng.next() * 20; // LSMDC clips are not contiguous in the film
      total += end - start;
      i++;
    }
    clipsRows.push({ movie_id: film.movie_id, clips });
    movies.push(movieLine(film, filmTime));
    const ids: string[] = [];
    for (let s = 0; s < 3; s++) {
      const id = `rm${sha256Hex(`${film.movie_id}/${s}`).slice(0, 8)}`;
      await mkdir(join(p.stills, film.movie_id), { recursive: true });
      await makeStill(join(p.stills, film.movie_id, `${id}.jpg`), film, rng);
      ids.push(id);
    }
    stillIds.set(film.movie_id, ids);
    progress.done(film.movie_id);
  }
  progress.finish();
  await writeJsonl(ds.movies, Movie, movies);
  await writeJsonl(ds.clips, FilmClips, clipsRows);
  const rebuilt = await rebuildTrack({ lsmdc: p.lsmdc, data: p.data, out: p.track, jobs: 2 });
  if (rebuilt.failed.length)
    throw new InternalError(
      `mini set: rebuilding ${rebuilt.failed[0]!.movie_id} failed: ${rebuilt.failed[0]!.reason}`,
    );
  await makeIndex({ track: p.track, data: p.data });
  await placeholderChains({ paths: p, clipsRows, stillIds, clipInfo });
  await writeFileAtomic(
    ds.query,
    'A single frame from the film that would work as its cover, thumbnail or poster.\n',
  );
  await writeJudgePromptExample(p.data);
  await finishBuild(folder, { films: films.length });
  return p;
}

/**
 * eval/judge_prompt_example.md written the way the card describes the release's ("the scoring prompt
 * rendered verbatim on a real film"): kfbench's own listwise prompt on the first film's first chain,
 * the candidate being that film's second chain's still, in the text form of reader-prompt.ts.
 */
async function writeJudgePromptExample(root: string): Promise<void> {
  const ds = await loadCore(root);
  const rubrics = await loadRubrics(root);
  const [movieId, f] = [...(await loadChains(root))].sort((a, b) => a[0].localeCompare(b[0]))[0]!;
  const chain = f.chains[0]!;
  const candidate = f.chains[1]?.images.find((i) => i.source === 'still')?.image_id ?? chain.order.at(-1)!;
  const film = filmText(movieId, ds.movies.get(movieId), rubrics.get(movieId));
  const kfbench = { source: 'kfbench' as const, version: '', not_placed: [] }; // no template: kfbench's wording
  await writeFileAtomic(
    datasetPaths(root).judgePromptExample,
    requestText(readerPromptText(kfbench, film, chain.order.length), [...chain.order, candidate]),
  );
}
