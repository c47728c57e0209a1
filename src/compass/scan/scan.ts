/**
 * Read a generated video once against a case's keyframes: every frame (capped at `fpsCap`) is
 * decoded at two sizes by one ffmpeg process — a small copy for the embedder and the shot
 * detector, a larger one kept only while it is some keyframe's best match — and each keyframe's
 * cosine similarity to every sampled frame is recorded. PSNR/SSIM are computed for each
 * keyframe's best sampled frame. That is stage 1; stage 2 (`stage2.ts`) then reads each matched
 * keyframe's window at the video's own rate (seeking to it) and finds its frame in pixels. The
 * result (a `Scan`) is everything the six metrics need for any choice of their constants (stage 2
 * for the γ and hold ε it was made with), so re-scoring never decodes again (see `cache.ts`).
 * Keyframes meet a video of another aspect ratio by `keyframeFit` (default: centre crop); they are
 * prepared once per run, not per video (`keyframe-prep.ts`). A keyframe's pixel score on a frame
 * is computed once, on the frame's luma straight from its planar YUV (`FramePair.fullLuma`).
 * Memory: one batch of frames, one kept frame per keyframe, and N floats per sampled frame.
 */
import type { Embedder } from '../../embed/embedder.js';
import { cosine } from '../../embed/embedder.js';
import { BadInputError } from '../../errors.js';
import { planFrames } from '../../media/frame-plan.js';
import { loadImage, type ResizeFit } from '../../media/image.js';
import { pixelFrameSize } from '../../media/pair-sizes.js';
import { startFramePairs, streamFramePairs } from '../../media/pairs.js';
import { probe } from '../../media/probe.js';
import { DEFAULT_SHOT_OPTIONS, type ShotOptions } from '../../media/shot-options.js';
import { ShotDetector } from '../../media/shots.js';
import type { VideoInfo } from '../../media/video-info.js';
import { workingSize } from '../../media/working-size.js';
import type { Scan, ScanRefine, ScanTimings } from '../schemas/scan.js';
import { holdsFiles, keyframeFiles, type PreparedKeyframes, prepareKeyframes } from './keyframe-prep.js';
import { DEFAULT_SCAN_OPTIONS, type KeyframeFit, type ScanOptions } from './options.js';
import { StageOne } from './stage1.js';
import { refine } from './stage2.js';
import type { StageTwoAlong } from './stage2-along.js';

export interface ScanInput {
  video: string;
  keyframes: { kf_id: string; image: string }[];
}

/** Scan one video. A video with no frames, or that cannot be decoded, is bad input naming it. */
export async function scanVideo(
  input: ScanInput,
  embedder: Embedder,
  opts: Partial<ScanOptions> = {},
  shotOpts: Partial<ShotOptions> = {},
  timings?: ScanTimings,
  /** Aborting kills the decoder (the scan then rejects). */
  signal?: AbortSignal,
): Promise<Scan> {
  const o = { ...DEFAULT_SCAN_OPTIONS, ...opts };
  const t0 = performance.now();
  // the keyframe images load while the video is probed and its first frames decode, unless a set
  // prepared from them is kept (keyframe-prep.ts: once per run, not per video)
  const paths = input.keyframes.map((k) => k.image);
  const identity = keyframeFiles(paths);
  const early = startEarly(input.video, embedder, o, signal);
  const files = await identity;
  const images = holdsFiles(embedder, files) ? undefined : Promise.all(paths.map((f) => loadImage(f)));
  images?.catch(() => {}); // awaited below; a failure surfaces there
  const info = await probeVideo(input.video, early);
  const plan = readPlan(info, embedder, o);
  // keyframes at the pixel frame size (for PSNR/SSIM), then through the frames' own scaling chain;
  // prepared while the first frames decode
  const prepared = prepareKeyframes(
    embedder,
    files,
    {
      images: paths,
      info,
      fit: FIT[o.keyframeFit],
      full: plan.fullSize,
      small: plan.small,
      work: plan.keyWork,
    },
    images,
  );
  prepared.catch(() => {}); // awaited below; a failure surfaces there
  let shots: ShotDetector;
  try {
    shots = new ShotDetector(plan.sampleFps, { ...DEFAULT_SHOT_OPTIONS, ...shotOpts }, plan.lastDuration);
  } catch (e) {
    early?.cancel(); // no decoder left waiting to be read
    throw e;
  }
  const gamma = o.gamma ?? embedder.defaultThreshold ?? 0.8;
  const s1 = new StageOne(input.keyframes.length, embedder, prepared, shots, {
    info,
    sampleFps: plan.sampleFps,
    capped: plan.capped,
    sampled: plan.sampled,
    along: plan.rideAlong
      ? { gamma, holdTolerance_db: o.holdTolerance_db, holdMatch_db: o.holdMatch_db }
      : undefined,
    batch: o.batch,
  });
  const req =
    plan.capped && !plan.sampled ? { kind: 'rate' as const, rate: o.fpsCap } : { kind: 'all' as const };
  const pairs =
    early?.take(info, req, plan.small) ??
    streamFramePairs(
      info,
      req,
      plan.small,
      {
        pixelSize: o.pixelSize,
        threads: o.decodeThreads,
        workSize: plan.rideAlong ? (plan.workIsFull ? 'full' : o.matchSize) : undefined,
      },
      signal,
    );
  for await (const pair of pairs) await s1.add(pair);
  await s1.flush();
  if (s1.times.length === 0) throw new BadInputError('has no decodable frames', { file: input.video });
  const t1 = performance.now();
  const p = await prepared;
  const { peaks, compare } = s1.peaks(p);
  const t2 = performance.now();
  const staged = await stageTwo(s1, p, compare, { info, o, plan, gamma, signal });
  const refined = staged && (await ownCosines(staged, s1, embedder));
  if (timings) {
    timings.decode_embed_s += (t1 - t0) / 1000;
    timings.pixels_s += (t2 - t1) / 1000;
    timings.stage2_s = (timings.stage2_s ?? 0) + (performance.now() - t2) / 1000;
  }
  return scanResult(info, plan.sampleFps, s1, peaks, shots, refined);
}

type Early = ReturnType<typeof startFramePairs>;

/**
 * ffmpeg starts beside ffprobe when the embedder's input size does not depend on the video's (its
 * own start then overlaps the probe); the probe decides whether that decoder is used.
 */
function startEarly(
  video: string,
  embedder: Embedder,
  o: ScanOptions,
  signal: AbortSignal | undefined,
): Early | undefined {
  const guess = embedder.inputSize(1920, 1080);
  const fixed = sameSize(guess, embedder.inputSize(480, 854));
  if (!fixed || !o.earlyStart) return undefined;
  return startFramePairs(
    video,
    guess,
    o.pixelSize,
    signal,
    o.decodeThreads,
    o.refine ? (o.matchSize === o.pixelSize ? 'full' : o.matchSize) : undefined,
  );
}

/** The video's header; the response is placed in time, so a "video" of one frame is bad input. */
async function probeVideo(video: string, early: Early | undefined): Promise<VideoInfo> {
  try {
    const info = await probe(video);
    // the response is placed in time: a "video" of one frame (a picture) has no duration to score
    if (info.frames < 2)
      throw new BadInputError(`has ${info.frames} frame: a still picture, not a video`, {
        file: video,
      });
    return info;
  } catch (e) {
    early?.cancel();
    throw e;
  }
}

/** How the video is read: its sampling rate, the sizes, and whether stage 2 rides along. */
function readPlan(info: VideoInfo, embedder: Embedder, o: ScanOptions) {
  // a variable-rate video is sampled at its real mean rate, and every time is its frame's pts
  const rate = info.times ? info.mean_fps : info.fps;
  const sampleFps = Math.min(rate, o.fpsCap);
  const capped = rate > o.fpsCap;
  const fullSize = pixelFrameSize(info.width, info.height, o.pixelSize);
  const small = embedder.inputSize(info.width, info.height);
  // the working size: the pixel size when they are set alike (the default), whose luma the decoded
  // frame already carries
  const workIsFull = o.matchSize === o.pixelSize;
  const work = workIsFull ? fullSize : workingSize(info.width, info.height, o.matchSize);
  const lastDuration = info.times ? info.duration_s - (info.times[info.times.length - 1] ?? 0) : undefined;
  // stage 2 rides along stage 1 — which then reads every frame, sampling in kfbench when the video
  // is above the cap (up to twice the cap, constant rate) — or else seeks to the windows afterwards
  const rideAlong = o.refine && (!capped || (!info.times && rate <= 2 * o.fpsCap));
  const sampled =
    rideAlong && capped
      ? new Set(planFrames(info, { kind: 'rate', rate: o.fpsCap }).indices ?? [])
      : undefined;
  // the keyframes' luma for stage 2, at the working size
  const keyWork = !o.refine ? undefined : workIsFull ? ('full' as const) : work;
  return {
    rate,
    sampleFps,
    capped,
    fullSize,
    small,
    workIsFull,
    work,
    keyWork,
    lastDuration,
    rideAlong,
    sampled,
  };
}

/** Stage 2's refinements: from the ride along, else by seeking to the windows, else (`refine` off) none. */
async function stageTwo(
  s1: StageOne,
  p: PreparedKeyframes,
  compare: Parameters<StageTwoAlong['finish']>[5],
  x: {
    info: VideoInfo;
    o: ScanOptions;
    plan: ReturnType<typeof readPlan>;
    gamma: number;
    signal: AbortSignal | undefined;
  },
): Promise<(ScanRefine | null)[] | undefined> {
  const { info, o, plan } = x;
  if (s1.along) return s1.along.finish(s1.sims, o.holdEps, p.pixels, plan.rate, plan.lastDuration, compare);
  if (!o.refine) return undefined;
  return refine({
    info,
    times: s1.times,
    sims: s1.sims,
    sampleFps: plan.sampleFps,
    vfr: !!info.times,
    gamma: x.gamma,
    holdEps: o.holdEps,
    luma: p.luma,
    pixels: p.pixels,
    reference: p.reference,
    size: plan.work,
    full: plan.fullSize,
    holdTolerance_db: o.holdTolerance_db,
    holdMatch_db: o.holdMatch_db,
    threads: o.decodeThreads,
    signal: x.signal,
  });
}

/**
 * f*(k)'s own cosine (the KFS frame, fidelity.ts): stage 1's when it sampled that frame; else, when
 * stage 2 rode along, f*(k) embedded now (one batch); else (windows read by seeking) none.
 */
async function ownCosines(
  staged: readonly (ScanRefine | null)[],
  s1: StageOne,
  embedder: Embedder,
): Promise<(ScanRefine | null)[]> {
  const small = s1.along?.small ?? [];
  const unsampled = staged.flatMap((r, k) => (r && !s1.sampledAt.has(r.frame) && small[k] ? [k] : []));
  const images = unsampled.flatMap((k) => small[k] ?? []);
  const extra = images.length ? await embedder.embed(images) : [];
  return staged.map((r, k) => {
    if (!r) return null;
    const j = s1.sampledAt.get(r.frame);
    const e = extra[unsampled.indexOf(k)];
    const cos = j !== undefined ? (s1.sims[k]?.[j] ?? null) : e ? cosine(s1.kvec(k), e) : null;
    return { ...r, cos };
  });
}

function scanResult(
  info: VideoInfo,
  sampleFps: number,
  s1: StageOne,
  peaks: Scan['peaks'],
  shots: ShotDetector,
  refined: (ScanRefine | null)[] | undefined,
): Scan {
  const detected = shots.finish();
  return {
    video: {
      width: info.width,
      height: info.height,
      fps: info.fps,
      frames: info.frames,
      duration_s: info.duration_s,
      ...(info.times ? { vfr: true, frame_times: Array.from(info.times) } : {}),
      ...(info.decoding
        ? { decoding: { dropped: info.decoding.dropped, concealed: info.decoding.concealed } }
        : {}),
    },
    sample_fps: sampleFps,
    times: s1.times,
    sims: s1.sims,
    peaks,
    // a shot starts at its first sampled frame's presentation time (above the cap, the sampled
    // frame's own, not the sampling grid's)
    shots: detected.shots.map((s) =>
      info.times
        ? { start_s: s.start_s, end_s: s.end_s }
        : {
            start_s: s1.times[s.start_frame] ?? s.start_frame / sampleFps,
            end_s: s1.times[s.end_frame] ?? s.end_frame / sampleFps,
          },
    ),
    ...(refined ? { refined } : {}),
  };
}

/** `--keyframe-fit` → libvips's fit (how a keyframe is fitted to the video's size). */
export const FIT: Record<KeyframeFit, ResizeFit> = { crop: 'cover', pad: 'contain', stretch: 'fill' };

function sameSize(a: { width: number; height: number }, b: { width: number; height: number }): boolean {
  return a.width === b.width && a.height === b.height;
}
