/**
 * A video made of still images, frame by frame, losslessly: FFV1 in planar RGB (Matroska), so a
 * reader that converts it back to RGB gets the very pixels it was given. What `compass
 * check-pipeline` renders a case's keyframes into; a lossy copy is made from it by `transcode`.
 */
import { rename, rm } from 'node:fs/promises';
import { InternalError } from '../errors.js';
import { ffmpegEncodeRaw, ffmpegRun } from './ffmpeg.js';
import type { RawImage } from './raw.js';

export interface StillsVideo {
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** The picture of frame n (RGB, `width`×`height`). */
  frame: (n: number) => RawImage;
}

/** Write `v` to `file` (`.mkv`; written to a temp name, then renamed). */
export async function writeStillsVideo(file: string, v: StillsVideo): Promise<void> {
  const tmp = `${file}.partial.mkv`;
  function* pixels() {
    for (let n = 0; n < v.frames; n++) {
      const img = v.frame(n);
      if (img.width !== v.width || img.height !== v.height || img.channels !== 3)
        throw new InternalError(`stills video: frame ${n} is ${img.width}×${img.height}×${img.channels}`);
      yield img.data;
    }
  }
  await ffmpegEncodeRaw(
    [
      ...['-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${v.width}x${v.height}`, '-r', String(v.fps)],
      ...['-i', 'pipe:0', '-c:v', 'ffv1', '-pix_fmt', 'gbrp', '-threads', '1', tmp],
    ],
    pixels(),
    file,
  );
  await rename(tmp, file);
}

/**
 * A lossy copy of a video: scaled by `scale` (each side, rounded to even) and encoded with x264 at
 * `crf` in 4:2:0, as a generator's output would be.
 */
export async function transcode(src: string, out: string, o: { scale: number; crf: number }): Promise<void> {
  const tmp = `${out}.partial.mp4`;
  try {
    await ffmpegRun(
      [
        ...['-y', '-i', src, '-vf', `scale=trunc(iw*${o.scale}/2)*2:trunc(ih*${o.scale}/2)*2:flags=area`],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(o.crf), '-pix_fmt', 'yuv420p'],
        ...['-threads', '1', tmp],
      ],
      src,
    );
    await rename(tmp, out);
  } finally {
    await rm(tmp, { force: true });
  }
}
