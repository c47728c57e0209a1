/**
 * The mini HeroFrame set's placeholder chains, in the release's shape (SPEC §2.1): per film
 * `block`, `method_tag`, `n_chains`, `chain_size`, `summary`, `chains`, `removed_anchors`; per
 * chain `chain_index`, `anchor`, `group_id`, `coverage`, `freeze_reason`, `freeze_draw_index`,
 * `n_draws_used`, `rubric_ids`, the images with `gamma` / `theta_0_100` and the 15 pairs. No
 * `chain_id`, no `order` (the images by gamma), no `source` / `clip_id` / `t_in_clip`: kfbench
 * reads those from the anchor and the ids, as it must for the published files. Sampled images are
 * named `<LSMDC clip id>_<n>`, taken at n / 25 s into the clip (the suffix as layout-map.ts reads
 * it). The images are ordered by luma contrast until `hero build` judges them.
 */
import { join } from 'node:path';
import { InternalError } from '../errors.js';
import { datasetPaths, imagePath } from '../hero/dataset/layout.js';
import { DEFAULT_SUFFIX_PER_SECOND } from '../hero/dataset/layout-map.js';
import { sampledImageId } from '../hero/dataset/release.js';
import { FilmChains, FilmRubric, ImageHash } from '../hero/dataset/schemas.js';
import { Timeline } from '../hero/track/timeline.js';
import { planFrames } from '../media/frame-plan.js';
import { streamClips } from '../media/frames.js';
import { encodeImage, loadImage } from '../media/image.js';
import { probe } from '../media/probe.js';
import type { RawImage } from '../media/raw.js';
import type { VideoInfo } from '../media/video-info.js';
import { createRng } from '../stats/rng.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { sha256Hex } from '../store/canonical.js';
import { writeJsonl } from '../store/jsonl.js';
import { contrast } from './mini-hero-footage.js';

const SUFFIX_PER_SECOND = DEFAULT_SUFFIX_PER_SECOND;

export interface ChainsInput {
  /** The mini set's `lsmdc`, `stills` and `data` (heroframe) folders. */
  paths: { lsmdc: string; stills: string; data: string };
  clipsRows: { movie_id: string; clips: { clip_id: string; start: string; end: string }[] }[];
  stillIds: ReadonlyMap<string, string[]>;
  /** Each clip's probe, by clip id. */
  clipInfo: ReadonlyMap<string, VideoInfo>;
}

interface Pick {
  chain: number;
  id: string;
  clip: string;
  info: VideoInfo;
  index: number;
}

interface Member {
  id: string;
  clip?: string;
  score: number;
  bytes: Buffer;
}

/** Write data/chains.jsonl, data/rubrics.jsonl, images/image_sha256.jsonl and stats/corpus_stats. */
export async function placeholderChains(a: ChainsInput): Promise<void> {
  const ds = datasetPaths(a.paths.data);
  const chainsRows = [];
  const shaRows: { path: string; sha256: string }[] = [];
  for (const row of a.clipsRows) {
    const picks = await drawPicks(a, row);
    const frames = await decodePicks(row.movie_id, picks);
    const chains = [];
    for (let c = 0; c < 2; c++) {
      const stillId = a.stillIds.get(row.movie_id)![c]!;
      const members = await chainMembers(a, row.movie_id, stillId, c, picks, frames);
      for (const m of members) {
        await writeFileAtomic(imagePath(a.paths.data, row.movie_id, m.id), m.bytes);
        // a frame drawn for both chains of a film is one image file: listed once
        const path = `images/${row.movie_id}/${m.id}.jpg`;
        if (!shaRows.some((r) => r.path === path)) shaRows.push({ path, sha256: sha256Hex(m.bytes) });
      }
      chains.push(chainRecord(row, c, stillId, members));
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
    a.clipsRows.map((r) => ({ movie_id: r.movie_id, criteria: [] })),
  );
  await writeJsonl(ds.imageSha, ImageHash, shaRows);
  await writeFileAtomic(
    ds.corpusStats,
    `${JSON.stringify({ films: a.clipsRows.length, chains: chainsRows.reduce((n, r) => n + r.chains.length, 0), note: 'mini set' }, null, 1)}\n`,
  );
}

/**
 * Each chain's five frames, drawn before any pixel is read (the draw never depends on pixels): off
 * the 1 fps grid, about a quarter second before the bucket's midpoint (after it near a clip
 * start), on the 25-per-second grid of the id suffix.
 */
async function drawPicks(a: ChainsInput, row: ChainsInput['clipsRows'][number]): Promise<Pick[]> {
  const tl = new Timeline(row.movie_id, row.clips);
  const rng = createRng(`mini-hero/chains/${row.movie_id}`);
  const picks: Pick[] = [];
  for (let c = 0; c < 2; c++) {
    const at = new Set<number>();
    while (at.size < 5) at.add(rng.int(tl.frameCount));
    for (const k of [...at].sort((x, y) => x - y)) {
      const f = tl.frame(k);
      const n = Math.round(
        (f.t_in_clip >= 0.25 ? f.t_in_clip - 0.25 : f.t_in_clip + 0.25) * SUFFIX_PER_SECOND,
      );
      const t = n / SUFFIX_PER_SECOND;
      const info =
        a.clipInfo.get(f.clip_id) ?? (await probe(join(a.paths.lsmdc, row.movie_id, `${f.clip_id}.mp4`)));
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
  return picks;
}

/** The film's drawn frames, decoded by one ffmpeg (`streamClips`) instead of one each. */
async function decodePicks(movieId: string, picks: readonly Pick[]): Promise<RawImage[]> {
  const { width, height } = picks[0]!.info;
  if (picks.some((x) => x.info.width !== width || x.info.height !== height))
    throw new InternalError(`mini set: the clips of ${movieId} differ in size`);
  const frames: RawImage[] = new Array(picks.length);
  for await (const fr of streamClips(
    picks.map((x) => ({ info: x.info, indices: [x.index] })),
    { width, height },
  ))
    frames[fr.clip] = fr;
  return frames;
}

/** Chain c's still and frames, by luma contrast (highest first), with their JPEG bytes. */
async function chainMembers(
  a: ChainsInput,
  movieId: string,
  stillId: string,
  c: number,
  picks: readonly Pick[],
  frames: readonly RawImage[],
): Promise<Member[]> {
  const still = await loadImage(join(a.paths.stills, movieId, `${stillId}.jpg`));
  const members: Member[] = [
    { id: stillId, score: contrast(still), bytes: await encodeImage(still, { format: 'jpeg', quality: 92 }) },
  ];
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
  return members.sort((x, y) => y.score - x.score || x.id.localeCompare(y.id));
}

function chainRecord(row: ChainsInput['clipsRows'][number], c: number, stillId: string, members: Member[]) {
  const images = members.map((m, rank) => ({
    image_id: m.id,
    gamma: 1.25 - 0.5 * rank,
    theta_0_100: 100 - 20 * rank,
  }));
  const pairs = [];
  for (let x = 0; x < members.length; x++)
    for (let y = x + 1; y < members.length; y++)
      pairs.push({ a: members[x]!.id, b: members[y]!.id, winner: members[x]!.id, status: 'confident' });
  const clipsUsed = new Set(members.flatMap((m) => (m.clip ? [m.clip] : [])));
  return {
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
  };
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
