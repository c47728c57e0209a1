/**
 * The published frame coordinates (issue 54 item 5). The card: "The pool is ~500,000 frames at
 * 1 fps; frame_track/track_index.jsonl.zst pins each one to a (clip_id, t_in_clip) coordinate."
 * Where the root holds that index, a film's track frames are the index's rows for it, each
 * extracted at its published coordinate; kfbench's midpoint rule (timeline.ts) gives the frames of
 * a film the index does not list, and of every film when there is no index. `hero validate` counts
 * and names the frames where the two disagree (docs/heroframe.md, "The published coordinates").
 */
import { existsSync } from 'node:fs';
import { BadInputError } from '../../errors.js';
import type { OnProgress } from '../../progress.js';
import { readJsonl } from '../../store/jsonl.js';
import { datasetPaths } from '../dataset/layout.js';
import { TrackRow } from '../dataset/schemas.js';
import type { Timeline, TimelineClip, TrackFrame } from './timeline.js';

/** The index's frames per film, in frame order (undefined: the root has no index). */
export type TrackIndex = Map<string, TrackFrame[]>;

/** frame_track/track_index.jsonl.zst of a root, by film (undefined when the file is absent). */
export async function loadTrackIndex(
  data: string,
  onProgress?: OnProgress | undefined,
): Promise<TrackIndex | undefined> {
  const file = datasetPaths(data).trackIndex;
  if (!existsSync(file)) return undefined;
  const out: TrackIndex = new Map();
  for await (const { value: r } of readJsonl(file, TrackRow, { onProgress })) {
    const rows = out.get(r.movie_id) ?? [];
    rows.push({ frame_idx: r.frame_idx, clip_id: r.clip_id, t_in_clip: r.t_in_clip });
    out.set(r.movie_id, rows);
  }
  for (const rows of out.values()) rows.sort((a, b) => a.frame_idx - b.frame_idx);
  return out;
}

/** Where a film's frames come from: the published index, or the midpoint rule. */
export type FrameSource = 'index' | 'rule';

/** A film's track frames: its index rows when the index lists it, else the rule's. */
export function filmFrames(
  tl: Timeline,
  index: TrackIndex | undefined,
): { frames: TrackFrame[]; source: FrameSource } {
  const rows = index?.get(tl.movieId);
  return rows?.length ? { frames: rows, source: 'index' } : { frames: [...tl.frames()], source: 'rule' };
}

/**
 * Frames grouped by clip, in clip order, each clip's frames in time order (what a rebuild decodes
 * from each clip file). A frame naming a clip the film does not have is bad input.
 */
export function framesByClip(
  tl: Timeline,
  frames: readonly TrackFrame[],
  file: string,
): { clip: TimelineClip; frames: TrackFrame[] }[] {
  const out = tl.clips.map((clip) => ({ clip, frames: [] as TrackFrame[] }));
  const at = new Map(out.map((o) => [o.clip.clip_id, o.frames]));
  for (const f of frames) {
    const list = at.get(f.clip_id);
    if (!list)
      throw new BadInputError(
        `frame ${tl.movieId} ${f.frame_idx} names clip ${f.clip_id}, which is not in clips.jsonl`,
        { file },
      );
    list.push(f);
  }
  for (const o of out) o.frames.sort((a, b) => a.t_in_clip - b.t_in_clip || a.frame_idx - b.frame_idx);
  return out;
}

/** The frames of a film where its index and the rule disagree (clip or time more than 1 ms apart). */
export function ruleDisagreements(tl: Timeline, rows: readonly TrackFrame[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.frame_idx >= tl.frameCount) {
      out.push(`${tl.movieId} ${r.frame_idx}: index ${r.clip_id}@${r.t_in_clip}, the rule has no such frame`);
      continue;
    }
    const f = tl.frame(r.frame_idx);
    if (f.clip_id !== r.clip_id || Math.abs(f.t_in_clip - r.t_in_clip) > 1e-3)
      out.push(
        `${tl.movieId} ${r.frame_idx}: index ${r.clip_id}@${r.t_in_clip}, rule ${f.clip_id}@${f.t_in_clip}`,
      );
  }
  return out;
}
