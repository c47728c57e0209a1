/**
 * Frame times from presentation timestamps. A frame's time is its packet's pts (relative to the
 * first frame shown), read by ffprobe from the container before any decoding — one demux pass,
 * no decode (bench/RESULTS.md "media: frame times": about 0.25 s for 5,000 720p frames, against
 * 6–10 s to decode them), so a request for "the frame at t" can be planned by exact frame number
 * even in a variable-frame-rate file. Frame numbers stay decode-order indices (the n-th frame
 * the decoder outputs, i.e. the n-th smallest pts).
 *
 * Bad input: timestamps that repeat, or that go backwards in a stream without frame reordering
 * (no B-frames), would give some frame a wrong time: they fail naming the file and the frame.
 */
import { BadInputError } from '../errors.js';

export interface Timeline {
  /** Frames in the stream (packets not flagged for discard). */
  frames: number;
  /** Start of each frame's display interval, seconds from the first frame, in display order. */
  times: Float64Array;
  /** Display time of the last frame (its packet duration, or the median frame duration). */
  lastDuration_s: number;
  /** Frame durations vary beyond timestamp rounding (max(2 ticks, 10 % of the median)). */
  vfr: boolean;
}

function median(xs: ArrayLike<number>): number {
  const s = Array.from(xs).sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One video packet as ffprobe lists it (`-show_entries packet=…`); a value it has not is absent. */
export interface ProbePacket {
  pts?: number | undefined;
  duration?: number | undefined;
  /** `K` key frame, `D` discarded by the demuxer, `C` corrupt. */
  flags?: string | undefined;
}

/**
 * Build a timeline from ffprobe's packets of the video stream (decode order). `timeBase` is the
 * stream's time base in seconds; `reorders` says whether the codec reorders frames (B-frames),
 * i.e. whether pts may legitimately go backwards in decode order. Returns null when the file carries no usable pts (raw elementary streams).
 */
export function buildTimeline(
  packets: readonly ProbePacket[],
  timeBase: number,
  reorders: boolean,
  file: string,
): Timeline | null {
  const pts: number[] = [];
  const durations: number[] = [];
  for (const pk of packets) {
    if (pk.flags?.includes('D')) continue; // discarded by the demuxer (edit list): never decoded
    if (typeof pk.pts !== 'number' || !Number.isFinite(pk.pts)) return null;
    pts.push(pk.pts);
    durations.push(pk.duration ?? Number.NaN);
  }
  if (pts.length === 0) return null;
  if (!reorders) {
    for (let i = 1; i < pts.length; i++) {
      if (pts[i]! < pts[i - 1]!)
        throw new BadInputError(
          `timestamps go backwards at frame ${i} (${((pts[i]! - pts[0]!) * timeBase).toFixed(3)} s after ${((pts[i - 1]! - pts[0]!) * timeBase).toFixed(3)} s): re-encode it, e.g. ffmpeg -i IN -fps_mode cfr OUT.mp4`,
          { file },
        );
    }
  }
  const order = pts.map((_, i) => i).sort((a, b) => pts[a]! - pts[b]!);
  const t0 = pts[order[0]!]!;
  const times = new Float64Array(pts.length);
  for (let n = 0; n < order.length; n++) {
    const p = pts[order[n]!]!;
    if (n > 0 && p === pts[order[n - 1]!]!)
      throw new BadInputError(
        `timestamps repeat at frame ${n} (two frames at ${((p - t0) * timeBase).toFixed(3)} s): re-encode it, e.g. ffmpeg -i IN -fps_mode cfr OUT.mp4`,
        { file },
      );
    times[n] = (p - t0) * timeBase;
  }
  const gaps = new Float64Array(Math.max(0, times.length - 1));
  for (let n = 0; n + 1 < times.length; n++) gaps[n] = times[n + 1]! - times[n]!;
  const med = gaps.length ? median(gaps) : 0;
  const tol = Math.max(2 * timeBase, 0.1 * med);
  let vfr = false;
  for (const g of gaps) if (Math.abs(g - med) > tol) vfr = true;
  const lastPacket = durations[order[order.length - 1]!]!;
  const lastDuration_s = Number.isFinite(lastPacket) && lastPacket > 0 ? lastPacket * timeBase : med;
  return { frames: times.length, times, lastDuration_s, vfr };
}

/** The frame shown at time t in a timeline: the last frame starting at or before t (1 µs tolerance). */
export function frameAtTimeIn(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || t < times[0]! - 1e-6) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid]! <= t + 1e-6) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Degrees the display matrix turns a frame (0, 90, 180 or 270, counter-clockwise as ffprobe
 * reports it), from a stream's side data or its legacy `rotate` tag.
 */
export function displayRotation(stream: {
  side_data_list?: { side_data_type?: string | undefined; rotation?: number | undefined }[] | undefined;
  tags?: { rotate?: string | undefined } | undefined;
}): number {
  const sd = stream.side_data_list?.find((d) => d.side_data_type === 'Display Matrix');
  const r = sd?.rotation ?? Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(r)) return 0;
  return (((Math.round(r / 90) * 90) % 360) + 360) % 360;
}
