/**
 * `hero validate`'s checks of `data/chains.jsonl`: each film's row, each chain (six distinct
 * images, one publicity still, its order, a sampled image inside its clip, every pair judged once)
 * and the image files the chains name (present, and matching their listed sha256).
 */
import { existsSync } from 'node:fs';
import { sha256File } from '../../store/canonical.js';
import type { Timeline } from '../track/timeline.js';
import type { DatasetPaths } from './layout.js';
import { imagePath } from './layout.js';
import type { Layout, LayoutReport } from './layout-map.js';
import { type Chain, filmChainsSchema } from './schemas.js';
import { chainIdentity, FirstSeen } from './unique-ids.js';
import { checkLines, type Problems } from './validate-problems.js';

/** What the chains file holds, for the summary and the later checks. */
export interface ChainTally {
  chains: number;
  pairs: number;
  confident: number;
  /** `movie/image` of every image a chain names. */
  images: Set<string>;
  /** The first line naming each image, whose file is checked. */
  checkImages: { movie: string; id: string; line: number }[];
  /** The criteria each chain names, checked against its film's rubric. */
  rubricIds: { movie: string; chain: string; ids: string[]; line: number }[];
}

interface Where {
  file: string;
  line: number;
  problems: Problems;
}

/** Each image's source as published, and a sampled image's clip and time inside that clip. */
function checkSources(c: Chain, label: string, tl: Timeline | undefined, at: Where): void {
  const { file, line, problems } = at;
  for (const im of c.images) {
    if (im.source_as_published !== undefined)
      problems.add(
        file,
        line,
        `${label}: image ${im.image_id} is published as ${String(im.source_as_published)} but the chain's anchor makes it ${im.source}`,
      );
    // a sampled image's clip and time (given, or read from its id) must lie inside that clip
    if (im.source !== 'sampled' || im.clip_id === undefined || !tl) continue;
    const clip = tl.clips.find((x) => x.clip_id === im.clip_id);
    if (!clip)
      problems.add(file, line, `${label}: image ${im.image_id}: clip ${im.clip_id} is not in clips.jsonl`);
    else if (im.t_in_clip !== undefined && im.t_in_clip * 1e6 > clip.end_us - clip.start_us)
      problems.add(
        file,
        line,
        `${label}: image ${im.image_id}: t_in_clip ${im.t_in_clip} s is past the end of clip ${im.clip_id} (${(clip.end_us - clip.start_us) / 1e6} s)`,
      );
  }
}

/** Every pair of the chain's images judged once, with a winner among the two. */
function checkPairs(c: Chain, label: string, ids: string[], tally: ChainTally, at: Where): void {
  const { file, line, problems } = at;
  const seen = new Set<string>();
  for (const pr of c.pairs) {
    tally.pairs++;
    if (pr.status === 'confident') tally.confident++;
    const key = [pr.a, pr.b].sort().join('|');
    if (seen.has(key)) problems.add(file, line, `${label}: pair ${pr.a}/${pr.b} judged twice`);
    seen.add(key);
    if (!ids.includes(pr.a) || !ids.includes(pr.b) || pr.a === pr.b)
      problems.add(file, line, `${label}: pair ${pr.a}/${pr.b} is not two of its images`);
    if (pr.winner !== null && pr.winner !== pr.a && pr.winner !== pr.b)
      problems.add(file, line, `${label}: winner ${pr.winner} is neither ${pr.a} nor ${pr.b}`);
    if (pr.status === 'confident' && pr.winner === null)
      problems.add(file, line, `${label}: a confident pair ${pr.a}/${pr.b} has no winner`);
  }
  const want = (ids.length * (ids.length - 1)) / 2;
  if (seen.size !== want || c.pairs.length !== want)
    problems.add(
      file,
      line,
      `${label} has ${c.pairs.length} pairs, expected ${want} covering every pair once`,
    );
}

/** One chain of a film's row (`i`: its place in the row's `chains`). */
function checkChain(
  film: string,
  c: Chain,
  i: number,
  ctx: { tally: ChainTally; chainIds: FirstSeen<string>; tl: Timeline | undefined; at: Where },
): void {
  const { tally, at } = ctx;
  const { file, line, problems } = at;
  tally.chains++;
  const label = `chain ${c.chain_id}`;
  // one chain, one id: the same group_id + chain_index twice (or the same chain_id) is refused
  const first = ctx.chainIds.seen(c.chain_id, `${file}:${line} (chains[${i}])`);
  if (first)
    problems.add(file, line, `chains[${i}] is a second chain ${chainIdentity(c)}: the first is at ${first}`);
  const ids = c.images.map((i) => i.image_id);
  if (new Set(ids).size !== 6 || ids.length !== 6)
    problems.add(
      file,
      line,
      `${label} has ${ids.length} images (${new Set(ids).size} distinct), expected 6 distinct`,
    );
  if (c.order.length !== ids.length || !c.order.every((o) => ids.includes(o)))
    problems.add(file, line, `${label}: order does not list exactly its images`);
  checkSources(c, label, ctx.tl, at);
  if (c.rubric_ids) tally.rubricIds.push({ movie: film, chain: c.chain_id, ids: c.rubric_ids, line });
  const stills = c.images.filter((i) => i.source === 'still').length;
  if (stills !== 1) problems.add(file, line, `${label} has ${stills} publicity stills, expected exactly 1`);
  checkPairs(c, label, ids, tally, at);
  for (const id of ids) {
    const k = `${film}/${id}`;
    if (!tally.images.has(k)) tally.checkImages.push({ movie: film, id, line });
    tally.images.add(k);
  }
}

/** Read and check `data/chains.jsonl` (when present) against the films and their timelines. */
export async function checkChains(
  p: DatasetPaths,
  layout: { map: Layout; report: LayoutReport },
  known: { movies: Set<string>; timelines: Map<string, Timeline> },
  problems: Problems,
): Promise<ChainTally> {
  const tally: ChainTally = {
    chains: 0,
    pairs: 0,
    confident: 0,
    images: new Set(),
    checkImages: [],
    rubricIds: [],
  };
  const chainFilms = new FirstSeen<string>();
  const chainIds = new FirstSeen<string>();
  if (!existsSync(p.chains)) return tally;
  await checkLines(p.chains, filmChainsSchema(layout.map, layout.report), problems, (f, line) => {
    if (!known.movies.has(f.movie_id))
      problems.add(p.chains, line, `movie ${f.movie_id} is not in movies.jsonl`);
    if (!known.timelines.has(f.movie_id))
      problems.add(p.chains, line, `movie ${f.movie_id} is not in clips.jsonl`);
    const firstRow = chainFilms.seen(f.movie_id, `${p.chains}:${line}`);
    if (firstRow)
      problems.add(p.chains, line, `duplicate movie_id ${f.movie_id} (its first row is ${firstRow})`);
    const tl = known.timelines.get(f.movie_id);
    const at = { file: p.chains, line, problems };
    for (const [i, c] of f.chains.entries()) checkChain(f.movie_id, c, i, { tally, chainIds, tl, at });
  });
  return tally;
}

/** Each image file a chain names: present, and matching the sha256 `images/image_sha256.jsonl` lists. */
export async function checkImageFiles(
  p: DatasetPaths,
  tally: ChainTally,
  shaByPath: Map<string, string>,
  problems: Problems,
): Promise<void> {
  for (const im of tally.checkImages) {
    const file = imagePath(p.root, im.movie, im.id);
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
}
