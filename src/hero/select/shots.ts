/**
 * shot-centre: shot segmentation of the full-rate clips (the media layer's detector), then the
 * track frame at the middle of each of the k longest shots — the "representative frame of a shot"
 * habit of shot-based summarisers.
 */

import { probe } from '../../media/probe.js';
import { detectShotsMany } from '../../media/shots-many.js';
import type { VideoInfo } from '../../media/video-info.js';
import { clipFiles } from '../track/clip-files.js';
import { needed, type SelectionMethod } from './method.js';

export const shotCentre: SelectionMethod = {
  name: 'shot-centre',
  description:
    'segment the full-rate clips into shots and take the frame at the middle of each of the k longest shots',
  needs: { clips: true },
  async select(ctx) {
    const { lsmdc, timeline } = needed(ctx.clips, 'shot-centre', 'clips');
    const files = clipFiles(lsmdc, ctx.movieId);
    const shots: { start: number; end: number }[] = [];
    const clips = timeline.clips.filter((c) => files.has(c.clip_id));
    const infos: VideoInfo[] = [];
    for (const c of clips) infos.push(await probe(files.get(c.clip_id)!));
    // the film's clips decoded together (a batch per ffmpeg), each into its own detector
    const found = await detectShotsMany(infos);
    for (const [i, c] of clips.entries())
      for (const s of found[i]!.shots)
        shots.push({
          start: c.start_us / 1e6 + s.start_s,
          end: Math.min(c.end_us, c.start_us + s.end_s * 1e6) / 1e6,
        });
    shots.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
    const out: number[] = [];
    for (const s of shots) {
      if (out.length >= ctx.k) break;
      const k = Math.min(ctx.frameCount - 1, Math.floor((s.start + s.end) / 2));
      if (!out.includes(k)) out.push(k);
    }
    return out;
  },
};
