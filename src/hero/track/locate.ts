/**
 * A time → the track frame a method means by it (`hero frames locate`). A time on a film's
 * timeline (clips concatenated in clips.jsonl order) lies in bucket k = ⌊T⌋, whose frame is the one
 * shown at k + 0.5 s — at most half a second away. The last partial second of a film has no frame
 * of its own (its midpoint is past the end); a time there maps to the last frame. A time in a
 * clip is first placed on the timeline by the clip's start.
 */
import { BadInputError } from '../../errors.js';
import type { Layout } from '../dataset/layout-map.js';
import { type HeroDataset, loadCore } from '../dataset/load.js';
import { parseTimecode, type Timeline } from './timeline.js';

type LocateQuery = { movie: string; time: number | string } | { clip: string; t: number | string };

export interface LocatedFrame {
  movie_id: string;
  /** The time asked, on the film's timeline (s). */
  time_s: number;
  frame_idx: number;
  clip_id: string;
  t_in_clip: number;
  /** The frame's own time on the timeline (the bucket midpoint) minus the time asked. */
  offset_s: number;
}

const US = 1_000_000;

function seconds(v: number | string, what: string, file: string): number {
  const s = typeof v === 'number' ? v : parseTimecode(v.trim());
  if (!Number.isFinite(s) || s < 0)
    throw new BadInputError(`${what} "${v}" is not a time (seconds or hh:mm:ss.fff)`, { file });
  return s;
}

function frameAt(tl: Timeline, t_us: number, asked: string, file: string): LocatedFrame {
  if (t_us >= tl.length_us)
    throw new BadInputError(
      `${asked} is past the end of ${tl.movieId} (${(tl.length_us / US).toFixed(3)} s on its timeline)`,
      { file },
    );
  if (tl.frameCount === 0) throw new BadInputError(`${tl.movieId} is shorter than half a second`, { file });
  const k = Math.min(Math.floor(t_us / US), tl.frameCount - 1);
  const f = tl.frame(k);
  return {
    movie_id: tl.movieId,
    time_s: t_us / US,
    frame_idx: k,
    clip_id: f.clip_id,
    t_in_clip: f.t_in_clip,
    offset_s: (k * US + US / 2 - t_us) / US,
  };
}

/** Locate one time; bad input (unknown film or clip, a time outside it) names clips.jsonl. */
function locateFrame(ds: HeroDataset, q: LocateQuery): LocatedFrame {
  const file = ds.paths.clips;
  if ('movie' in q) {
    const tl = ds.timelines.get(q.movie);
    if (!tl) throw new BadInputError(`no film ${q.movie}`, { file });
    const t = seconds(q.time, '--time', file);
    return frameAt(tl, Math.round(t * US), `--time ${q.time}`, file);
  }
  for (const tl of ds.timelines.values()) {
    const c = tl.clips.find((x) => x.clip_id === q.clip);
    if (!c) continue;
    const t = seconds(q.t, '--t', file);
    const d = c.end_us - c.start_us;
    const t_us = Math.round(t * US);
    if (t_us >= d)
      throw new BadInputError(
        `--t ${q.t} is past the end of clip ${q.clip} (${(d / US).toFixed(3)} s long)`,
        { file },
      );
    return frameAt(tl, c.start_us + t_us, `--t ${q.t} in clip ${q.clip}`, file);
  }
  throw new BadInputError(`no clip ${q.clip} in any film`, { file });
}

/** `hero frames` as one call: the track frame at each of `times` of a film (`movie`) or of a clip (`clip`). */
export async function locateFrames(
  data: string,
  layout: Layout,
  q: { movie: string; times: readonly string[] } | { clip: string; times: readonly string[] },
): Promise<LocatedFrame[]> {
  const ds = await loadCore(data, layout);
  return q.times.map((t) =>
    'movie' in q ? locateFrame(ds, { movie: q.movie, time: t }) : locateFrame(ds, { clip: q.clip, t }),
  );
}
