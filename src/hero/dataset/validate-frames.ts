/**
 * `hero validate`'s checks of the frame track's two files (`frame_track/track_index.jsonl.zst`,
 * `frame_track/verify_dhash.jsonl.zst`): each row's film known, its frame inside the film's track,
 * each frame once, and a track row's clip and time the ones the timeline rule gives.
 */
import { existsSync } from 'node:fs';
import type { Timeline } from '../track/timeline.js';
import type { DatasetPaths } from './layout.js';
import { TrackRow, VerifyRow } from './schemas.js';
import { FrameLines } from './unique-ids.js';
import { checkLines, type Problems } from './validate-problems.js';

/** The rows of the track index (0 and an absent file named in `absent` when there is none). */
export async function checkTrackIndex(
  p: DatasetPaths,
  timelines: Map<string, Timeline>,
  problems: Problems,
  absent: string[],
): Promise<number> {
  let trackFrames = 0;
  if (!existsSync(p.trackIndex)) {
    absent.push('frame_track/track_index.jsonl.zst');
    return trackFrames;
  }
  const frames = new FrameLines(timelines);
  await checkLines(p.trackIndex, TrackRow, problems, (t, line) => {
    trackFrames++;
    const tl = timelines.get(t.movie_id);
    if (!tl) return problems.add(p.trackIndex, line, `movie ${t.movie_id} is not in clips.jsonl`);
    if (t.frame_idx >= tl.frameCount)
      return problems.add(
        p.trackIndex,
        line,
        `frame_idx ${t.frame_idx} is past the film's ${tl.frameCount} track frames`,
      );
    const first = frames.seen(t.movie_id, t.frame_idx, line);
    if (first)
      return problems.add(
        p.trackIndex,
        line,
        `duplicate frame ${t.movie_id} ${t.frame_idx} (first at ${p.trackIndex}:${first})`,
      );
    const f = tl.frame(t.frame_idx);
    if (f.clip_id !== t.clip_id || Math.abs(f.t_in_clip - t.t_in_clip) > 1e-3)
      problems.add(
        p.trackIndex,
        line,
        `frame ${t.frame_idx} maps to ${t.clip_id}@${t.t_in_clip} but the timeline rule gives ${f.clip_id}@${f.t_in_clip}`,
      );
  });
  return trackFrames;
}

/** The rows of the verification hashes (0 and an absent file named in `absent` when there is none). */
export async function checkVerifyRows(
  p: DatasetPaths,
  timelines: Map<string, Timeline>,
  problems: Problems,
  absent: string[],
): Promise<number> {
  let verifyRows = 0;
  if (!existsSync(p.verifyDhash)) {
    absent.push('frame_track/verify_dhash.jsonl.zst');
    return verifyRows;
  }
  const frames = new FrameLines(timelines);
  await checkLines(p.verifyDhash, VerifyRow, problems, (v, line) => {
    verifyRows++;
    const tl = timelines.get(v.movie_id);
    if (!tl) problems.add(p.verifyDhash, line, `movie ${v.movie_id} is not in clips.jsonl`);
    else if (v.frame_idx >= tl.frameCount)
      problems.add(
        p.verifyDhash,
        line,
        `frame_idx ${v.frame_idx} is past the film's ${tl.frameCount} track frames`,
      );
    else {
      const first = frames.seen(v.movie_id, v.frame_idx, line);
      if (first)
        problems.add(
          p.verifyDhash,
          line,
          `duplicate frame ${v.movie_id} ${v.frame_idx} (first at ${p.verifyDhash}:${first})`,
        );
    }
  });
  return verifyRows;
}
