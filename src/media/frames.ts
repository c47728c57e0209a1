import { ffmpegRawFrames } from './ffmpeg-raw.js';
import { checkPlanCount, type FramePlan, type FrameRequest, planFrames } from './frame-plan.js';
import { decodeChain, frameTime, videoStream } from './probe.js';
import { probeMany } from './probe-many.js';
import type { RawImage } from './raw.js';
import type { VideoInfo } from './video-info.js';

export interface FrameFormat {
  /** Output size; omitted = the video's own. One side alone keeps the aspect ratio. */
  width?: number | undefined;
  height?: number | undefined;
  pixels?: 'rgb' | 'gray';
  /** Decoder threads for this process (ffmpeg's default when omitted). */
  threads?: number | undefined;
}

export interface VideoFrame extends RawImage {
  /** Frame number in the file, from 0. */
  index: number;
  /** Start of the frame's display interval, seconds. */
  time_s: number;
}

function outputSize(srcW: number, srcH: number, fmt: FrameFormat): { width: number; height: number } {
  const { width, height } = fmt;
  if (width && height) return { width, height };
  if (width) return { width, height: Math.max(1, Math.round((width * srcH) / srcW)) };
  if (height) return { width: Math.max(1, Math.round((height * srcW) / srcH)), height };
  return { width: srcW, height: srcH };
}

function chain(info: VideoInfo, select: string | null, w: number, h: number, pixels: 'rgb' | 'gray'): string {
  const deint = decodeChain(info);
  const parts: string[] = deint ? [deint.slice(0, -1)] : [];
  if (select) parts.push(`select=${select}`);
  parts.push(`scale=${w}:${h}:flags=area`, 'setsar=1', `format=${pixels === 'gray' ? 'gray' : 'rgb24'}`);
  return parts.join(',');
}

/**
 * Stream the requested frames of one video as raw pixels, in frame order, from one ffmpeg process.
 * Duplicated times yield the frame once. Frames the header promised but the file lacks are an error.
 */
export async function* streamFrames(
  info: VideoInfo,
  req: FrameRequest,
  fmt: FrameFormat = {},
  signal?: AbortSignal,
  side?: SideFrames,
): AsyncGenerator<VideoFrame, void, void> {
  const plan = planFrames(info, req);
  const sidePlan = side ? planFrames(info, side.req) : undefined;
  if (side && sidePlan && (emptyPlan(plan) || emptyPlan(sidePlan))) {
    // nothing to share: each request on its own (an empty one starts no process)
    for await (const f of streamFrames(info, side.req, side.fmt, signal)) side.onFrame(f);
    yield* streamFrames(info, req, fmt, signal);
    return;
  }
  if (emptyPlan(plan)) return;
  const out = outputOf(info, plan, fmt);
  const args: string[] = [];
  if (fmt.threads) args.push('-threads', String(fmt.threads));
  args.push('-i', info.file);
  let sideOut: ReturnType<typeof outputOf> | undefined;
  let sideCount = 0;
  if (side && sidePlan) {
    // one decode, split in two chains: the main output on pipe:1, the side output on pipe:3
    sideOut = outputOf(info, sidePlan, side.fmt);
    args.push(
      '-filter_complex',
      `[${videoStream(info)}]split=2[m][s];[m]${out.chain}[mo];[s]${sideOut.chain}[so]`,
      ...outputArgs('[mo]', plan),
      ...outputArgs('[so]', sidePlan).map((a) => (a === 'pipe:1' ? 'pipe:3' : a)),
    );
  } else args.push(...outputArgs(videoStream(info), plan, out.chain));
  let i = 0;
  for await (const data of ffmpegRawFrames({
    args,
    frameBytes: out.frameBytes,
    file: info.file,
    signal,
    // a stream begun mid-GOP: its decoder's warnings are not damage, the frame count says (mid-stream.ts)
    strictDecode: !info.decoding,
    side:
      side && sideOut
        ? {
            frameBytes: sideOut.frameBytes,
            onFrame: (data) => {
              const index = sidePlan?.indices ? sidePlan.indices[sideCount]! : sideCount;
              sideCount++;
              side.onFrame({ index, time_s: frameTime(info, index), ...sideOut!.size, data });
            },
          }
        : undefined,
  })) {
    const index = plan.indices ? plan.indices[i]! : i;
    i++;
    yield { index, time_s: frameTime(info, index), ...out.size, data };
  }
  checkPlanCount(info, plan, i);
  if (sidePlan) checkPlanCount(info, sidePlan, sideCount);
}

/** A second request on the same decode (`streamFrames`): its frames go to `onFrame` as they come. */
export interface SideFrames {
  req: FrameRequest;
  fmt: FrameFormat;
  onFrame: (f: VideoFrame) => void;
}

const emptyPlan = (plan: FramePlan) => !!plan.indices && plan.indices.length === 0;

/** An output's filter chain, size and frame bytes. */
function outputOf(info: VideoInfo, plan: FramePlan, fmt: FrameFormat) {
  const pixels = fmt.pixels ?? 'rgb';
  const channels: 1 | 3 = pixels === 'gray' ? 1 : 3;
  const { width, height } = outputSize(info.width, info.height, fmt);
  return {
    chain: chain(info, plan.select, width, height, pixels),
    size: { width, height, channels },
    frameBytes: width * height * channels,
  };
}

/** One raw output: its stream (and chain, for a plain `-vf`), the frame limit, the pipe. */
function outputArgs(map: string, plan: FramePlan, vf?: string): string[] {
  const args = ['-map', map, '-an', '-sn', '-dn'];
  if (vf) args.push('-vf', vf);
  args.push('-fps_mode', 'passthrough');
  if (plan.indices) args.push('-frames:v', String(plan.indices.length));
  args.push('-f', 'rawvideo', 'pipe:1');
  return args;
}

export interface ClipRequest {
  info: VideoInfo;
  /** Exact frame numbers within this clip. */
  indices: number[];
}

export interface ClipFrame extends VideoFrame {
  /** Position of the clip in the request list. */
  clip: number;
}

/**
 * Read selected frames of several clips through as few ffmpeg processes as possible: clips are
 * opened as inputs of one process (in batches of `batch`, default 32), each with its own exact `select`, and
 * concatenated. If a batch yields fewer frames than planned, the clips of that batch are re-read
 * one by one, so that errors name the clip at fault and frames are never attributed to the wrong
 * clip. The next batch is decoded while the current one is consumed (two batches in memory at most).
 */
export async function* streamClips(
  clips: ClipRequest[],
  fmt: FrameFormat & { width: number; height: number },
  opts: { batch?: number; signal?: AbortSignal } = {},
): AsyncGenerator<ClipFrame, void, void> {
  const batchSize = opts.batch ?? 32;
  const pixels = fmt.pixels ?? 'rgb';
  const channels = pixels === 'gray' ? 1 : 3;
  const plans = clips.map((c) => planFrames(c.info, { kind: 'indices', indices: c.indices }));
  const work = clips.map((c, k) => ({ c, k, plan: plans[k]! })).filter((x) => x.plan.indices!.length > 0);
  type Work = (typeof work)[number];
  /** Decode a multi-clip batch into memory; null when it came up short or failed (→ per clip). */
  const collect = async (batch: Work[]): Promise<Buffer[] | null> => {
    if (batch.length === 1) return null;
    const args: string[] = [];
    for (const b of batch) {
      if (fmt.threads) args.push('-threads', String(fmt.threads));
      args.push('-i', b.c.info.file);
    }
    const graph = batch
      .map(
        (b, j) =>
          `[${videoStream(b.c.info, j)}]${chain(b.c.info, b.plan.select, fmt.width, fmt.height, pixels)}[v${j}]`,
      )
      .join(';');
    const labels = batch.map((_, j) => `[v${j}]`).join('');
    const total = batch.reduce((acc, b) => acc + b.plan.indices!.length, 0);
    args.push('-filter_complex', `${graph};${labels}concat=n=${batch.length}:v=1:a=0[out]`, '-map', '[out]');
    args.push('-fps_mode', 'passthrough', '-frames:v', String(total), '-f', 'rawvideo', 'pipe:1');
    const frames: Buffer[] = [];
    try {
      for await (const data of ffmpegRawFrames({
        args,
        frameBytes: fmt.width * fmt.height * channels,
        file: batch.map((b) => b.c.info.file).join(', '),
        signal: opts.signal,
      }))
        frames.push(data);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      return null;
    }
    return frames.length === total ? frames : null;
  };
  const batches: Work[][] = [];
  for (let s = 0; s < work.length; s += batchSize) batches.push(work.slice(s, s + batchSize));
  // Each batch is collected whole before its frames are yielded (a batch that comes up short must
  // not attribute frames to the wrong clip); the next batch decodes while this one is consumed.
  let pending = batches.length ? collect(batches[0]!) : undefined;
  for (let i = 0; i < batches.length; i++) {
    const batch = batches[i]!;
    const frames = await pending!;
    pending = i + 1 < batches.length ? collect(batches[i + 1]!) : undefined;
    pending?.catch(() => undefined);
    if (!frames) {
      for (const b of batch) {
        for await (const f of streamFrames(
          b.c.info,
          { kind: 'indices', indices: b.c.indices },
          fmt,
          opts.signal,
        ))
          yield { ...f, clip: b.k };
      }
      continue;
    }
    let at = 0;
    for (const b of batch) {
      for (const index of b.plan.indices!) {
        yield {
          index,
          time_s: frameTime(b.c.info, index),
          width: fmt.width,
          height: fmt.height,
          channels,
          data: frames[at++]!,
          clip: b.k,
        };
      }
    }
  }
}

/**
 * Probe and read clips by file name: `choose` picks each clip's exact frame numbers from its
 * probed info. Probing of the next batch overlaps the decoding of the current one. Without a
 * width and height, frames come at the first clip's size.
 */
export async function* streamClipFiles(
  files: string[],
  choose: (info: VideoInfo, clip: number) => number[],
  fmt: FrameFormat & { width?: number | undefined; height?: number | undefined },
  opts: { batch?: number; signal?: AbortSignal } = {},
): AsyncGenerator<ClipFrame & { info: VideoInfo }, void, void> {
  const B = opts.batch ?? 32;
  let size: { width: number; height: number } | undefined;
  let next: Promise<VideoInfo[]> | undefined = probeMany(files.slice(0, B));
  for (let s = 0; s < files.length; s += B) {
    const infos: VideoInfo[] = await next!;
    next = s + B < files.length ? probeMany(files.slice(s + B, s + 2 * B)) : undefined;
    next?.catch(() => undefined); // surfaced when awaited; never an unhandled rejection meanwhile
    const req = infos.map((info, j) => ({ info, indices: choose(info, s + j) }));
    // without a size, every clip is read at the first clip's size (clips of one film share it)
    size ??= { width: fmt.width ?? infos[0]!.width, height: fmt.height ?? infos[0]!.height };
    for await (const f of streamClips(
      req,
      { ...fmt, ...size },
      {
        batch: B,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    )) {
      yield { ...f, clip: s + f.clip, info: infos[f.clip]! };
    }
  }
}
