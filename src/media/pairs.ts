/**
 * Reading each frame at two sizes from one decode (the Compass scan): ffmpeg writes the frame at
 * the pixel size and a small copy for the embedder to two pipes, in planar YUV, and the pairs come out with
 * the small copy in RGB and the full one converted only on demand. Still images meant to be
 * compared with those frames go through the same chain (`imagesAsFramePairs`).
 */
import { BackendError } from '../errors.js';
import { ffmpegRawFramePairs } from './frame-pairs-pipe.js';
import { checkPlanCount, type FramePlan, type FrameRequest, planFrames } from './frame-plan.js';
import { pairPixelFormat, pixelFrameExpr, pixelFrameSize } from './pair-sizes.js';
import { decodeChain, frameTime, type VideoInfo, videoStream } from './probe.js';
import { luma601, type RawImage } from './raw.js';
import { workingSize, workingSizeExpr } from './working-size.js';
import { planarBytes, yuvMatrix, yuvToLuma601, yuvToRgb } from './yuv.js';

export { imagesAsFramePairs } from './images-as-pairs.js';
export { pairPixelFormat, pixelFrameExpr, pixelFrameSize } from './pair-sizes.js';

export interface FramePair {
  /** Frame number in the file, from 0. */
  index: number;
  time_s: number;
  /** The frame at the requested pixel size (the video's own by default), converted on demand. */
  full: () => RawImage;
  /**
   * `luma601(full())` computed straight from the planar frame (no RGB image), on demand and once:
   * what PSNR/SSIM (`compareRaw`) measure of the frame.
   */
  fullLuma: () => RawImage;
  /** The same frame scaled (area averaging, aspect not kept) to `small`'s size. */
  small: RawImage;
  /**
   * When a working size was asked for (`work`): the frame's luma area-scaled to it, limited range,
   * copied out on demand (stage 2 of keyframe matching, media/window.ts).
   */
  work?: () => Uint8Array;
}

/**
 * The filter graph of a frame pair, with two outputs: `[pair_full]`, the frame scaled to the pixel
 * size (`w`/`h`: numbers or `scale` expressions), and `[pair_small]`, a copy of it scaled to
 * `small`, both in planar `pixFmt`. Each goes to its own pipe (`pairArgs`), so no padding rows
 * are sent. With `work`, a third copy, scaled from the decoded frame to the working size, is
 * stacked below the full one in `[pair_full]`.
 */
function pairGraph(
  stream: string,
  select: string | null,
  full: { w: string; h: string },
  small: { width: number; height: number },
  pixFmt: string,
  work?: { w: string; h: string },
  deint = '',
): string {
  const pre = `${deint}${select ? `select=${select},` : ''}`;
  // limited range whatever the source (a full-range `yuvj` file is converted here, as it was on
  // its way to RGB), so that yuv.ts reads every frame with one formula
  const fullChain = `scale=w=${full.w}:h=${full.h}:flags=area:out_range=tv,setsar=1,format=${pixFmt}`;
  const smallChain = `[s]scale=${small.width}:${small.height}:flags=area[pair_small]`;
  if (!work) return `[${stream}]${pre}${fullChain},split=2[pair_full][s];${smallChain}`;
  // the working copy (its luma is what media/window.ts reads as gray) below the full frame
  return (
    `[${stream}]${pre}split=2[d][w];[d]${fullChain},split=2[f][s];${smallChain};` +
    `[w]scale=w=${work.w}:h=${work.h}:flags=area:out_range=tv,setsar=1,format=${pixFmt}[wp];` +
    '[f][wp]xstack=inputs=2:layout=0_0|0_h0:fill=black[pair_full]'
  );
}

/** The decoder's arguments: `[pair_full]` on pipe:1, `[pair_small]` on pipe:3, the same frames. */
function pairArgs(file: string, graph: string, pixFmt: string, frames: number | undefined, threads?: number) {
  const args: string[] = [];
  if (threads) args.push('-threads', String(threads));
  args.push('-i', file, '-filter_complex', graph);
  for (const [label, pipe] of [
    ['[pair_full]', 'pipe:1'],
    ['[pair_small]', 'pipe:3'],
  ] as const) {
    args.push('-map', label, '-an', '-sn', '-dn', '-fps_mode', 'passthrough');
    if (frames !== undefined) args.push('-frames:v', String(frames));
    args.push('-f', 'rawvideo', '-pix_fmt', pixFmt, pipe);
  }
  return args;
}

/** Bytes of one frame on each pipe: the full one (with the working copy below it), the small one. */
function pairBytes(
  full: { width: number; height: number },
  small: { width: number; height: number },
  sub: 1 | 2,
  work?: { width: number; height: number },
): { full: number; small: number } {
  return {
    full: planarBytes(Math.max(full.width, work?.width ?? 0), full.height + (work?.height ?? 0), sub),
    small: planarBytes(small.width, small.height, sub),
  };
}

/** Raw frames (the full one with any working copy below it, the small one) → pairs, checking that the plan's frames all came. */
async function* pairsOf(
  raw: AsyncIterable<[Buffer, Buffer]>,
  info: VideoInfo,
  plan: FramePlan,
  full: { width: number; height: number },
  small: { width: number; height: number },
  sub: 1 | 2,
  work?: { width: number; height: number } | 'full',
): AsyncGenerator<FramePair, void, void> {
  const matrix = yuvMatrix(info.color_space);
  // 'full': the working size is the pixel size, whose luma the frame already carries
  const region = work === 'full' ? { top: 0, ...full } : work && { top: full.height, ...work };
  if (work === 'full') work = undefined;
  const cw = Math.max(full.width, work?.width ?? 0);
  const stackH = full.height + (work?.height ?? 0);
  let i = 0;
  for await (const [data, smallData] of raw) {
    const index = plan.indices ? plan.indices[i]! : i;
    i++;
    const frame = { width: cw, height: stackH, sub, data };
    let rgb: RawImage | undefined;
    let luma: RawImage | undefined;
    const pair: FramePair = {
      index,
      time_s: frameTime(info, index),
      full: () => {
        rgb ??= yuvToRgb(frame, 0, full.width, full.height, matrix);
        return rgb;
      },
      fullLuma: () => {
        luma ??= rgb ? luma601(rgb) : yuvToLuma601(frame, 0, full.width, full.height, matrix);
        return luma;
      },
      small: yuvToRgb({ ...small, sub, data: smallData }, 0, small.width, small.height, matrix),
    };
    if (region) {
      const { top, width, height } = region;
      // rows as wide as the stack lie one after another: a view (a plain Uint8Array), not a copy
      pair.work =
        width === cw
          ? () => new Uint8Array(data.buffer, data.byteOffset + top * cw, height * cw)
          : () => {
              const y = new Uint8Array(width * height);
              for (let r = 0; r < height; r++)
                y.set(data.subarray((top + r) * cw, (top + r) * cw + width), r * width);
              return y;
            };
    }
    yield pair;
  }
  checkPlanCount(info, plan, i);
}

/**
 * Stream the requested frames at two sizes from ONE decode: ffmpeg scales a copy of each frame
 * to `small` beside the frame at the pixel size (`pixelFrameSize`), each on its own pipe, in planar YUV
 * (`pairPixelFormat`) — half the bytes of RGB and no colour conversion of the full frame in
 * ffmpeg. The small copy is converted to RGB at once (`yuv.ts`, the stream's colour matrix); the
 * full one only when a reader asks for it (`full()`), so a matcher pays for the few frames it
 * keeps. Frames come in order; memory holds one frame.
 */
export async function* streamFramePairs(
  info: VideoInfo,
  req: FrameRequest,
  small: { width: number; height: number },
  fmt: {
    pixelSize?: number | undefined;
    threads?: number | undefined;
    /**
     * Also each frame's luma at this working size (`workingSize`; `FramePair.work`); 'full': at the
     * pixel size, read from the full frame (no third copy).
     */
    workSize?: number | 'full' | undefined;
  } = {},
  signal?: AbortSignal,
): AsyncGenerator<FramePair, void, void> {
  const plan = planFrames(info, req);
  if (plan.indices && plan.indices.length === 0) return;
  const full = pixelFrameSize(info.width, info.height, fmt.pixelSize ?? 0);
  const pixFmt = pairPixelFormat(info, small);
  const sub: 1 | 2 = pixFmt === 'yuv420p' ? 2 : 1;
  const work =
    fmt.workSize === undefined || fmt.workSize === 'full'
      ? undefined
      : workingSize(info.width, info.height, fmt.workSize);
  const bytes = pairBytes(full, small, sub, work);
  const graph = pairGraph(
    videoStream(info),
    plan.select,
    { w: String(full.width), h: String(full.height) },
    small,
    pixFmt,
    work && { w: String(work.width), h: String(work.height) },
    decodeChain(info),
  );
  yield* pairsOf(
    ffmpegRawFramePairs({
      args: pairArgs(info.file, graph, pixFmt, plan.indices?.length, fmt.threads),
      frameBytes: bytes.full,
      sideFrameBytes: bytes.small,
      file: info.file,
      signal,
      strictDecode: !info.decoding, // begun mid-GOP: warnings are not damage (mid-stream.ts)
    }),
    info,
    plan,
    full,
    small,
    sub,
    fmt.workSize === 'full' ? 'full' : work,
  );
}

/** A decoder started before the probe returned (`startFramePairs`). */
export interface EarlyFramePairs {
  /**
   * The pairs, when the video turned out as guessed (every frame wanted, 8-bit 4:2:0, the guessed
   * small size); else undefined, and the early decoder is stopped.
   */
  take(
    info: VideoInfo,
    req: FrameRequest,
    small: { width: number; height: number },
  ): AsyncGenerator<FramePair, void, void> | undefined;
  /** Stop the early decoder (the probe failed). */
  cancel(): void;
}

/**
 * Start `streamFramePairs`'s decoder for every frame before the video is probed: the pixel size
 * comes from `scale` expressions (`pixelFrameExpr`), the frame size in bytes once the probe is
 * back. ffmpeg's start (≈ 0.1 s: its own probing and the first frames' decoding) then overlaps
 * ffprobe's. When the probe says otherwise (a rate above the cap, a format other than 8-bit 4:2:0,
 * another small size) the early decoder is stopped and the caller streams as usual.
 */
export function startFramePairs(
  file: string,
  small: { width: number; height: number },
  pixelSize: number,
  signal?: AbortSignal,
  /** ffmpeg `-threads` (0 or undefined: ffmpeg's own choice). */
  threads?: number,
  /** Also each frame's luma at this working size (as `streamFramePairs`'s `workSize`). */
  workSize?: number | 'full',
): EarlyFramePairs {
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let resolveSize!: (n: number) => void;
  let rejectSize!: (e: unknown) => void;
  const size = new Promise<number>((res, rej) => {
    resolveSize = res;
    rejectSize = rej;
  });
  size.catch(() => {});
  const raw = ffmpegRawFramePairs({
    args: pairArgs(
      file,
      pairGraph(
        '0:v:0',
        null,
        pixelFrameExpr(pixelSize),
        small,
        'yuv420p',
        workSize === undefined || workSize === 'full' ? undefined : workingSizeExpr(workSize),
      ),
      'yuv420p',
      undefined,
      threads,
    ),
    frameBytes: size,
    sideFrameBytes: planarBytes(small.width, small.height, 2),
    file,
    signal: ac.signal,
  });
  // run the generator now: it spawns ffmpeg and then waits for the size
  const first = raw.next();
  first.catch(() => {});
  const cancel = () => {
    signal?.removeEventListener('abort', onAbort);
    rejectSize(new BackendError('early decoder not used'));
    ac.abort();
  };
  return {
    cancel,
    take(info, req, s) {
      const plan = planFrames(info, req);
      const full = pixelFrameSize(info.width, info.height, pixelSize);
      // (it decodes the first video stream, strictly, as it is: of no use when the video is
      // another, begun mid-GOP or interlaced)
      const fits =
        info.stream === undefined &&
        !info.decoding &&
        !decodeChain(info) &&
        !plan.select &&
        !plan.indices &&
        s.width === small.width &&
        s.height === small.height &&
        pairPixelFormat(info, small) === 'yuv420p';
      if (!fits) {
        cancel();
        return undefined;
      }
      const work =
        workSize === undefined || workSize === 'full'
          ? undefined
          : workingSize(info.width, info.height, workSize);
      resolveSize(pairBytes(full, small, 2, work).full);
      const frames = (async function* () {
        try {
          const r = await first;
          if (r.done) return;
          yield r.value;
          yield* raw;
        } finally {
          signal?.removeEventListener('abort', onAbort);
          await raw.return(undefined);
        }
      })();
      return pairsOf(frames, info, plan, full, small, 2, workSize === 'full' ? 'full' : work);
    },
  };
}
