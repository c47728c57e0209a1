/**
 * What a browser needs from a video: whether it can play the file as it is (H.264, VP8, VP9 or
 * AV1 in 4:2:0 — Debian's Chromium plays H.264), a WebM proxy when it cannot, and a single frame
 * as JPEG at a time (the matched frame shown beside a keyframe).
 */
import { z } from 'zod';
import { ffmpegBytes, ffmpegRun, ffprobeJson } from './ffmpeg.js';

const PLAYABLE_CODECS = new Set(['h264', 'vp8', 'vp9', 'av1']);
const PLAYABLE_PIX = new Set(['yuv420p', 'yuvj420p']);

const Probe = z.looseObject({
  streams: z.array(
    z.looseObject({
      codec_type: z.string().optional(),
      codec_name: z.string().optional(),
      pix_fmt: z.string().optional(),
    }),
  ),
});

export interface Playability {
  codec: string;
  pixFmt: string;
  hasAudio: boolean;
  playable: boolean;
}

export async function playability(file: string): Promise<Playability> {
  const p = await ffprobeJson(file, Probe);
  const v = p.streams.find((s) => s.codec_type === 'video');
  const codec = v?.codec_name ?? 'none';
  const pixFmt = v?.pix_fmt ?? 'none';
  return {
    codec,
    pixFmt,
    hasAudio: p.streams.some((s) => s.codec_type === 'audio'),
    playable: PLAYABLE_CODECS.has(codec) && PLAYABLE_PIX.has(pixFmt),
  };
}

/** A VP8/Opus WebM copy any browser plays; written by ffmpeg to `out` (the caller renames it into place). */
export async function writeWebmProxy(src: string, out: string, hasAudio: boolean): Promise<void> {
  await ffmpegRun(
    [
      '-y',
      '-i',
      src,
      '-map',
      '0:v:0',
      ...(hasAudio ? ['-map', '0:a:0', '-c:a', 'libopus', '-b:a', '96k'] : ['-an']),
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '2M',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'webm',
      out,
    ],
    src,
  );
}

/** The frame shown at `t` seconds, scaled to `width` (even height), as JPEG bytes. */
export async function frameJpegAt(file: string, t: number, width: number): Promise<Buffer> {
  return ffmpegBytes(
    [
      '-ss',
      t.toFixed(6),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `scale=${width}:-2`,
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2pipe',
      'pipe:1',
    ],
    file,
  );
}
