/**
 * `hero track rebuild`: extract every film's 1 fps track frames as JPEG files
 * (<out>/<movie_id>/<frame_idx>.jpg) from the LSMDC clip files, by exact frame number per clip —
 * at the published (clip_id, t_in_clip) of frame_track/track_index.jsonl.zst where the root has it,
 * else by the midpoint rule (index-coordinates.ts).
 * Clips are probed 32 per ffmpeg process (the next batch while the current one decodes) and read
 * through shared ffmpeg processes (`-threads 1`, one film per job), never one process per frame.
 * A film's frames are written at its first clip's size (LSMDC clips of one film share it). A film counts as done only when all its frames
 * and its completion record (.done.json, written last, atomically) exist; an interrupted film is
 * redone, a done one skipped. A film whose input is at fault (a clip file missing or short, a clip
 * that does not decode) fails with the reason and the others go on (the caller reports exit 5);
 * anything else — a bug — stops the run as what it is.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { runPool } from '../../concurrency/pool.js';
import { BadInputError, isKfbenchError } from '../../errors.js';
import { streamClipFiles } from '../../media/frames.js';
import { encodeImage } from '../../media/image.js';
import { frameAt } from '../../media/probe.js';
import type { VideoInfo } from '../../media/video-info.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { readTextFile } from '../../store/limits.js';
import type { FolderFile } from '../../store/out-folder.js';
import type { Shard } from '../../store/shards.js';
import { datasetPaths, trackFramePath } from '../dataset/layout.js';
import type { Layout } from '../dataset/layout-map.js';
import { loadCore } from '../dataset/load.js';
import { clipFiles } from './clip-files.js';
import { filmFrames, framesByClip, loadTrackIndex } from './index-coordinates.js';
import { selectFilms } from './shard.js';
import type { Timeline, TrackFrame } from './timeline.js';

export const DONE_FILE = '.done.json';

/** What a rebuild writes into the track folder (`--help` lists it; frames at `trackFramePath`). */
export const TRACK_FILES: readonly FolderFile[] = [
  {
    name: '<movie_id>/<frame_idx>.jpg',
    what: 'frame k of the film: at its coordinate in frame_track/track_index.jsonl.zst, else the frame shown at k + 0.5 s of its timeline',
  },
  { name: `<movie_id>/${DONE_FILE}`, what: "the film's completion record (what it wrote), written last" },
];

/** `<track>/<movie_id>/.done.json`: a film's rebuild completed, with what it wrote. */
export const DoneRecord = z.looseObject({
  movie_id: z.string(),
  frames: z.number().int().nonnegative(),
  clips: z.number().int().nonnegative(),
  timeline_us: z.number(),
});
export type DoneRecord = z.output<typeof DoneRecord>;

export interface RebuildOptions {
  lsmdc: string;
  data: string;
  /** The layout map the dataset's files are read through (default: the built-in one). */
  layout?: Layout | undefined;
  out: string;
  movies?: string[] | undefined;
  jobs?: number;
  shard?: Shard | undefined;
  quality?: number;
  /** Phase `rebuild`: one item per track frame written; a film that fails is one failure. */
  onProgress?: OnProgress;
  signal?: AbortSignal;
}

type Reporter = ReturnType<typeof phaseReporter>;

export interface RebuildResult {
  done: string[];
  skipped: string[];
  failed: { movie_id: string; reason: string }[];
  frames: number;
  /** The films whose frames came from frame_track/track_index.jsonl.zst (the others: the midpoint rule). */
  from_index: string[];
}

export async function isFilmDone(out: string, movieId: string, frames: number): Promise<boolean> {
  const f = join(out, movieId, DONE_FILE);
  if (!existsSync(f)) return false;
  try {
    // a damaged or foreign marker is a film not done (rebuilt again), never an error
    const done = DoneRecord.safeParse(JSON.parse(readTextFile(f, { max: 1 << 20 })));
    return done.success && done.data.frames === frames;
  } catch {
    return false;
  }
}

async function rebuildFilm(
  movieId: string,
  tl: Timeline,
  frames: readonly TrackFrame[],
  o: RebuildOptions,
  progress: Reporter,
): Promise<number> {
  const files = clipFiles(o.lsmdc, movieId);
  const groups = framesByClip(tl, frames, datasetPaths(o.data).trackIndex).filter((g) => g.frames.length > 0);
  const missing = groups.filter((g) => !files.has(g.clip.clip_id)).map((g) => g.clip.clip_id);
  if (missing.length) {
    throw new BadInputError(
      `clip ${missing[0]} is named in clips.jsonl but ${join(o.lsmdc, movieId, `${missing[0]}.*`)} is absent${missing.length > 1 ? ` (and ${missing.length - 1} more clips)` : ''}`,
    );
  }
  const planned = new Map<number, number[]>();
  const choose = (info: VideoInfo, i: number) => {
    const idx = groups[i]!.frames.map((f) => {
      const n = frameAt(info, f.t_in_clip);
      if (n >= info.frames + 1) {
        throw new BadInputError(
          `clip ${groups[i]!.clip.clip_id} is shorter than clips.jsonl says (${info.duration_s.toFixed(2)} s < ${f.t_in_clip.toFixed(2)} s)`,
          { file: info.file },
        );
      }
      return Math.min(n, info.frames - 1);
    });
    planned.set(i, idx);
    return idx;
  };
  const pos = groups.map(() => 0);
  let written = 0;
  for await (const f of streamClipFiles(
    groups.map((g) => files.get(g.clip.clip_id)!),
    choose,
    { threads: 1 },
    o.signal ? { signal: o.signal } : {},
  )) {
    // a clip can list one frame number twice (two buckets in one frame): write each bucket
    const idx = planned.get(f.clip)!;
    const g = groups[f.clip]!;
    while (pos[f.clip]! < idx.length && idx[pos[f.clip]!] === f.index) {
      const tf = g.frames[pos[f.clip]!]!;
      await writeFileAtomic(
        trackFramePath(o.out, movieId, tf.frame_idx),
        await encodeImage(f, { format: 'jpeg', quality: o.quality ?? 90 }),
      );
      pos[f.clip]!++;
      written++;
      progress.done(`${movieId}#${tf.frame_idx}`);
    }
  }
  for (const [i, g] of groups.entries())
    if (pos[i] !== g.frames.length)
      throw new BadInputError(`clip ${g.clip.clip_id} gave ${pos[i]} of ${g.frames.length} frames`, {
        file: files.get(g.clip.clip_id)!,
      });
  await writeFileAtomic(
    join(o.out, movieId, DONE_FILE),
    `${JSON.stringify({ movie_id: movieId, frames: written, clips: tl.clips.length, timeline_us: tl.length_us } satisfies DoneRecord)}\n`,
  );
  return written;
}

export async function rebuildTrack(o: RebuildOptions): Promise<RebuildResult> {
  const ds = await loadCore(o.data, o.layout);
  const films = selectFilms(ds.timelines.keys(), { movies: o.movies, shard: o.shard });
  // the published coordinates where the root has them, the midpoint rule elsewhere
  const index = await loadTrackIndex(o.data, o.onProgress);
  const framesOf = new Map(films.map((m) => [m, filmFrames(ds.timelines.get(m)!, index)]));
  const result: RebuildResult = { done: [], skipped: [], failed: [], frames: 0, from_index: [] };
  const todo: string[] = [];
  for (const m of films) {
    const f = framesOf.get(m)!;
    if (f.source === 'index') result.from_index.push(m);
    if (await isFilmDone(o.out, m, f.frames.length)) result.skipped.push(m);
    else todo.push(m);
  }
  const progress = phaseReporter(o.onProgress, 'rebuild', 'frames');
  progress.start(
    todo.reduce((a, m) => a + framesOf.get(m)!.frames.length, 0),
    `${todo.length} films${result.skipped.length ? `, ${result.skipped.length} already done` : ''}`,
  );
  await runPool(
    todo,
    async (m) => {
      try {
        const n = await rebuildFilm(m, ds.timelines.get(m)!, framesOf.get(m)!.frames, o, progress);
        result.done.push(m);
        result.frames += n;
      } catch (e) {
        // a film whose input is at fault is reported and the others go on; a cancelled run, or an
        // error that is not one of ours (a bug), stops here
        if (o.signal?.aborted || !isKfbenchError(e)) throw e;
        result.failed.push({ movie_id: m, reason: e.message });
        progress.failed(m, e.message);
      }
    },
    { concurrency: o.jobs ?? 1, signal: o.signal },
  );
  progress.finish();
  result.done.sort();
  result.failed.sort((a, b) => a.movie_id.localeCompare(b.movie_id));
  return result;
}
