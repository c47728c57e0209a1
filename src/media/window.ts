/**
 * Reading a window of a video at its own rate, by seeking to it (stage 2 of keyframe matching:
 * see src/compass/response/stage2.ts). ffmpeg seeks before the input (`-ss` ahead of `-i`, accurate
 * by default: it decodes from the keyframe before the window and drops the frames ahead of it), so
 * only the window and its lead-in are decoded, never the whole video again.
 *
 * Frames come as luma at a working size straight from the decoder's Y plane (ffmpeg's area scaling
 * into `gray`, limited range): no RGB conversion, no scaling in JavaScript. Still images meant to be
 * compared with them (`imagesAsLuma`) go through the same chain after a conversion to the video's
 * colour matrix, so that a keyframe cut from the video and the frame it was cut from come out alike.
 */
import { BackendError, BadInputError } from '../errors.js';
import { ffmpegFilterRaw, ffmpegRawFrames } from './ffmpeg.js';
import { sqDiffSum } from './pixel-kernels.js';
import { decodeChain, frameTime, type VideoInfo, videoStream } from './probe.js';
import type { RawImage } from './raw.js';
import { yuvMatrix, yuvToRgb } from './yuv.js';

export { workingSize } from './working-size.js';

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
 * Frames `first`..`last` (inclusive, numbers in the file) as luma at `size` (`workingSize`), in
 * order; with `full`, each frame's luma at that (pixel) size too, from the same decode (stacked
 * below by ffmpeg, copied out only on demand). A window the decoder cannot deliver whole is bad
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
  // for): it is decoded from its start, the frames ahead of the window trimmed (mid-stream.ts)
  const ss = info.decoding ? 0 : seekPoint(info, a);
  if (ss > 0) args.push('-ss', ss.toFixed(6));
  const trim = `${decodeChain(info)}${info.decoding && a > 0 ? `trim=start_frame=${a},` : ''}`;
  args.push('-i', info.file);
  const scale = (x: { width: number; height: number }) =>
    `scale=${x.width}:${x.height}:flags=area:out_range=tv,format=gray`;
  // the pixel size is the working size: one copy serves both
  if (full && full.width === size.width && full.height === size.height) {
    for await (const f of streamWindowLuma(info, first, last, size, signal, threads))
      yield { ...f, full: () => ({ width: size.width, height: size.height, channels: 1, data: f.y }) };
    return;
  }
  const cw = Math.max(size.width, full?.width ?? 0);
  if (full)
    args.push(
      '-filter_complex',
      `[${videoStream(info)}]${trim}split=2[a][b];[a]${scale(size)}[w];[b]${scale(full)}[f];` +
        '[w][f]xstack=inputs=2:layout=0_0|0_h0:fill=black[out]',
      '-map',
      '[out]',
    );
  else args.push('-map', videoStream(info), '-vf', `${trim}${scale(size)}`);
  args.push('-an', '-sn', '-dn', '-fps_mode', 'passthrough', '-frames:v', String(n));
  args.push('-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1');
  let i = 0;
  for await (const data of ffmpegRawFrames({
    args,
    frameBytes: cw * (size.height + (full?.height ?? 0)),
    file: info.file,
    signal,
    strictDecode: !info.decoding,
  })) {
    const index = a + i++;
    const rows = (top: number, w: number, h: number) => {
      const y = new Uint8Array(w * h);
      for (let r = 0; r < h; r++) y.set(data.subarray((top + r) * cw, (top + r) * cw + w), r * w);
      return y;
    };
    const y = full ? rows(0, size.width, size.height) : data;
    const frame: LumaFrame & { full?: () => RawImage } = { index, time_s: frameTime(info, index), y };
    if (full)
      frame.full = () => ({
        width: full.width,
        height: full.height,
        channels: 1,
        data: rows(size.height, full.width, full.height),
      });
    yield frame;
  }
  if (i < n)
    throw new BadInputError(`has fewer frames than its header says: frame ${a + i} could not be decoded`, {
      file: info.file,
    });
}

/**
 * RGB images (all of one size, the video's aspect) through the chain a decoded frame takes: to the
 * video's colour matrix in 4:2:0 (as it was encoded), then area-scaled into limited-range luma at
 * `size`, as `streamWindowLuma` reads frames. One ffmpeg process for all.
 */
export async function imagesAsLuma(
  images: readonly RawImage[],
  info: Pick<VideoInfo, 'color_space'>,
  size: { width: number; height: number },
): Promise<RawImage[]> {
  if (images.length === 0) return [];
  const { width: fw, height: fh } = images[0]!;
  for (const img of images)
    if (img.width !== fw || img.height !== fh || img.channels !== 3)
      throw new BackendError('imagesAsLuma needs RGB images of one size');
  const frames = await ffmpegFilterRaw({
    args: [
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${fw}x${fh}`, '-r', '1', '-i', 'pipe:0'],
      ...[
        '-vf',
        `scale=out_color_matrix=${yuvMatrix(info.color_space)}:out_range=tv,format=yuv420p,` +
          `scale=${size.width}:${size.height}:flags=area:out_range=tv,format=gray`,
      ],
      ...['-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    ],
    input: images.map((i) => i.data),
    frameBytes: size.width * size.height,
    file: 'keyframe images',
  });
  if (frames.length !== images.length)
    throw new BackendError(`ffmpeg returned ${frames.length} of ${images.length} keyframe images`);
  return frames.map((data) => ({ width: size.width, height: size.height, channels: 1, data }));
}

/**
 * As `imagesAsLuma` at `size`, in one process, with the images' RGB at that size too (read back
 * from full-chroma YUV with the video's matrix): a keyframe made like a frame for both the
 * embedder's chain and the pixel score.
 */
export async function imagesLikeFrames(
  images: readonly RawImage[],
  info: Pick<VideoInfo, 'color_space'>,
  size: { width: number; height: number },
): Promise<{ luma: RawImage; rgb: RawImage }[]> {
  if (images.length === 0) return [];
  const { width: fw, height: fh } = images[0]!;
  for (const img of images)
    if (img.width !== fw || img.height !== fh || img.channels !== 3)
      throw new BackendError('imagesLikeFrames needs RGB images of one size');
  const { width: w, height: h } = size;
  const frames = await ffmpegFilterRaw({
    args: [
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${fw}x${fh}`, '-r', '1', '-i', 'pipe:0'],
      ...[
        '-vf',
        `scale=out_color_matrix=${yuvMatrix(info.color_space)}:out_range=tv,format=yuv420p,` +
          `scale=${w}:${h}:flags=area:out_range=tv,format=yuv444p`,
      ],
      ...['-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'yuv444p', 'pipe:1'],
    ],
    input: images.map((i) => i.data),
    frameBytes: 3 * w * h,
    file: 'keyframe images',
  });
  if (frames.length !== images.length)
    throw new BackendError(`ffmpeg returned ${frames.length} of ${images.length} keyframe images`);
  const matrix = yuvMatrix(info.color_space);
  return frames.map((data) => ({
    luma: { width: w, height: h, channels: 1, data: data.subarray(0, w * h) },
    rgb: yuvToRgb({ width: w, height: h, sub: 1, data }, 0, w, h, matrix),
  }));
}

/**
 * Limited-range luma (16–235) spread to full range, rounded: what 601 luma of the frame's RGB
 * comes to (`compareRaw` measures PSNR/SSIM on that scale).
 */
export function fullRangeLuma(img: RawImage): RawImage {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++)
    out[i] = Math.min(255, Math.max(0, Math.round(((img.data[i]! - 16) * 255) / 219)));
  return { ...img, data: out };
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
