/**
 * `hero validate`'s checks of the frame track's two files (`frame_track/track_index.jsonl.zst`,
 * `frame_track/verify_dhash.jsonl.zst`): each row's film known and each frame once. Where a track
 * row's clip and time are not the ones kfbench's midpoint rule gives (or the rule has no such
 * frame), the published coordinate is what `hero track rebuild` extracts (issue 54 item 5): the
 * disagreement is counted and named (`rule_disagreements`), not a problem.
 */
import { existsSync } from 'node:fs';
import { ruleDisagreements } from '../track/index-coordinates.js';
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
): Promise<{ frames: number; disagreements: string[] }> {
  let trackFrames = 0;
  const disagreements: string[] = [];
  if (!existsSync(p.trackIndex)) {
    absent.push('frame_track/track_index.jsonl.zst');
    return { frames: trackFrames, disagreements };
  }
  const frames = new FrameLines(timelines);
  await checkLines(p.trackIndex, TrackRow, problems, (t, line) => {
    trackFrames++;
    const tl = timelines.get(t.movie_id);
    if (!tl) return problems.add(p.trackIndex, line, `movie ${t.movie_id} is not in clips.jsonl`);
    if (!tl.clips.some((c) => c.clip_id === t.clip_id))
      return problems.add(
        p.trackIndex,
        line,
        `clip ${t.clip_id} is not one of ${t.movie_id}'s clips in clips.jsonl`,
      );
    const first = frames.seen(t.movie_id, t.frame_idx, line);
    if (first)
      return problems.add(
        p.trackIndex,
        line,
        `duplicate frame ${t.movie_id} ${t.frame_idx} (first at ${p.trackIndex}:${first})`,
      );
    for (const d of ruleDisagreements(tl, [t])) disagreements.push(`${d} (line ${line})`);
  });
  return { frames: trackFrames, disagreements };
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
