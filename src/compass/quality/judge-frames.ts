/**
 * The frames the judge sees of a video (SPEC §3.3; seed: "all reported MLLM-judged results use
 * 8-FPS sampling"): the sample times over the whole video, the frames at those times encoded for
 * the judge, and the rate it really saw. video.ts (quality) and segment.ts (the judge segmenter)
 * both sample this way.
 */
import type { ImageEncoder } from '../../judge/images.js';
import { type SideFrames, streamFrames } from '../../media/frames.js';
import type { VideoInfo } from '../../media/video-info.js';

/**
 * Sample times over the whole video: (k + ½)/fps; only when an opt-in `budget` is smaller than
 * that count, `budget` evenly spread midpoints (`capped`, at `effective_fps`).
 */
export function qualityTimes(
  duration_s: number,
  o: { fps: number; budget: number | undefined },
): { times: number[]; capped: boolean; effective_fps: number } {
  const n = Math.max(1, Math.floor(duration_s * o.fps));
  if (o.budget === undefined || n <= o.budget)
    return {
      times: Array.from({ length: n }, (_, k) => (k + 0.5) / o.fps),
      capped: false,
      effective_fps: o.fps,
    };
  const b = o.budget;
  return {
    times: Array.from({ length: b }, (_, k) => ((k + 0.5) * duration_s) / b),
    capped: true,
    effective_fps: b / duration_s,
  };
}

/** The frames at these times (those inside the video), encoded for the judge, with their times. */
export async function judgeFrames(
  info: VideoInfo,
  encoder: ImageEncoder,
  times: readonly number[],
  frameWidth: number,
  /** Another request served by the same decode (camera motion's grey frames). */
  side?: SideFrames,
): Promise<{ image: Awaited<ReturnType<ImageEncoder['fromRaw']>>; time_s: number }[]> {
  const usable = times.filter((t) =>
    info.times ? t < info.duration_s : Math.floor(t * info.fps + 1e-6) < info.frames,
  );
  const frames: { image: Awaited<ReturnType<ImageEncoder['fromRaw']>>; time_s: number }[] = [];
  for await (const f of streamFrames(
    info,
    { kind: 'times', times: usable },
    { width: Math.min(frameWidth, info.width) },
    undefined,
    side,
  ))
    frames.push({ image: await encoder.fromRaw(f), time_s: f.time_s });
  return frames;
}

/**
 * The rate the judge really sees: a video with fewer frames per second than asked yields each
 * frame once (duplicated times are dropped), so `sent` frames over its duration; else the plan's.
 */
export function sentRate(sent: number, asked: number, duration_s: number, planned: number): number {
  return sent < asked && duration_s > 0 ? sent / duration_s : planned;
}
