/**
 * Reading a window of a video at its own rate, by seeking to it (stage 2 of keyframe matching:
 * see src/compass/scan/stage2.ts). ffmpeg seeks before the input (`-ss` ahead of `-i`, accurate
 * by default: it decodes from the keyframe before the window and drops the frames ahead of it), so
 * only the window and its lead-in are decoded, never the whole video again.
 *
 * Frames come as 601 luma of RGB copies at a working size and at the pixel size: the chains and
 * readers of the frame pairs (frame-chains.ts), which keyframe images take too (frame-like.ts), so
 * that a keyframe cut from the video and the frame it was cut from come out alike.
 */
import { BadInputError } from '../errors.js';
import { ffmpegRawFrames } from './ffmpeg-raw.js';
import { chainSize, FRAME_PIX_FMT, rgbChain, scaledChain } from './frame-chains.js';
import { sqDiffSum } from './pixel-kernels.js';
import { decodeChain, frameTime, videoStream } from './probe.js';
import { cropRaw, luma601, type RawImage } from './raw.js';
import type { VideoInfo } from './video-info.js';

/** One frame of a window: its number in the file, its start time and its luma plane. */
export interface LumaFrame {
  index: number;
  time_s: number;
  y: Uint8Array;
}

/** Seek point of frame `first`: half a frame before it, so that float rounding cannot drop it. */
function seekPoint(info: VideoInfo, first: number): number {
  if (first <= 0) return 0;
  const t = frameTime(info, first);
  const prev = frameTime(info, first - 1);
  return (t + prev) / 2;
}

/**
 * Frames `first`..`last` (inclusive, numbers in the file) as 601 luma at `size` (`workingSize`),
 * in order; with `full`, each frame's 601 luma at that (pixel) size too, from the same decode, on
 * demand. Both copies take the frame pairs' chains (frame-chains.ts: RGB as a player shows it,
 * then area scaling), as keyframe images do. A window the decoder cannot deliver whole is bad
 * input naming the file.
 */
export async function* streamWindowLuma(
  info: VideoInfo,
  first: number,
  last: number,
  size: { width: number; height: number },
  signal?: AbortSignal,
  threads?: number,
  full?: { width: number; height: number },
): AsyncGenerator<LumaFrame & { full?: () => RawImage }, void, void> {
  const a = Math.max(0, first);
  const b = Math.min(info.frames - 1, last);
  if (b < a) return;
  const n = b - a + 1;
  const args: string[] = [];
  if (threads) args.push('-threads', String(threads));
  // a stream begun mid-GOP is not sought in (its demuxer's seek can land past the frame asked
  // for), nor one whose packets are not all timed (a seek lands a frame early): it is decoded from
  // its start, the frames ahead of the window trimmed (mid-stream.ts)
  const fromStart = !!info.decoding || !!info.untimed;
  const ss = fromStart ? 0 : seekPoint(info, a);
  if (ss > 0) args.push('-ss', ss.toFixed(6));
  const pre = `${decodeChain(info)}${fromStart && a > 0 ? `trim=start_frame=${a},` : ''}${rgbChain()},`;
  args.push('-i', info.file);
  // the pixel size is the working size: one copy serves both
  const two = full && (full.width !== size.width || full.height !== size.height) ? full : undefined;
  const cw = Math.max(size.width, two?.width ?? 0);
  const stackH = size.height + (two?.height ?? 0);
  if (!two) args.push('-map', videoStream(info), '-vf', `${pre}${scaledChain(chainSize(size))}`);
  else
    args.push(
      '-filter_complex',
      `[${videoStream(info)}]${pre}split=2[a][b];[a]${scaledChain(chainSize(two))}[f];` +
        `[b]${scaledChain(chainSize(size))}[w];[f][w]xstack=inputs=2:layout=0_0|0_h0:fill=black[out]`,
      '-map',
      '[out]',
    );
  args.push('-an', '-sn', '-dn', '-fps_mode', 'passthrough', '-frames:v', String(n));
  args.push('-f', 'rawvideo', '-pix_fmt', FRAME_PIX_FMT, 'pipe:1');
  let i = 0;
  for await (const data of ffmpegRawFrames({
    args,
    frameBytes: 3 * cw * stackH,
    file: info.file,
    signal,
    strictDecode: !info.decoding,
  })) {
    const index = a + i++;
    const stack: RawImage = { width: cw, height: stackH, channels: 3, data };
    // the working copy: alone, or below the pixel-size copy
    const y = luma601(two ? cropRaw(stack, 0, two.height, size.width, size.height) : stack);
    const frame: LumaFrame & { full?: () => RawImage } = { index, time_s: frameTime(info, index), y: y.data };
    if (full) frame.full = two ? () => luma601(cropRaw(stack, 0, 0, two.width, two.height)) : () => y;
    yield frame;
  }
  if (i < n)
    throw new BadInputError(`has fewer frames than its header says: frame ${a + i} could not be decoded`, {
      file: info.file,
    });
}

/**
 * Mean squared difference of two luma planes of one size: the squares summed exactly
 * (`sqDiffSum`, an integer below 2⁵³), so the total is exactly a plain loop's.
 */
export function lumaMse(a: Uint8Array, b: Uint8Array): number {
  return sqDiffSum(a, b) / a.length;
}

/** PSNR (dB) of a mean squared difference of 8-bit samples; Infinity when identical. */
export function psnrOfMse(mse: number): number {
  return mse === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / mse);
}
