/**
 * Reading each frame at two sizes from one decode (the Compass scan): ffmpeg converts the frame to
 * RGB as a player shows it (and as `ffmpeg -i video.mp4 frame.png` saves it), then writes it at
 * the pixel size and a small copy for the embedder to two pipes. Still images meant to be compared
 * with those frames take the same chains after that conversion (`imagesAsFrames`, frame-like.ts):
 * one path from pixels to the embedder and to the pixel measures.
 */
import { BackendError } from '../errors.js';
import {
  type ChainSize,
  chainSize,
  FRAME_PIX_FMT,
  rgbChain,
  scaledChain,
  smallChain,
} from './frame-chains.js';
import { ffmpegRawFramePairs } from './frame-pairs-pipe.js';
import { checkPlanCount, type FramePlan, type FrameRequest, planFrames } from './frame-plan.js';
import { pixelFrameExpr, pixelFrameSize } from './pair-sizes.js';
import { decodeChain, frameTime, videoStream } from './probe.js';
import { cropRaw, luma601, type RawImage } from './raw.js';
import type { VideoInfo } from './video-info.js';
import { workingSize, workingSizeExpr } from './working-size.js';

export interface FramePair {
  /** Frame number in the file, from 0. */
  index: number;
  time_s: number;
  /** The frame at the requested pixel size (the video's own by default), RGB. */
  full: () => RawImage;
  /** `luma601(full())`, on demand and once: what PSNR/SSIM (`compareRaw`) measure of the frame. */
  fullLuma: () => RawImage;
  /** The pixel-size copy scaled again (area averaging, aspect not kept) to `small`'s size, RGB. */
  small: RawImage;
  /**
   * When a working size was asked for (`work`): 601 luma of the frame area-scaled to it, on demand
   * (stage 2 of keyframe matching, media/window.ts).
   */
  work?: () => Uint8Array;
}

/**
 * The filter graph of a frame pair, with two outputs: `[pair_full]`, the frame in RGB (the
 * player's conversion: `rgbChain`) scaled to the pixel size (`w`/`h`: numbers or `scale`
 * expressions), and `[pair_small]`, a copy of it scaled to `small`. Each goes to its own pipe
 * (`pairArgs`), so no padding rows are sent. With `work`, a third copy, scaled from the RGB frame
 * to the working size, is stacked below the full one in `[pair_full]`. Keyframe images take the
 * same chains after `rgbChain` (frame-like.ts).
 */
function pairGraph(
  stream: string,
  select: string | null,
  full: ChainSize,
  small: { width: number; height: number },
  work?: ChainSize,
  deint = '',
): string {
  const pre = `${deint}${select ? `select=${select},` : ''}${rgbChain()},`;
  const fullChain = scaledChain(full);
  const small_ = `[s]${smallChain(small)}[pair_small]`;
  if (!work) return `[${stream}]${pre}${fullChain},split=2[pair_full][s];${small_}`;
  // the working copy (whose luma stage 2 reads) below the full frame
  return (
    `[${stream}]${pre}split=2[d][w];[d]${fullChain},split=2[f][s];${small_};` +
    `[w]${scaledChain(work)}[wp];` +
    '[f][wp]xstack=inputs=2:layout=0_0|0_h0:fill=black[pair_full]'
  );
}

/** The decoder's arguments: `[pair_full]` on pipe:1, `[pair_small]` on pipe:3, the same frames, RGB. */
function pairArgs(file: string, graph: string, frames: number | undefined, threads?: number) {
  const args: string[] = [];
  if (threads) args.push('-threads', String(threads));
  args.push('-i', file, '-filter_complex', graph);
  for (const [label, pipe] of [
    ['[pair_full]', 'pipe:1'],
    ['[pair_small]', 'pipe:3'],
  ] as const) {
    args.push('-map', label, '-an', '-sn', '-dn', '-fps_mode', 'passthrough');
    if (frames !== undefined) args.push('-frames:v', String(frames));
    args.push('-f', 'rawvideo', '-pix_fmt', FRAME_PIX_FMT, pipe);
  }
  return args;
}

/** Bytes of one frame on each pipe: the full one (with the working copy below it), the small one. */
function pairBytes(
  full: { width: number; height: number },
  small: { width: number; height: number },
  work?: { width: number; height: number },
): { full: number; small: number } {
  return {
    full: 3 * Math.max(full.width, work?.width ?? 0) * (full.height + (work?.height ?? 0)),
    small: 3 * small.width * small.height,
  };
}

/** Raw frames (the full one with any working copy below it, the small one) → pairs, checking that the plan's frames all came. */
async function* pairsOf(
  raw: AsyncIterable<[Buffer, Buffer]>,
  info: VideoInfo,
  plan: FramePlan,
  full: { width: number; height: number },
  small: { width: number; height: number },
  work?: { width: number; height: number } | 'full',
): AsyncGenerator<FramePair, void, void> {
  const stacked = work === 'full' ? undefined : work;
  const cw = Math.max(full.width, stacked?.width ?? 0);
  const stackH = full.height + (stacked?.height ?? 0);
  let i = 0;
  for await (const [data, smallData] of raw) {
    const index = plan.indices ? plan.indices[i]! : i;
    i++;
    const stack: RawImage = { width: cw, height: stackH, channels: 3, data };
    let rgb: RawImage | undefined;
    let luma: RawImage | undefined;
    const pair: FramePair = {
      index,
      time_s: frameTime(info, index),
      full: () => {
        rgb ??= cw === full.width && !stacked ? stack : cropRaw(stack, 0, 0, full.width, full.height);
        return rgb;
      },
      fullLuma: () => {
        luma ??= luma601(pair.full());
        return luma;
      },
      small: { width: small.width, height: small.height, channels: 3, data: smallData },
    };
    if (work === 'full') pair.work = () => pair.fullLuma().data;
    else if (stacked)
      pair.work = () => luma601(cropRaw(stack, 0, full.height, stacked.width, stacked.height)).data;
    yield pair;
  }
  checkPlanCount(info, plan, i);
}

/**
 * Stream the requested frames at two sizes from ONE decode: ffmpeg converts each frame to RGB
 * (`rgbChain`), scales it to the pixel size (`pixelFrameSize`) and a copy of that to `small`, each
 * on its own pipe. Frames come in order; memory holds one frame.
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
  const work =
    fmt.workSize === undefined || fmt.workSize === 'full'
      ? undefined
      : workingSize(info.width, info.height, fmt.workSize);
  const bytes = pairBytes(full, small, work);
  const graph = pairGraph(
    videoStream(info),
    plan.select,
    chainSize(full),
    small,
    work && chainSize(work),
    decodeChain(info),
  );
  yield* pairsOf(
    ffmpegRawFramePairs({
      args: pairArgs(info.file, graph, plan.indices?.length, fmt.threads),
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
    fmt.workSize === 'full' ? 'full' : work,
  );
}

/** A decoder started before the probe returned (`startFramePairs`). */
export interface EarlyFramePairs {
  /**
   * The pairs, when the video turned out as guessed (every frame wanted, the first stream, the
   * guessed small size); else undefined, and the early decoder is stopped.
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
 * ffprobe's. When the probe says otherwise (a rate above the cap, another stream, another small
 * size) the early decoder is stopped and the caller streams as usual.
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
        workSize === undefined || workSize === 'full' ? undefined : workingSizeExpr(workSize),
      ),
      undefined,
      threads,
    ),
    frameBytes: size,
    sideFrameBytes: pairBytes({ width: 0, height: 0 }, small).small,
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
        s.height === small.height;
      if (!fits) {
        cancel();
        return undefined;
      }
      const work =
        workSize === undefined || workSize === 'full'
          ? undefined
          : workingSize(info.width, info.height, workSize);
      resolveSize(pairBytes(full, small, work).full);
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
      return pairsOf(frames, info, plan, full, small, workSize === 'full' ? 'full' : work);
    },
  };
}
