/**
 * Render a mini Compass video from a plan: segments joined by hard cuts; inside a segment,
 * images held still over frame ranges, and the frames between two holds a slide from one image
 * to the next (a pan, not a blend, so the shot detector sees no transition). Frames are composed
 * in memory one at a time and piped to ffmpeg (H.264, near-lossless), so a video is exact to the
 * frame. With `audio`, a sound track rides along (`audio.ts`): a tone while the picture holds
 * still, silence while it slides.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { ffmpegEncodeRaw } from '../../media/ffmpeg.js';
import type { RawImage } from '../../media/raw.js';
import { soundtrack } from './audio.js';

export const MINI_FPS = 24;

export interface Hold {
  image: RawImage;
  /** First frame (inclusive) and end frame (exclusive) within the segment. */
  start: number;
  end: number;
}

export interface Segment {
  frames: number;
  holds: Hold[];
  /** What slides into the first hold (when it does not start at frame 0) and out of the last. */
  lead: RawImage;
  tail: RawImage;
}

function slide(from: RawImage, to: RawImage, frac: number): Uint8Array {
  const { width: w, height: h } = from;
  const off = Math.round(w * frac);
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const row = y * w * 3;
    out.set(from.data.subarray(row + off * 3, row + w * 3), row);
    out.set(to.data.subarray(row, row + off * 3), row + (w - off) * 3);
  }
  return out;
}

/** One frame of a plan: whether it holds an image still (a keyframe shown), and its pixels. */
interface PlannedFrame {
  still: boolean;
  pixels: () => Uint8Array;
}

function* segmentFrames(s: Segment): Generator<PlannedFrame> {
  const holds = [...s.holds].sort((a, b) => a.start - b.start);
  for (let f = 0; f < s.frames; f++) {
    const i = holds.findIndex((h) => f >= h.start && f < h.end);
    if (i >= 0) {
      const data = holds[i]!.image.data;
      yield { still: true, pixels: () => data };
      continue;
    }
    const prevIdx = holds.findLastIndex((h) => h.end <= f);
    const nextIdx = holds.findIndex((h) => h.start > f);
    const from = prevIdx >= 0 ? holds[prevIdx]!.image : s.lead;
    const to = nextIdx >= 0 ? holds[nextIdx]!.image : s.tail;
    const a = prevIdx >= 0 ? holds[prevIdx]!.end : 0;
    const b = nextIdx >= 0 ? holds[nextIdx]!.start : s.frames;
    yield { still: false, pixels: () => slide(from, to, (f - a + 1) / (b - a + 1)) };
  }
}

/** Freeze: after frame `at`, show it `frames` more times, then skip `skip` frames (a jump). */
export interface Freeze {
  at: number;
  frames: number;
  skip: number;
}

export function totalFrames(segments: readonly Segment[]): number {
  return segments.reduce((n, s) => n + s.frames, 0);
}

/** The frames as encoded: the segments in order, with the freeze's repeats and skipped frames. */
function* planFrames(segments: readonly Segment[], fr: Freeze | undefined): Generator<PlannedFrame> {
  let i = 0;
  let skip = 0;
  for (const s of segments)
    for (const f of segmentFrames(s)) {
      if (skip > 0) {
        skip--;
        i++;
        continue;
      }
      yield f;
      if (fr && i === fr.at) {
        // a frozen picture holds still, whatever the frame was
        for (let k = 0; k < fr.frames; k++) yield { still: true, pixels: f.pixels };
        skip = fr.skip;
      }
      i++;
    }
}

export interface RenderOptions {
  filter?: string;
  crf?: number;
  freeze?: Freeze;
  /** Give the video a sound track (see `soundtrack`): in sync, or late by `lag` frames. */
  audio?: { lag: number };
}

/** Encode the plan to `file` (written to a temp name, then renamed). */
export async function renderVideo(
  file: string,
  segments: readonly Segment[],
  w: number,
  h: number,
  opts: RenderOptions = {},
): Promise<void> {
  const tmp = `${file}.partial.mp4`;
  const wav = `${file}.partial.wav`;
  if (opts.audio) {
    const still = [...planFrames(segments, opts.freeze)].map((f) => f.still);
    await writeFile(wav, soundtrack(still, MINI_FPS, opts.audio.lag));
  }
  function* pixels() {
    for (const f of planFrames(segments, opts.freeze)) yield f.pixels();
  }
  await ffmpegEncodeRaw(
    [
      ...['-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${w}x${h}`, '-r', String(MINI_FPS)],
      ...['-i', 'pipe:0', ...(opts.audio ? ['-i', wav] : [])],
      ...(opts.filter ? ['-vf', opts.filter] : []),
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(opts.crf ?? 8), '-pix_fmt', 'yuv420p'],
      ...(opts.audio ? ['-c:a', 'aac', '-b:a', '64k'] : []),
      ...['-threads', '1', '-movflags', '+faststart', tmp],
    ],
    pixels(),
    file,
  );
  if (opts.audio) await rm(wav, { force: true });
  await rename(tmp, file);
}
