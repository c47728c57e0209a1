/**
 * Read a generated video once against a case's keyframes: every frame (capped at `fpsCap`) is
 * decoded at two sizes by one ffmpeg process — a small copy for the embedder and the shot
 * detector, a larger one kept only while it is some keyframe's best match — and each keyframe's
 * cosine similarity to every sampled frame is recorded. PSNR/SSIM are computed for each
 * keyframe's best frame f*. The result (a `Scan`) is everything the six metrics need for any
 * choice of their constants, so re-scoring never decodes again (see `scan-cache.ts`).
 * Memory: one batch of frames, one kept frame per keyframe, and N floats per sampled frame.
 */
import type { Embedder } from '../../embed/embedder.js';
import { cosine } from '../../embed/embedder.js';
import { BadInputError } from '../../errors.js';
import { loadImage, resizeImage } from '../../media/image.js';
import { compareRaw } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import { DEFAULT_SHOT_OPTIONS, ShotDetector, type ShotOptions } from '../../media/shots.js';
import {
  type FramePair,
  imagesAsFramePairs,
  pairPixelFormat,
  pixelFrameSize,
  probe,
  startFramePairs,
  streamFramePairs,
  type VideoInfo,
} from '../../media/video.js';
import type { Scan, ScanPeak, ScanTimings } from '../results.js';
import { DEFAULT_SCAN_OPTIONS, type ScanOptions } from './options.js';

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
  // the keyframe images load while the video is probed and its first frames decode
  const images = Promise.all(input.keyframes.map((k) => loadImage(k.image)));
  images.catch(() => {}); // awaited below; a failure surfaces there
  // ffmpeg starts beside ffprobe when the embedder's input size does not depend on the video's
  // (its own start then overlaps the probe); the probe decides whether that decoder is used
  const guess = embedder.inputSize(1920, 1080);
  const fixed = sameSize(guess, embedder.inputSize(480, 854));
  const early =
    fixed && o.earlyStart
      ? startFramePairs(input.video, guess, o.pixelSize, signal, o.decodeThreads)
      : undefined;
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
  // keyframes at the pixel frame size (for PSNR/SSIM), then through the frames' own scaling chain;
  // prepared while the first frames decode
  const prepared = (async () => {
    const sized = await Promise.all(
      (await images).map((img) =>
        img.width === fullSize.width && img.height === fullSize.height
          ? img
          : resizeImage(img, fullSize.width, fullSize.height, 'fill'),
      ),
    );
    // the frames' own planar format, so that a keyframe and a frame showing it are resampled alike
    const fmt = pairPixelFormat(info, small);
    return { sized, kvecs: await embedder.embed(await imagesAsFramePairs(sized, small, fmt)) };
  })();
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
  const sims: number[][] = input.keyframes.map(() => []);
  const best = new Array<number>(K).fill(Number.NEGATIVE_INFINITY);
  const bestFrame: ((() => RawImage) | undefined)[] = new Array(K).fill(undefined);
  const bestIndex = new Array<number>(K).fill(0);
  const times: number[] = [];
  let batch: FramePair[] = [];
  let kvecs: Float32Array[] = [];
  const flush = async () => {
    if (!batch.length) return;
    if (!kvecs.length) kvecs = (await prepared).kvecs;
    const vecs = await embedder.embed(batch.map((p) => p.small));
    for (let b = 0; b < batch.length; b++) {
      const pair = batch[b]!;
      const j = times.length;
      times.push(capped && !info.times ? j / sampleFps : pair.time_s);
      shots.push(pair.small, info.times ? pair.time_s : undefined);
      for (let k = 0; k < K; k++) {
        const s = cosine(kvecs[k]!, vecs[b]!);
        sims[k]!.push(s);
        if (s > best[k]!) {
          best[k] = s;
          bestFrame[k] = pair.full;
          bestIndex[k] = j;
        }
      }
    }
    batch = [];
  };
  const req = capped ? { kind: 'rate' as const, rate: o.fpsCap } : { kind: 'all' as const };
  const pairs =
    early?.take(info, req, small) ??
    streamFramePairs(info, req, small, { pixelSize: o.pixelSize, threads: o.decodeThreads }, signal);
  for await (const pair of pairs) {
    batch.push(pair);
    if (batch.length >= o.batch) await flush();
  }
  await flush();
  if (times.length === 0) throw new BadInputError('has no decodable frames', { file: input.video });
  const t1 = performance.now();
  const peaks: ScanPeak[] = [];
  for (let k = 0; k < K; k++) {
    const cmp = compareRaw(bestFrame[k]!(), (await prepared).sized[k]!);
    peaks.push({ frame: bestIndex[k]!, cos: best[k]!, psnr_db: cmp.psnr_db, ssim: cmp.ssim });
  }
  if (timings) {
    timings.decode_embed_s += (t1 - t0) / 1000;
    timings.pixels_s += (performance.now() - t1) / 1000;
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
  };
}

function sameSize(a: { width: number; height: number }, b: { width: number; height: number }): boolean {
  return a.width === b.width && a.height === b.height;
}
