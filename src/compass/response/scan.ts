/**
 * Read a generated video once against a case's keyframes: every frame (capped at `fpsCap`) is
 * decoded at two sizes by one ffmpeg process — a small copy for the embedder and the shot
 * detector, a larger one kept only while it is some keyframe's best match — and each keyframe's
 * cosine similarity to every sampled frame is recorded. PSNR/SSIM are computed for each
 * keyframe's best sampled frame. That is stage 1; stage 2 (`stage2.ts`) then reads each matched
 * keyframe's window at the video's own rate (seeking to it) and finds its frame in pixels. The
 * result (a `Scan`) is everything the six metrics need for any choice of their constants (stage 2
 * for the γ and hold ε it was made with), so re-scoring never decodes again (see `scan-cache.ts`).
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
import { type FramePair, pixelFrameSize, startFramePairs, streamFramePairs } from '../../media/pairs.js';
import { probe, type VideoInfo } from '../../media/probe.js';
import { compareRaw, type ImageComparison } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import { DEFAULT_SHOT_OPTIONS, ShotDetector, type ShotOptions } from '../../media/shots.js';
import { workingSize } from '../../media/window.js';
import type { Scan, ScanPeak, ScanTimings } from '../results.js';
import { holdsFiles, keyframeFiles, prepareKeyframes } from './keyframe-prep.js';
import { DEFAULT_SCAN_OPTIONS, type KeyframeFit, type ScanOptions } from './options.js';
import { refine, StageTwoAlong } from './stage2.js';

export type { Scan, ScanPeak, ScanShot, ScanTimings } from '../results.js';

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
  // ffmpeg starts beside ffprobe when the embedder's input size does not depend on the video's
  // (its own start then overlaps the probe); the probe decides whether that decoder is used
  const guess = embedder.inputSize(1920, 1080);
  const fixed = sameSize(guess, embedder.inputSize(480, 854));
  const early =
    fixed && o.earlyStart
      ? startFramePairs(
          input.video,
          guess,
          o.pixelSize,
          signal,
          o.decodeThreads,
          o.refine ? (o.matchSize === o.pixelSize ? 'full' : o.matchSize) : undefined,
        )
      : undefined;
  const files = await identity;
  const images = holdsFiles(embedder, files) ? undefined : Promise.all(paths.map((f) => loadImage(f)));
  images?.catch(() => {}); // awaited below; a failure surfaces there
  let info: VideoInfo;
  try {
    info = await probe(input.video);
    // the response is placed in time: a "video" of one frame (a picture) has no duration to score
    if (info.frames < 2)
      throw new BadInputError(`has ${info.frames} frame: a still picture, not a video`, {
        file: input.video,
      });
  } catch (e) {
    early?.cancel();
    throw e;
  }
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
  // keyframes at the pixel frame size (for PSNR/SSIM), then through the frames' own scaling chain;
  // prepared while the first frames decode
  const prepared = prepareKeyframes(
    embedder,
    files,
    {
      images: paths,
      info,
      fit: FIT[o.keyframeFit],
      full: fullSize,
      small,
      work: !o.refine ? undefined : workIsFull ? 'full' : work,
    },
    images,
  );
  prepared.catch(() => {}); // awaited below; a failure surfaces there
  const lastDuration = info.times ? info.duration_s - info.times[info.times.length - 1]! : undefined;
  let shots: ShotDetector;
  try {
    shots = new ShotDetector(sampleFps, { ...DEFAULT_SHOT_OPTIONS, ...shotOpts }, lastDuration);
  } catch (e) {
    early?.cancel(); // no decoder left waiting to be read
    throw e;
  }
  const K = input.keyframes.length;
  const gamma = o.gamma ?? embedder.defaultThreshold ?? 0.8;
  // stage 2 rides along stage 1 — which then reads every frame, sampling in kfbench when the video
  // is above the cap (up to twice the cap, constant rate) — or else seeks to the windows afterwards
  const rideAlong = o.refine && (!capped || (!info.times && rate <= 2 * o.fpsCap));
  const sampled =
    rideAlong && capped
      ? new Set(planFrames(info, { kind: 'rate', rate: o.fpsCap }).indices ?? [])
      : undefined;
  let along: StageTwoAlong | undefined;
  const sims: number[][] = input.keyframes.map(() => []);
  const best = new Array<number>(K).fill(Number.NEGATIVE_INFINITY);
  const bestFrame: ((() => RawImage) | undefined)[] = new Array(K).fill(undefined);
  const bestIndex = new Array<number>(K).fill(0);
  const times: number[] = [];
  /** Each sampled frame's index among the samples, by its frame number in the file. */
  const sampledAt = new Map<number, number>();
  let batch: FramePair[] = [];
  let kvecs: Float32Array[] = [];
  const flush = async () => {
    if (!batch.length) return;
    if (!kvecs.length) {
      const p = await prepared;
      kvecs = p.kvecs;
      if (rideAlong) along = new StageTwoAlong(p.luma, gamma, o.holdTolerance_db, o.holdMatch_db);
    }
    const read = batch;
    batch = [];
    const ones = sampled ? read.filter((p) => sampled.has(p.index)) : read;
    const vecs = ones.length ? await embedder.embed(ones.map((p) => p.small)) : [];
    const row = new Array<number>(K);
    let b = -1;
    for (const pair of read) {
      if (sampled && !sampled.has(pair.index)) {
        along?.between(pair);
        continue;
      }
      b++;
      const j = times.length;
      sampledAt.set(pair.index, j);
      times.push(capped && !info.times ? j / sampleFps : pair.time_s);
      shots.push(pair.small, info.times ? pair.time_s : undefined);
      for (let k = 0; k < K; k++) {
        const s = cosine(kvecs[k]!, vecs[b]!);
        sims[k]!.push(s);
        row[k] = s;
        if (s > best[k]!) {
          best[k] = s;
          bestFrame[k] = pair.fullLuma;
          bestIndex[k] = j;
        }
      }
      along?.push(j, pair, row);
    }
  };
  const req = capped && !sampled ? { kind: 'rate' as const, rate: o.fpsCap } : { kind: 'all' as const };
  const pairs =
    early?.take(info, req, small) ??
    streamFramePairs(
      info,
      req,
      small,
      {
        pixelSize: o.pixelSize,
        threads: o.decodeThreads,
        workSize: rideAlong ? (workIsFull ? 'full' : o.matchSize) : undefined,
      },
      signal,
    );
  let inBatch = 0;
  for await (const pair of pairs) {
    batch.push(pair);
    if (!sampled || sampled.has(pair.index)) inBatch++;
    if (inBatch >= o.batch) {
      inBatch = 0;
      await flush();
    }
  }
  await flush();
  if (times.length === 0) throw new BadInputError('has no decodable frames', { file: input.video });
  const t1 = performance.now();
  const peaks: ScanPeak[] = [];
  const { pixels, luma, reference } = await prepared;
  // each keyframe's pixel score on a frame, once: stage 2's f*(k) is often stage 1's best frame
  const scored = input.keyframes.map(() => new Map<() => RawImage, ImageComparison>());
  const compare = (k: number, frame: () => RawImage) => {
    let cmp = scored[k]!.get(frame);
    if (!cmp) {
      cmp = compareRaw(frame(), pixels[k]!, reference(k));
      scored[k]!.set(frame, cmp);
    }
    return cmp;
  };
  for (let k = 0; k < K; k++) {
    const cmp = compare(k, bestFrame[k]!);
    peaks.push({ frame: bestIndex[k]!, cos: best[k]!, psnr_db: cmp.psnr_db, ssim: cmp.ssim });
  }
  const t2 = performance.now();
  const staged = along
    ? along.finish(sims, o.holdEps, pixels, rate, lastDuration, compare)
    : o.refine
      ? await refine({
          info,
          times,
          sims,
          sampleFps,
          vfr: !!info.times,
          gamma,
          holdEps: o.holdEps,
          luma,
          pixels,
          reference,
          size: work,
          full: fullSize,
          holdTolerance_db: o.holdTolerance_db,
          holdMatch_db: o.holdMatch_db,
          threads: o.decodeThreads,
          signal,
        })
      : undefined;
  // f*(k)'s own cosine (the KFS frame, fidelity.ts): stage 1's when it sampled that frame; else,
  // when stage 2 rode along, f*(k) embedded now (one batch); else (windows read by seeking) none
  const unsampled = (staged ?? []).flatMap((r, k) =>
    r && !sampledAt.has(r.frame) && along?.small[k] ? [k] : [],
  );
  const extra = unsampled.length ? await embedder.embed(unsampled.map((k) => along!.small[k]!)) : [];
  const refined = staged?.map((r, k) => {
    if (!r) return null;
    const j = sampledAt.get(r.frame);
    const e = unsampled.indexOf(k);
    const cos = j !== undefined ? sims[k]![j]! : e >= 0 ? cosine(kvecs[k]!, extra[e]!) : null;
    return { ...r, cos };
  });
  if (timings) {
    timings.decode_embed_s += (t1 - t0) / 1000;
    timings.pixels_s += (t2 - t1) / 1000;
    timings.stage2_s = (timings.stage2_s ?? 0) + (performance.now() - t2) / 1000;
  }
  const detected = shots.finish();
  return {
    video: {
      width: info.width,
      height: info.height,
      fps: info.fps,
      frames: info.frames,
      duration_s: info.duration_s,
      ...(info.times ? { vfr: true } : {}),
      ...(info.decoding
        ? { decoding: { dropped: info.decoding.dropped, concealed: info.decoding.concealed } }
        : {}),
    },
    sample_fps: sampleFps,
    times,
    sims,
    peaks,
    shots: detected.shots.map((s) =>
      info.times
        ? { start_s: s.start_s, end_s: s.end_s }
        : { start_s: s.start_frame / sampleFps, end_s: s.end_frame / sampleFps },
    ),
    ...(refined ? { refined } : {}),
  };
}

/** `--keyframe-fit` → libvips's fit. */
const FIT: Record<KeyframeFit, ResizeFit> = { crop: 'cover', pad: 'contain', stretch: 'fill' };

function sameSize(a: { width: number; height: number }, b: { width: number; height: number }): boolean {
  return a.width === b.width && a.height === b.height;
}
