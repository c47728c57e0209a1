/**
 * Still images put through the scaling chain of the Compass scan's frame pairs (pairs.ts), so that
 * an image and a frame showing it are resampled alike.
 */
import { BackendError, InternalError } from '../errors.js';
import { ffmpegFilterRaw } from './ffmpeg.js';
import type { RawImage } from './raw.js';
import { planarBytes, yuvToRgb } from './yuv.js';

/**
 * Put still images through the same scaling chain `streamFramePairs` applies to video frames, in
 * one ffmpeg process: each image (already at the `full` frame size) is converted to the frames'
 * planar format (`pairPixelFormat`; `yuv420p` by default, the chroma subsampling of nearly every
 * encoded video), area-scaled to `small` and read back to RGB by yuv.ts. An image and a frame
 * showing it are then resampled alike — some embedders' features depend on the resampler — and
 * subsampling is no difference either.
 */
export async function imagesAsFramePairs(
  images: readonly RawImage[],
  small: { width: number; height: number },
  pixFmt = 'yuv420p',
): Promise<RawImage[]> {
  if (images.length === 0) return [];
  const { width: fw, height: fh } = images[0]!;
  for (const img of images)
    if (img.width !== fw || img.height !== fh || img.channels !== 3)
      // the caller resizes first: a mismatch here is kfbench's own fault, not the user's
      throw new InternalError('imagesAsFramePairs needs RGB images of one size');
  const { width: sw, height: sh } = small;
  const sub: 1 | 2 = sw % 2 === 0 && sh % 2 === 0 && pixFmt === 'yuv420p' ? 2 : 1;
  const outFmt = sub === 2 ? 'yuv420p' : 'yuv444p';
  const frames = await ffmpegFilterRaw({
    args: [
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${fw}x${fh}`, '-r', '1', '-i', 'pipe:0'],
      ...['-vf', `format=${pixFmt},scale=${sw}:${sh}:flags=area:out_range=tv,setsar=1,format=${outFmt}`],
      ...['-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', outFmt, 'pipe:1'],
    ],
    input: images.map((i) => i.data),
    frameBytes: planarBytes(sw, sh, sub),
    file: 'keyframe images',
  });
  if (frames.length !== images.length)
    throw new BackendError(`ffmpeg returned ${frames.length} of ${images.length} keyframe images`);
  // RGB in, so swscale chose BT.601 on the way to YUV; read back with the same matrix
  return frames.map((data) => yuvToRgb({ width: sw, height: sh, sub, data }, 0, sw, sh, 'bt601'));
}
