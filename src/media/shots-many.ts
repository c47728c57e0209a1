/**
 * Shot segmentation of many short files (a film's clips): the clips are decoded together, a batch
 * of them per ffmpeg (`streamClips`), each into its own detector — the same shots as `detectShots`
 * on each, without a process start per clip (a start costs more than decoding a short clip).
 */
import { streamClips } from './frames.js';
import type { ShotOptions, ShotResult } from './shot-options.js';
import { detectShots, SHOT_DECODE_THREADS, ShotDetector } from './shots.js';
import type { VideoInfo } from './video-info.js';

/** `detectShots` of each video, in order; a batch that does not decode whole is redone video by video. */
export async function detectShotsMany(
  infos: readonly VideoInfo[],
  options: Partial<ShotOptions> = {},
  signal?: AbortSignal,
): Promise<ShotResult[]> {
  const detectors = infos.map((info) => {
    const last = info.times ? info.duration_s - info.times[info.times.length - 1]! : undefined;
    return new ShotDetector(info.mean_fps, options, last);
  });
  try {
    // the header's frame count, each one asked by number: a file that holds fewer fails the batch
    for await (const f of streamClips(
      infos.map((info) => ({ info, indices: Array.from({ length: info.frames }, (_, n) => n) })),
      { width: 64, height: 36, pixels: 'rgb', threads: SHOT_DECODE_THREADS },
      signal ? { signal } : {},
    ))
      detectors[f.clip]!.push(f, infos[f.clip]!.times ? f.time_s : undefined);
  } catch (e) {
    if (signal?.aborted) throw e;
    // a file that decodes fewer frames than its header lists: each alone, as detectShots reads it
    const out: ShotResult[] = [];
    for (const info of infos) out.push(await detectShots(info, options, signal));
    return out;
  }
  return detectors.map((d) => d.finish());
}
