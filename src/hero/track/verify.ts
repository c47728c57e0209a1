/**
 * `hero track verify`: recompute dHash on the frames listed in verify_dhash.jsonl.zst (24 per film)
 * and compare (Hamming ≤ 10 of 64 counts as a match). A failed film gets a diagnosis:
 *  - matches at an offset of ±1 track frame (one second): sampled a bucket early or late;
 *  - matches up to some frame and not after: a clip skipped (or missing) from there — named;
 *  - mismatches in a stretch that later match again (two or more matches after it): clips out of
 *    order there — named; a few coincidental matches inside a broken stretch (≤ 25 %) are tolerated;
 *  - nothing matches: wrong footage.
 */
import { existsSync } from 'node:fs';
import { dhashFile, hamming } from '../../media/hash.js';
import { trackFramePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadCore, loadVerifyHashes } from '../dataset/load.js';
import { selectFilms } from './shard.js';
import type { Timeline } from './timeline.js';

export interface FilmVerdict {
  movie_id: string;
  status: 'ok' | 'failed';
  checked: number;
  matched: number;
  diagnosis?: string;
  mismatched_frames?: number[];
}

export interface VerifyOptions {
  track: string;
  data: string;
  /** The layout map the dataset's files are read through (default: the built-in one). */
  layout?: Layout | undefined;
  movies?: string[] | undefined;
  maxHamming?: number;
}

function clipsBetween(tl: Timeline, fromFrame: number, toFrame: number): string[] {
  const out: string[] = [];
  for (let k = Math.max(0, fromFrame); k <= Math.min(tl.frameCount - 1, toFrame); k++) {
    const c = tl.frame(k).clip_id;
    if (out[out.length - 1] !== c) out.push(c);
  }
  return out;
}

async function hashAt(track: string, movie: string, k: number): Promise<string | undefined> {
  const f = trackFramePath(track, movie, k);
  return existsSync(f) ? dhashFile(f) : undefined;
}

async function verifyFilm(
  track: string,
  movie: string,
  rows: { frame_idx: number; dhash: string }[],
  tl: Timeline,
  maxHamming: number,
): Promise<FilmVerdict> {
  const match: boolean[] = [];
  for (const r of rows) {
    const h = await hashAt(track, movie, r.frame_idx);
    match.push(h !== undefined && hamming(h, r.dhash) <= maxHamming);
  }
  const matched = match.filter(Boolean).length;
  const base = { movie_id: movie, checked: rows.length, matched };
  if (matched === rows.length) return { ...base, status: 'ok' };
  const bad = rows.filter((_, i) => !match[i]).map((r) => r.frame_idx);
  const fail = (diagnosis: string): FilmVerdict => ({
    ...base,
    status: 'failed',
    diagnosis,
    mismatched_frames: bad,
  });
  const missingFiles = rows.filter((r) => !existsSync(trackFramePath(track, movie, r.frame_idx))).length;
  if (missingFiles === rows.length) return fail('no track frames found for this film (not rebuilt?)');
  // ±1: the expected frame k sits at track frame k + d
  for (const d of [-1, 1]) {
    let hits = 0;
    for (const r of rows.filter((_, i) => !match[i])) {
      const h = await hashAt(track, movie, r.frame_idx + d);
      if (h !== undefined && hamming(h, r.dhash) <= maxHamming) hits++;
    }
    if (hits >= Math.max(1, 0.75 * bad.length)) {
      return fail(
        d === -1
          ? `matches at an offset of −1 track frame: each frame is the one a second later than expected (sampled a bucket late — the bucket midpoint rule differs); ${hits}/${bad.length} mismatches explained`
          : `matches at an offset of +1 track frame: each frame is the one a second earlier than expected (sampled a bucket early — the bucket midpoint rule differs); ${hits}/${bad.length} mismatches explained`,
      );
    }
  }
  if (matched === 0)
    return fail(`nothing matches (${rows.length} frames checked): wrong footage for this film`);
  const firstBad = match.indexOf(false);
  const lastBad = match.lastIndexOf(false);
  const lastGoodBefore = firstBad > 0 ? rows[firstBad - 1]!.frame_idx : -1;
  const firstBadFrame = rows[firstBad]!.frame_idx;
  // a few coincidental matches inside a broken stretch are tolerated (≤ 25 % of it)
  const inside = match.slice(firstBad, lastBad + 1);
  const mostlyBroken = inside.filter((m) => !m).length >= 0.75 * inside.length;
  if (mostlyBroken && lastBad === rows.length - 1) {
    const clips = clipsBetween(tl, lastGoodBefore + 1, firstBadFrame);
    return fail(
      `matches up to frame ${lastGoodBefore} and not after: a clip was skipped (or is missing) from there — between frames ${lastGoodBefore + 1} and ${firstBadFrame}, in clip ${clips.join(' or ')}`,
    );
  }
  if (mostlyBroken && rows.length - 1 - lastBad >= 2) {
    const clips = clipsBetween(tl, lastGoodBefore + 1, rows[lastBad]!.frame_idx);
    return fail(
      `mismatches in frames ${firstBadFrame}–${rows[lastBad]!.frame_idx}, matching again after: clips out of order there — ${clips.join(', ')}`,
    );
  }
  return fail(
    `scattered mismatches at frames ${bad.join(', ')}: the footage differs there (other clips or another encode)`,
  );
}

export async function verifyTrack(o: VerifyOptions): Promise<FilmVerdict[]> {
  const ds = await loadCore(o.data, o.layout);
  const hashes = await loadVerifyHashes(o.data);
  // every film of the timeline is checked: one the verify file does not list cannot pass
  const films = selectFilms(new Set([...hashes.keys(), ...ds.timelines.keys()]), { movies: o.movies });
  const out: FilmVerdict[] = [];
  for (const m of films) {
    const tl = ds.timelines.get(m);
    if (!tl) {
      out.push({
        movie_id: m,
        status: 'failed',
        checked: 0,
        matched: 0,
        diagnosis: 'film is in verify_dhash but not in clips.jsonl',
      });
      continue;
    }
    const rows = hashes.get(m);
    if (!rows) {
      out.push({
        movie_id: m,
        status: 'failed',
        checked: 0,
        matched: 0,
        diagnosis: 'film is in clips.jsonl but verify_dhash lists none of its frames: it cannot be verified',
      });
      continue;
    }
    out.push(await verifyFilm(o.track, m, rows, tl, o.maxHamming ?? 10));
  }
  return out;
}
