/**
 * Shot segmentation by the judge (the seed's segmentation contract, appendix E.2): the evaluator
 * "first identifies actual edit boundaries, then assigns keyframes to the fixed shots; a continuous
 * take remains one shot; keyframes with no visible response are left unassigned". Frames go at
 * the quality judge's rate (`--quality-fps`, 8 by default) over the whole video, at its width
 * (`--frame-width`, 384) and under its opt-in `--frame-budget` (at most that many frames per video,
 * evenly spread), labelled with their times, then the keyframes by id; the reply is
 * strict JSON, validated (boundaries increasing inside the video, every keyframe once, shots that
 * exist) and cached like every judge call. The boundaries replace the pixel detector's shots for
 * the keyframe-response metrics; placement (t(k)) stays the embedder's.
 * Reply contract: {"boundaries_s":[t…],"assignments":[{"kf_id","shot":i|null}]}.
 */
import { z } from 'zod';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { loadTemplate, render } from '../../judge/prompts.js';
import type { JudgeImage, Verdict } from '../../judge/types.js';
import type { VideoInfo } from '../../media/video-info.js';
import type { FileHashes } from '../../store/file-hashes.js';
import type { LoadedCase } from '../cases/cases.js';
import type { SegmentFn } from '../scan/segmenter.js';
import type { ScanShot } from '../schemas/scan.js';
import { type EvaluationCache, entryKey } from './eval-cache.js';
import { judgeFrames, qualityTimes, sentRate } from './judge-frames.js';

const SEGMENT_PROTOCOL = 'compass-segment';
export interface Segmentation {
  shots: ScanShot[];
  /** The judge's assignment of each keyframe to a shot (null: no visible response). */
  assignments: Record<string, number | null>;
}

/** The reply schema for one video: boundaries inside (0, duration), increasing; every keyframe once. */
export function segmentSchema(kfIds: readonly string[], duration_s: number) {
  const known = new Set(kfIds);
  return z
    .object({
      boundaries_s: z.array(z.number()),
      assignments: z.array(z.object({ kf_id: z.string(), shot: z.number().int().nonnegative().nullable() })),
    })
    .superRefine((v, ctx) => {
      v.boundaries_s.forEach((t, i) => {
        if (!(t > 0 && t < duration_s))
          ctx.addIssue({
            code: 'custom',
            path: ['boundaries_s', i],
            message: `${t} s is not inside the video`,
          });
        else if (i > 0 && !(t > v.boundaries_s[i - 1]!))
          ctx.addIssue({ code: 'custom', path: ['boundaries_s', i], message: 'boundaries must increase' });
      });
      const seen = new Set<string>();
      v.assignments.forEach((a, i) => {
        if (!known.has(a.kf_id))
          ctx.addIssue({ code: 'custom', path: ['assignments', i], message: `unknown keyframe ${a.kf_id}` });
        else if (seen.has(a.kf_id))
          ctx.addIssue({ code: 'custom', path: ['assignments', i], message: `${a.kf_id} assigned twice` });
        seen.add(a.kf_id);
        if (a.shot !== null && a.shot > v.boundaries_s.length)
          ctx.addIssue({
            code: 'custom',
            path: ['assignments', i],
            message: `shot ${a.shot} does not exist`,
          });
      });
      for (const k of known)
        if (!seen.has(k))
          ctx.addIssue({ code: 'custom', path: ['assignments'], message: `${k} not assigned` });
    });
}

function segmentQuestion(
  c: Pick<LoadedCase, 'keyframes'>,
  frames: readonly { image: JudgeImage; time_s: number }[],
  keyframes: readonly JudgeImage[],
  duration_s: number,
  fps: number,
) {
  const t = loadTemplate('compass-segment');
  return {
    prompt: render(t, {
      duration_s: +duration_s.toFixed(3),
      frames: frames.length,
      fps,
      n: keyframes.length,
    }),
    images: [...frames.map((f) => f.image), ...keyframes],
    labels: [...frames.map((f) => `t=${f.time_s.toFixed(3)}s`), ...c.keyframes.map((k) => k.kf_id)],
    protocol: { name: SEGMENT_PROTOCOL, version: t.version },
    schema: segmentSchema(
      c.keyframes.map((k) => k.kf_id),
      duration_s,
    ),
  };
}

/** Shots [start, end) from boundaries inside [0, duration). */
export function shotsFromBoundaries(boundaries: readonly number[], duration_s: number): ScanShot[] {
  const cuts = [0, ...boundaries, duration_s];
  return cuts.slice(1).map((end_s, i) => ({ start_s: cuts[i]!, end_s }));
}

/** Ask the judge; null (with the reason) when its reply did not parse twice. */
export async function judgeSegments(a: {
  judge: Judge;
  encoder: ImageEncoder;
  c: Pick<LoadedCase, 'keyframes'>;
  info: VideoInfo;
  fps?: number;
  frameWidth?: number;
  budget?: number | undefined;
}): Promise<Segmentation | { unresolved: string }> {
  return (await askSegments(a)).result;
}

/** The frame settings of the segmenter: the quality judge's (`--quality-fps`, `--frame-width`, `--frame-budget`). */
export interface SegmentFrames {
  fps?: number;
  frameWidth?: number;
  budget?: number | undefined;
}

async function askSegments(a: Parameters<typeof judgeSegments>[0]) {
  const fps = a.fps ?? 8;
  const { times, effective_fps } = qualityTimes(a.info.duration_s, { fps, budget: a.budget });
  const frames = await judgeFrames(a.info, a.encoder, times, a.frameWidth ?? 384);
  const keyframes = await Promise.all(a.c.keyframes.map((k) => a.encoder.fromFile(k.image)));
  // a video with fewer frames per second than asked sends each once: the prompt says its rate
  const rate = +sentRate(frames.length, times.length, a.info.duration_s, effective_fps).toFixed(2);
  const v = await a.judge.ask(segmentQuestion(a.c, frames, keyframes, a.info.duration_s, rate));
  return { result: segmentationOf(v, a.info.duration_s), key: v.key };
}

function segmentationOf(
  v: Verdict<z.output<ReturnType<typeof segmentSchema>>>,
  duration_s: number,
): Segmentation | { unresolved: string } {
  if (!v.answer) return { unresolved: v.unresolved ?? 'no answer' };
  return {
    shots: shotsFromBoundaries(v.answer.boundaries_s, duration_s),
    assignments: Object.fromEntries(v.answer.assignments.map((x) => [x.kf_id, x.shot])),
  };
}

/**
 * `judgeSegments` through the evaluation cache: a video segmented before under the same inputs
 * (its bytes, the keyframes', the judge, the frame settings; see eval-cache.ts) is answered from
 * the judge cache without being probed or decoded.
 */
async function judgeSegmentsCached(a: {
  judge: Judge;
  encoder: ImageEncoder;
  c: Pick<LoadedCase, 'keyframes'>;
  video: string;
  probeVideo: (f: string) => Promise<VideoInfo>;
  cache: EvaluationCache | undefined;
  frames?: SegmentFrames | undefined;
  hashes?: FileHashes | undefined;
}): Promise<Segmentation | { unresolved: string }> {
  const fps = a.frames?.fps ?? 8;
  const frameWidth = a.frames?.frameWidth ?? 384;
  const budget = a.frames?.budget;
  if (!a.cache) return judgeSegments({ ...a, info: await a.probeVideo(a.video), fps, frameWidth, budget });
  const kfIds = a.c.keyframes.map((k) => k.kf_id);
  const key = await entryKey({
    kind: 'segment',
    video: a.video,
    keyframes: a.c.keyframes,
    protocol: { name: SEGMENT_PROTOCOL, version: loadTemplate('compass-segment').version },
    run: 0,
    judge: a.judge,
    encoder: a.encoder,
    inputs: { kf_ids: kfIds, fps, frame_width: frameWidth, ...(budget !== undefined ? { budget } : {}) },
    hashes: a.hashes,
  });
  const hit = a.cache.get(key, 'segment');
  const v = hit && a.judge.recall([{ key: hit.key, schema: segmentSchema(kfIds, hit.duration_s) }]);
  if (hit && v) {
    a.cache.hits++;
    return segmentationOf(v[0]!, hit.duration_s);
  }
  a.cache.misses++;
  const info = await a.probeVideo(a.video);
  const r = await askSegments({ ...a, info, fps, frameWidth, budget });
  a.cache.put(key, { v: 1, kind: 'segment', duration_s: info.duration_s, key: r.key });
  return r.result;
}

/**
 * The judge as segmenter. A reply that does not parse twice falls back to the pixel detector's
 * shots, and the row's segmenter says so.
 */
export function judgeSegmenter(
  judge: Judge,
  encoder: ImageEncoder,
  probeVideo: (f: string) => Promise<VideoInfo>,
  cache?: EvaluationCache | undefined,
  frames?: SegmentFrames,
): SegmentFn {
  return async (c, video, pixelShots, gate, limits, hashes) => {
    const asker = gate || limits ? judge.withSignal(gate ?? new AbortController().signal, limits) : judge;
    const r = await judgeSegmentsCached({
      judge: asker,
      encoder,
      c,
      video,
      probeVideo,
      cache,
      frames,
      hashes,
    });
    if ('unresolved' in r)
      return {
        shots: [...pixelShots],
        segmenter: `pixel (the judge's segmentation was unresolved: ${r.unresolved})`,
      };
    return { shots: r.shots, segmenter: 'judge', assignments: r.assignments };
  };
}

/** Interior boundaries of a list of shots (every start but the first). */
export const boundariesOf = (shots: readonly ScanShot[]): number[] => shots.slice(1).map((s) => s.start_s);

/**
 * How two segmentations of the same videos agree: on shot counts, and on boundaries matched one
 * to one (in time order) within `tolerance_s` (±2 frames of the video). A video agrees on
 * boundaries when every boundary of each side is matched.
 */
export function segmenterAgreement(
  videos: readonly { a: readonly number[]; b: readonly number[]; tolerance_s: number }[],
): {
  videos: number;
  same_count: number;
  same_boundaries: number;
  matched: number;
  a_total: number;
  b_total: number;
} {
  const out = {
    videos: videos.length,
    same_count: 0,
    same_boundaries: 0,
    matched: 0,
    a_total: 0,
    b_total: 0,
  };
  for (const v of videos) {
    let i = 0;
    let j = 0;
    let m = 0;
    while (i < v.a.length && j < v.b.length) {
      const d = v.a[i]! - v.b[j]!;
      if (Math.abs(d) <= v.tolerance_s + 1e-9) {
        m++;
        i++;
        j++;
      } else if (d < 0) i++;
      else j++;
    }
    if (v.a.length === v.b.length) out.same_count++;
    if (m === v.a.length && m === v.b.length) out.same_boundaries++;
    out.matched += m;
    out.a_total += v.a.length;
    out.b_total += v.b.length;
  }
  return out;
}
