/**
 * The mini HeroFrame set: six generated "films" (footage made by ffmpeg from shipped photographs,
 * named the LSMDC way), their stills, the rebuilt 1 fps track and placeholder chains in the
 * release's shape. Deterministic; built once per folder (build-folder.ts).
 */
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { InternalError } from '../errors.js';
import { datasetPaths, imagePath } from '../hero/dataset/layout.js';
import { DEFAULT_SUFFIX_PER_SECOND } from '../hero/dataset/layout-map.js';
import { loadChains, loadCore, loadRubrics } from '../hero/dataset/load.js';
import { sampledImageId } from '../hero/dataset/release.js';
import { FilmChains, FilmClips, FilmRubric, ImageHash, Movie } from '../hero/dataset/schemas.js';
import { filmText, readerPromptText, requestText } from '../hero/reader-prompt.js';
import { makeIndex } from '../hero/track/make-index.js';
import { rebuildTrack } from '../hero/track/rebuild.js';
import { Timeline } from '../hero/track/timeline.js';
import { planFrames } from '../media/frame-plan.js';
import { streamClips } from '../media/frames.js';
import { encodeImage, loadImage } from '../media/image.js';
import { probe, type VideoInfo } from '../media/probe.js';
import type { RawImage } from '../media/raw.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { createRng } from '../stats/rng.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { sha256Hex } from '../store/canonical.js';
import { writeJsonl } from '../store/jsonl.js';
import { copyFromMaterialCache, finishBuild, isBuilt, startBuild } from './build-folder.js';
import { contrast, type FilmSpec, KINDS, makeClip, makeStill, rational } from './mini-hero-footage.js';

export const MINI_VERSION = '4';

export type { FilmSpec } from './mini-hero-footage.js';

export const MINI_FILMS: FilmSpec[] = [
  {
    movie_id: '9001_Astronaut_Diaries',
    title: 'Astronaut Diaries',
    year: 1998,
    photo: 'astronaut.png',
    hue: 0,
    fps: '24',
    seconds: 42,
  },
  {
    movie_id: '9002_The_Cat_Who_Stayed',
    title: 'The Cat Who Stayed',
    year: 1961,
    photo: 'chelsea.png',
    hue: 0,
    fps: '25',
    seconds: 36,
  },
  {
    movie_id: '9003_Coffee_at_Midnight',
    title: 'Coffee at Midnight',
    year: 1974,
    photo: 'coffee.png',
    hue: 0,
    fps: '24',
    seconds: 40,
  },
  {
    movie_id: '9004_Launch_Window',
    title: 'Launch Window',
    year: 2009,
    photo: 'rocket.jpg',
    hue: 0,
    fps: '30000/1001',
    seconds: 34,
  },
  {
    movie_id: '9005_Blue_Orbit',
    title: 'Blue Orbit',
    year: 1987,
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

export interface MiniHeroPaths {
  root: string;
  lsmdc: string;
  stills: string;
  track: string;
  data: string;
}

export function miniHeroPaths(out: string): MiniHeroPaths {
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
    (await copyFromMaterialCache(folder, (dir) => buildMiniHero(dir, opts), opts.materialCache))
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
    movies.push({
      movie_id: film.movie_id,
      title: film.title,
      year: film.year,
      synopsis: `A generated film for the kfbench mini set, made from ${film.photo}.`,
    });
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
  await placeholderChains(p, clipsRows, stillIds, clipInfo);
  await writeFileAtomic(
    ds.query,
    'A single frame from the film that would work as its cover, thumbnail or poster.\n',
  );
  await writeJudgePromptExample(p.data);
  await finishBuild(folder, { films: films.length });
  return p;
}

/**
 * Placeholder chains in the release's shape (SPEC §2.1): per film `block`, `method_tag`, `n_chains`,
 * `chain_size`, `summary`, `chains`, `removed_anchors`; per chain `chain_index`, `anchor`,
 * `group_id`, `coverage`, `freeze_reason`, `freeze_draw_index`, `n_draws_used`, `rubric_ids`, the
 * images with `gamma` / `theta_0_100` and the 15 pairs. No `chain_id`, no `order` (the images by
 * gamma), no `source` / `clip_id` / `t_in_clip`: kfbench reads those from the anchor and the ids,
 * as it must for the published files. Sampled images are named `<LSMDC clip id>_<n>`, taken at
 * n / 25 s into the clip (the suffix as layout-map.ts reads it).
 */
async function placeholderChains(
  p: MiniHeroPaths,
  clipsRows: { movie_id: string; clips: { clip_id: string; start: string; end: string }[] }[],
  stillIds: Map<string, string[]>,
  clipInfo: ReadonlyMap<string, VideoInfo>,
): Promise<void> {
  const ds = datasetPaths(p.data);
  const chainsRows = [];
  const shaRows: { path: string; sha256: string }[] = [];
  for (const row of clipsRows) {
    const tl = new Timeline(row.movie_id, row.clips);
    const rng = createRng(`mini-hero/chains/${row.movie_id}`);
    // each chain's five frames drawn first (the draw never depends on pixels), then the film's
    // ten decoded by one ffmpeg (`streamClips`) instead of one each
    const picks: { chain: number; id: string; clip: string; info: VideoInfo; index: number }[] = [];
    for (let c = 0; c < 2; c++) {
      const at = new Set<number>();
      while (at.size < 5) at.add(rng.int(tl.frameCount));
      for (const k of [...at].sort((a, b) => a - b)) {
        const f = tl.frame(k);
        // off the 1 fps grid: about a quarter second before the bucket's midpoint (after it near a
        // clip start), on the 25-per-second grid of the id suffix
        const n = Math.round(
          (f.t_in_clip >= 0.25 ? f.t_in_clip - 0.25 : f.t_in_clip + 0.25) * SUFFIX_PER_SECOND,
        );
        const t = n / SUFFIX_PER_SECOND;
        const info =
          clipInfo.get(f.clip_id) ?? (await probe(join(p.lsmdc, row.movie_id, `${f.clip_id}.mp4`)));
        const [index] = planFrames(info, { kind: 'times', times: [t] }).indices!;
        picks.push({
          chain: c,
          id: sampledImageId(f.clip_id, t, SUFFIX_PER_SECOND),
          clip: f.clip_id,
          info,
          index: index!,
        });
      }
    }
    const { width, height } = picks[0]!.info;
    if (picks.some((x) => x.info.width !== width || x.info.height !== height))
      throw new InternalError(`mini set: the clips of ${row.movie_id} differ in size`);
    const frames: RawImage[] = new Array(picks.length);
    for await (const fr of streamClips(
      picks.map((x) => ({ info: x.info, indices: [x.index] })),
      { width, height },
    ))
      frames[fr.clip] = fr;
    const chains = [];
    for (let c = 0; c < 2; c++) {
      const stillId = stillIds.get(row.movie_id)![c]!;
      const still = await loadImage(join(p.stills, row.movie_id, `${stillId}.jpg`));
      const members: { id: string; clip?: string; score: number; bytes: Buffer }[] = [];
      members.push({
        id: stillId,
        score: contrast(still),
        bytes: await encodeImage(still, { format: 'jpeg', quality: 92 }),
      });
      for (const [j, x] of picks.entries()) {
        if (x.chain !== c) continue;
        const fr = frames[j];
        if (!fr) throw new InternalError(`mini set: frame ${x.index} of ${x.clip} did not decode`);
        members.push({
          id: x.id,
          clip: x.clip,
          score: contrast(fr),
          bytes: await encodeImage(fr, { format: 'jpeg', quality: 92 }),
        });
      }
      members.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
      const images = members.map((m, rank) => ({
        image_id: m.id,
        gamma: 1.25 - 0.5 * rank,
        theta_0_100: 100 - 20 * rank,
      }));
      const pairs = [];
      for (let a = 0; a < members.length; a++)
        for (let b = a + 1; b < members.length; b++)
          pairs.push({ a: members[a]!.id, b: members[b]!.id, winner: members[a]!.id, status: 'confident' });
      for (const m of members) {
        const file = imagePath(p.data, row.movie_id, m.id);
        await writeFileAtomic(file, m.bytes);
        // a frame drawn for both chains of a film is one image file: listed once
        const path = `images/${row.movie_id}/${m.id}.jpg`;
        if (!shaRows.some((r) => r.path === path)) shaRows.push({ path, sha256: sha256Hex(m.bytes) });
      }
      const clipsUsed = new Set(members.flatMap((m) => (m.clip ? [m.clip] : [])));
      chains.push({
        chain_index: c,
        anchor: stillId,
        group_id: `${row.movie_id}-${stillId}-d0`,
        coverage: Math.round((clipsUsed.size / row.clips.length) * 1000) / 1000,
        freeze_reason: 'most_confident_draw',
        freeze_draw_index: 0,
        n_draws_used: 1,
        rubric_ids: [],
        images,
        pairs,
        placeholder: 'ordered by luma contrast until hero build judges it',
      });
    }
    chainsRows.push({
      movie_id: row.movie_id,
      block: '02_chains',
      method_tag: 'kfbench-mini_placeholder_luma-contrast',
      n_chains: chains.length,
      chain_size: 6,
      summary: filmSummary(chains),
      chains,
      removed_anchors: [],
    });
  }
  await writeJsonl(ds.chains, FilmChains, chainsRows);
  await writeJsonl(
    ds.rubrics,
    FilmRubric,
    clipsRows.map((r) => ({ movie_id: r.movie_id, criteria: [] })),
  );
  await writeJsonl(ds.imageSha, ImageHash, shaRows);
  await writeFileAtomic(
    ds.corpusStats,
    `${JSON.stringify({ films: clipsRows.length, chains: chainsRows.reduce((a, r) => a + r.chains.length, 0), note: 'mini set' }, null, 1)}\n`,
  );
}

const SUFFIX_PER_SECOND = DEFAULT_SUFFIX_PER_SECOND;

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

/** A film's `summary` as the release has it, computed from chains in the release's shape. */
export function filmSummary(
  chains: {
    anchor: string;
    images: { image_id: string; gamma: number }[];
    pairs: { status: string }[];
  }[],
) {
  const rank = (c: (typeof chains)[number]) =>
    [...c.images].sort((a, b) => b.gamma - a.gamma).findIndex((i) => i.image_id === c.anchor) + 1;
  const uses = new Map<string, number>();
  for (const c of chains) for (const i of c.images) uses.set(i.image_id, (uses.get(i.image_id) ?? 0) + 1);
  const shared = [...uses]
    .filter(([, n]) => n > 1)
    .map(([id]) => id)
    .sort();
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    mean_confident_rate: mean(
      chains.map((c) => c.pairs.filter((p) => p.status === 'confident').length / (c.pairs.length || 1)),
    ),
    n_anchor_top1: chains.filter((c) => rank(c) === 1).length,
    mean_anchor_rank: mean(chains.map(rank)),
    n_removed_anchors: 0,
    n_unique_images: uses.size,
    n_images_shared_by_more_than_one_chain: shared.length,
    images_shared_by_more_than_one_chain: shared,
  };
}
