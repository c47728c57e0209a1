/**
 * The members of a chain `hero build` makes: a publicity still read from its file, or a frame
 * sampled from the footage at a random time off the 1 fps grid, one per clip while the film has
 * clips to spare.
 */
import { join } from 'node:path';
import { BadInputError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { JudgeImage } from '../../judge/types.js';
import { planFrames } from '../../media/frame-plan.js';
import { streamClips, streamFrames, type VideoFrame } from '../../media/frames.js';
import { encodeImage, readImageFileSync } from '../../media/image.js';
import { probe } from '../../media/probe.js';
import type { VideoInfo } from '../../media/video-info.js';
import type { Rng } from '../../stats/rng.js';
import { clipFiles } from '../track/clip-files.js';
import type { Timeline } from '../track/timeline.js';

export interface Member {
  id: string;
  source: 'still' | 'sampled';
  clip_id?: string;
  t_in_clip?: number;
  image: JudgeImage;
  bytes: Buffer;
}

/** A still as a chain member, read from its file. */
export async function stillMember(encoder: ImageEncoder, id: string, file: string): Promise<Member> {
  return { id, source: 'still', image: await encoder.fromFile(file), bytes: readImageFileSync(file) };
}

function clipFile(lsmdc: string, movie: string, clip: string): string {
  const f = clipFiles(lsmdc, movie).get(clip);
  if (!f) throw new BadInputError(`clip ${clip} of ${movie} has no video file under ${join(lsmdc, movie)}`);
  return f;
}

/** A random time off the 1 fps grid (≥ 0.1 s from any bucket midpoint k + 0.5). */
function offGridTime(tl: Timeline, rng: Rng): number {
  for (;;) {
    const t = rng.next() * tl.length_us;
    const frac = (t / 1e6) % 1;
    if (Math.abs(frac - 0.5) >= 0.1) return Math.floor(t);
  }
}

/**
 * The next `n` sampled members of a chain, drawn one after another exactly as one draw at a time
 * would (each with its own attempts; the draw never depends on pixels), then decoded together:
 * one ffmpeg for the chain's frames (`streamClips`) instead of one per frame — a process start
 * costs more than decoding a short clip.
 */
export async function sampledMembers(
  o: { lsmdc: string; encoder: ImageEncoder },
  movie: string,
  tl: Timeline,
  rng: Rng,
  taken: Set<string>,
  clipsInChain: Set<string>,
  n: number,
): Promise<Member[]> {
  const picks: { id: string; clip_id: string; t_in_clip: number; info: VideoInfo; index: number }[] = [];
  while (picks.length < n) {
    for (let attempt = 0; ; attempt++) {
      const at = tl.locate(offGridTime(tl, rng));
      const id = `${at.clip_id}_t${Math.round(at.t_in_clip * 1000)}`;
      if (taken.has(id)) continue;
      // one frame per clip in a chain while the film has clips to spare (near-duplicates teach nothing)
      if (clipsInChain.has(at.clip_id) && attempt < 50 * tl.clips.length) continue;
      const info = await probe(clipFile(o.lsmdc, movie, at.clip_id));
      const t = Math.min(at.t_in_clip, info.duration_s - 1 / info.fps);
      const [index] = planFrames(info, { kind: 'times', times: [Math.max(0, t)] }).indices!;
      taken.add(id);
      clipsInChain.add(at.clip_id);
      picks.push({ id, clip_id: at.clip_id, t_in_clip: at.t_in_clip, info, index: index! });
      break;
    }
  }
  const frames: VideoFrame[] = new Array(picks.length);
  const { width, height } = picks[0]?.info ?? { width: 0, height: 0 };
  if (picks.every((p) => p.info.width === width && p.info.height === height)) {
    for await (const f of streamClips(
      picks.map((p) => ({ info: p.info, indices: [p.index] })),
      { width, height },
    ))
      frames[f.clip] = f;
  }
  // clips of other sizes (one concatenation needs one size): each on its own
  else
    for (const [k, p] of picks.entries())
      for await (const f of streamFrames(p.info, { kind: 'indices', indices: [p.index] })) frames[k] = f;
  const members: Member[] = [];
  for (const [k, p] of picks.entries()) {
    const f = frames[k];
    if (!f) throw new BadInputError(`frame ${p.index} could not be decoded`, { file: p.info.file });
    members.push({
      id: p.id,
      source: 'sampled',
      clip_id: p.clip_id,
      t_in_clip: Math.round(p.t_in_clip * 1000) / 1000,
      image: await o.encoder.fromRaw(f),
      bytes: await encodeImage(f, { format: 'jpeg', quality: 92 }),
    });
  }
  return members;
}
