/**
 * `kfbench hero mini --size published` (or a fraction, `--size 1/8`): a generated HeroFrame root at
 * the published counts (src/synthetic/published-size.ts) in the release's record shape, as the mini
 * set's (mini-hero.ts): 204 films of ~2,450 s of LSMDC-named clips each (~500,000 track rows in
 * `frame_track/track_index.jsonl.zst`), 9–10 chains per film of a publicity still and five sampled
 * frames (5 stills per film shared by its chains: ~11,200 images, small generated JPEGs, with their
 * sha256), a rubric of 4 criteria per film, 24 verify hashes per film, and one method's selections
 * (`selections/uniform5.jsonl`, 5 frames per film). No footage: the track folder holds only the
 * frames that the verify rows and the selections name, so `hero validate`, `hero track verify`
 * and `hero evaluate` run on it; `hero build` and the selection methods that decode clips do not.
 * Deterministic; a few minutes at the full size.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { datasetPaths, imagePath, trackFramePath } from '../hero/dataset/layout.js';
import { DEFAULT_SUFFIX_PER_SECOND } from '../hero/dataset/layout-map.js';
import { sampledImageId } from '../hero/dataset/release.js';
import {
  FilmChains,
  FilmClips,
  FilmRubric,
  ImageHash,
  Movie,
  Selection,
  TrackRow,
  VerifyRow,
} from '../hero/dataset/schemas.js';
import { VERIFY_PER_FILM, verifyFrames } from '../hero/track/make-index.js';
import { Timeline } from '../hero/track/timeline.js';
import { dhashFile } from '../media/hash.js';
import { encodeImage } from '../media/image.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { createRng, type Rng } from '../stats/rng.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { sha256Hex } from '../store/canonical.js';
import { readJsonFile, writeJsonl } from '../store/jsonl.js';
import { finishBuild, isBuilt, startBuild } from './build-folder.js';
import { proceduralScene } from './image-pairs.js';
import { lsmdcClipId, timecode } from './mini-hero.js';
import { filmSummary } from './mini-hero-chains.js';
import { PUBLISHED_HERO, scaled } from './published-size.js';

const PUBLISHED_HERO_VERSION = '1';
const STILLS_PER_FILM = 5;
const CRITERIA = 4;
/** Selected frames per film in `selections/uniform5.jsonl`. */
const SELECTED_PER_FILM = 5;

export interface PublishedHeroPaths {
  root: string;
  /** The dataset root. */
  data: string;
  /** The (sparse) track: the verify and selected frames only. */
  track: string;
  /** One method's selections: 5 frames per film, evenly spaced. */
  selections: string;
}

export interface PublishedHeroCounts {
  films: number;
  chains: number;
  images: number;
  track_frames: number;
  verify_rows: number;
}

function publishedHeroPaths(out: string): PublishedHeroPaths {
  return {
    root: out,
    data: join(out, 'heroframe'),
    track: join(out, 'track'),
    selections: join(out, 'selections', 'uniform5.jsonl'),
  };
}

/** Film i's chain count: 10, or 9 for the last films of every 204, so the full set has 2,031. */
const chainsOf = (i: number) =>
  i % PUBLISHED_HERO.films < PUBLISHED_HERO.chains - 9 * PUBLISHED_HERO.films ? 10 : 9;

async function jpeg(rng: Rng, w: number, h: number): Promise<Buffer> {
  return encodeImage(proceduralScene(rng, w, h), { format: 'jpeg', quality: 85 });
}

interface FilmPlan {
  movie_id: string;
  clips: { clip_id: string; start: string; end: string; duration_s: number; caption: string }[];
  tl: Timeline;
}

function planFilm(i: number): FilmPlan {
  const movie_id = `8${String(i + 1).padStart(4, '0')}_Synthetic_Film_${i + 1}`;
  const rng = createRng(`published-hero/${movie_id}`);
  const seconds = 2000 + rng.next() * 900; // mean 2,450 s: ~500,000 track frames over 204 films
  const clips: FilmPlan['clips'] = [];
  let at = 60 + rng.next() * 120;
  let total = 0;
  while (total < seconds) {
    const start = Math.round(at * 1000) / 1000;
    const end = Math.round((at + 2 + rng.next() * 6) * 1000) / 1000;
    clips.push({
      clip_id: lsmdcClipId(movie_id, start, end),
      start: timecode(start),
      end: timecode(end),
      duration_s: Math.round((end - start) * 1000) / 1000,
      caption: `clip ${clips.length + 1} of synthetic film ${i + 1}`,
    });
    total += end - start;
    at = end + 0.5 + rng.next() * 10;
  }
  return { movie_id, clips, tl: new Timeline(movie_id, clips) };
}

/** Build the set at `fraction` of the published counts unless a complete one is there. */
export async function buildPublishedHero(
  out: string,
  opts: { fraction: number; onProgress?: OnProgress },
): Promise<PublishedHeroPaths & { counts: PublishedHeroCounts }> {
  const p = publishedHeroPaths(out);
  const films = scaled(PUBLISHED_HERO.films, opts.fraction);
  const folder = {
    out,
    name: '.published-hero',
    version: `${PUBLISHED_HERO_VERSION}/${films}`,
    what: 'a generated HeroFrame set at the published size',
  };
  const counts: PublishedHeroCounts = { films, chains: 0, images: 0, track_frames: 0, verify_rows: 0 };
  if (await isBuilt(folder)) return { ...p, counts: await readCounts(out) };
  await startBuild(folder);
  const plans = Array.from({ length: films }, (_, i) => planFilm(i));
  const progress = phaseReporter(opts.onProgress, 'published-hero', 'films');
  progress.start(films, 'images, chains and track frames');
  const rows: SetRows = { chains: [], rubrics: [], sha: [], verify: [], selections: [] };
  for (const [i, f] of plans.entries()) {
    const film = await publishedFilm(p, f, i, rows);
    counts.chains += film.chains;
    counts.images += film.images;
    counts.track_frames += f.tl.frameCount;
    progress.done(f.movie_id);
  }
  progress.finish();
  counts.verify_rows = rows.verify.length;
  await writeSetFiles(p, plans, rows, counts);
  await finishBuild(folder, { fraction: opts.fraction, ...counts });
  return { ...p, counts };
}

/** The rows of the set's files, film after film. */
interface SetRows {
  chains: unknown[];
  rubrics: unknown[];
  sha: { path: string; sha256: string }[];
  verify: { movie_id: string; frame_idx: number; dhash: string }[];
  selections: { movie_id: string; frames: { rank: number; frame_idx: number }[] }[];
}

/** One film: its images, chains, rubric, selection and track frames; adds its rows to `rows`. */
async function publishedFilm(
  p: PublishedHeroPaths,
  f: FilmPlan,
  i: number,
  rows: SetRows,
): Promise<{ chains: number; images: number }> {
  await mkdir(join(p.data, 'images', f.movie_id), { recursive: true });
  const written = new Set<string>();
  const write = async (id: string) => {
    if (written.has(id)) return;
    written.add(id);
    const bytes = await jpeg(createRng(`published-hero/image/${f.movie_id}/${id}`), 96, 54);
    await writeFileAtomic(imagePath(p.data, f.movie_id, id), bytes);
    rows.sha.push({ path: `images/${f.movie_id}/${id}.jpg`, sha256: sha256Hex(bytes) });
  };
  const criteria = Array.from({ length: CRITERIA }, (_, c) => `L${c + 1}`);
  const chains = await syntheticChains(f, chainsOf(i), criteria, write);
  rows.chains.push({
    movie_id: f.movie_id,
    block: '02_chains',
    method_tag: 'kfbench-published-size_synthetic',
    n_chains: chains.length,
    chain_size: 6,
    summary: filmSummary(chains),
    chains,
    removed_anchors: [],
  });
  const first = chains[0]!.images;
  rows.rubrics.push({
    movie_id: f.movie_id,
    criteria: criteria.map((id, c) => ({
      criterion_id: id,
      as_the_judge_read_it: `Prefer the frame with more of the film's subject (synthetic rule ${c + 1}).`,
      source_pair: [first[c % 6]!.image_id, first[(c + 1) % 6]!.image_id],
      round: c % 2,
    })),
  });
  await trackFrames(p, f, rows);
  return { chains: chains.length, images: written.size };
}

/** A film's chains: each its anchor still and five sampled frames in a random strength order. */
async function syntheticChains(
  f: FilmPlan,
  n: number,
  criteria: readonly string[],
  write: (id: string) => Promise<void>,
) {
  const rng = createRng(`published-hero/chains/${f.movie_id}`);
  const stills = Array.from(
    { length: STILLS_PER_FILM },
    (_, s) => `rm${sha256Hex(`${f.movie_id}/still/${s}`).replace(/\D/g, '').slice(0, 8).padEnd(8, '0')}`,
  );
  const chains = [];
  for (let c = 0; c < n; c++) {
    const anchor = stills[c % STILLS_PER_FILM]!;
    const ids = [anchor];
    while (ids.length < 6) {
      const fr = f.tl.frame(rng.int(f.tl.frameCount));
      const t = fr.t_in_clip >= 0.25 ? fr.t_in_clip - 0.25 : fr.t_in_clip + 0.25;
      const id = sampledImageId(fr.clip_id, t, DEFAULT_SUFFIX_PER_SECOND);
      if (!ids.includes(id)) ids.push(id);
    }
    for (const id of ids) await write(id);
    // a random strength order; the pairs follow it, a tenth of them unresolved
    const order = ids.map((id) => ({ id, g: rng.next() })).sort((a, b) => b.g - a.g);
    const images = order.map((m, rank) => ({
      image_id: m.id,
      gamma: Math.round((1.25 - 0.5 * rank) * 1000) / 1000,
      theta_0_100: 100 - 20 * rank,
    }));
    const pairs = [];
    for (let a = 0; a < order.length; a++)
      for (let b = a + 1; b < order.length; b++) {
        const sure = rng.next() >= 0.1;
        pairs.push({
          a: order[a]!.id,
          b: order[b]!.id,
          winner: sure ? order[a]!.id : null,
          status: sure ? 'confident' : 'unresolved',
        });
      }
    chains.push({
      chain_index: c,
      anchor,
      group_id: `${f.movie_id}-${anchor}-d${Math.floor(c / STILLS_PER_FILM)}`,
      coverage: Math.round(rng.next() * 1000) / 1000,
      freeze_reason: 'most_confident_draw',
      freeze_draw_index: 0,
      n_draws_used: 1,
      rubric_ids: criteria.filter(() => rng.next() < 0.5),
      images,
      pairs,
    });
  }
  return chains;
}

/** The track frames the verify rows and the selections name, nothing else. */
async function trackFrames(p: PublishedHeroPaths, f: FilmPlan, rows: SetRows): Promise<void> {
  const n = f.tl.frameCount;
  const picked = Array.from({ length: SELECTED_PER_FILM }, (_, k) =>
    Math.floor(((k + 0.5) * n) / SELECTED_PER_FILM),
  );
  rows.selections.push({
    movie_id: f.movie_id,
    frames: picked.map((frame_idx, k) => ({ rank: k + 1, frame_idx })),
  });
  const verify = new Set(verifyFrames(n, VERIFY_PER_FILM));
  await mkdir(join(p.track, f.movie_id), { recursive: true });
  for (const k of [...new Set([...verify, ...picked])].sort((a, b) => a - b)) {
    const file = trackFramePath(p.track, f.movie_id, k);
    await writeFileAtomic(file, await jpeg(createRng(`published-hero/track/${f.movie_id}/${k}`), 64, 36));
    if (verify.has(k)) rows.verify.push({ movie_id: f.movie_id, frame_idx: k, dhash: await dhashFile(file) });
  }
}

/** The set's files from the rows of every film. */
async function writeSetFiles(
  p: PublishedHeroPaths,
  plans: readonly FilmPlan[],
  rows: SetRows,
  counts: PublishedHeroCounts,
): Promise<void> {
  const ds = datasetPaths(p.data);
  await writeJsonl(
    ds.movies,
    Movie,
    plans.map((f, i) => ({
      movie_id: f.movie_id,
      title: `Synthetic Film ${i + 1}`,
      year: 1950 + (i % 70),
      synopsis: 'A generated film for kfbench scale benchmarks (no footage).',
    })),
  );
  await writeJsonl(
    ds.clips,
    FilmClips,
    plans.map((f) => ({ movie_id: f.movie_id, clips: f.clips })),
  );
  await writeJsonl(ds.chains, FilmChains, rows.chains);
  await writeJsonl(ds.rubrics, FilmRubric, rows.rubrics);
  await writeJsonl(ds.imageSha, ImageHash, rows.sha);
  await writeJsonl(
    ds.trackIndex,
    TrackRow,
    (function* () {
      for (const f of plans) for (const fr of f.tl.frames()) yield { movie_id: f.movie_id, ...fr };
    })(),
  );
  await writeJsonl(ds.verifyDhash, VerifyRow, rows.verify);
  await writeJsonl(p.selections, Selection, rows.selections);
  await writeFileAtomic(
    ds.query,
    'A single frame from the film that would work as its cover, thumbnail or poster.\n',
  );
  await writeFileAtomic(
    ds.corpusStats,
    `${JSON.stringify({ ...counts, note: 'generated at a fraction of the published size' }, null, 1)}\n`,
  );
}

/** What a finished build stamped beside its version: its counts. */
const CountsStamp = z.looseObject({
  films: z.number(),
  chains: z.number(),
  images: z.number(),
  track_frames: z.number(),
  verify_rows: z.number(),
});

/** The counts a finished build stamped. */
async function readCounts(out: string): Promise<PublishedHeroCounts> {
  const { films, chains, images, track_frames, verify_rows } = await readJsonFile(
    join(out, '.published-hero.json'),
    CountsStamp,
  );
  return { films, chains, images, track_frames, verify_rows };
}
