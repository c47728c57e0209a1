/**
 * Probing a video: its frame rate (exact, as a fraction), frame count, displayed size, audio, colour
 * matrix and, for a variable-rate file, each frame's time from its presentation timestamp. Which
 * frame is "the frame at time t": the one whose display interval contains t, i.e. frame ⌊t·fps⌋ for
 * a constant frame rate and, in a variable-rate file, the last frame whose presentation timestamp
 * is ≤ t (times from the packets: see timeline.ts). Frames come as displayed: ffmpeg turns them by
 * the display matrix (a phone's −90°) and `probe` reports the turned size, so scaling never
 * squashes them. Many short files at once: `probe-many.ts`.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { BackendError, UsageError } from '../errors.js';
import { ffprobeJson } from './ffmpeg.js';
import { ffprobeBinary } from './ffmpeg-processes.js';
import { decodedInfo, startsMidStream } from './mid-stream.js';
import {
  gcd,
  infoFromListing,
  listedSpan,
  listedWhole,
  ProbeListing,
  statedDuration,
} from './probe-listing.js';
import { frameAtTimeIn } from './timeline.js';
import type { Rational, VideoInfo } from './video-info.js';

/** A decimal rate (e.g. 1, 0.5, 8, 23.976) as a reduced fraction with denominator ≤ 1000. */
export function rateToRational(rate: number): Rational {
  if (!(rate > 0) || !Number.isFinite(rate)) throw new UsageError(`a sampling rate must be > 0, got ${rate}`);
  const den = 1000;
  const num = Math.round(rate * den);
  if (num === 0) throw new UsageError(`sampling rate ${rate} is too small`);
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

/**
 * Probe a video: duration, frame rate, frame count, displayed size, audio, and each frame's time
 * from its presentation timestamp (one ffprobe listing the streams and the packets: ≈ 80 bytes of
 * JSON per packet of every stream, some 40 MB for a two-hour film with audio; past 256 MB the
 * file is bad input). Bad or empty files, and timestamps that repeat or go backwards, are bad input.
 */
export async function probe(file: string): Promise<VideoInfo> {
  const key = resolve(file);
  // another ffprobe (FFPROBE_PATH) may read the file otherwise
  const stamp = fileStamp(key, ffprobeBinary());
  const hit = stamp === undefined ? undefined : probeMemo.get(key);
  if (hit && hit.stamp === stamp) {
    // the most recently used last: the first key is the one to forget
    probeMemo.delete(key);
    probeMemo.set(key, hit);
    return { ...(await hit.info), file };
  }
  const info = probeFile(file);
  if (stamp !== undefined) remember(key, stamp, info);
  return { ...(await info), file };
}

/** Keep a probe (pending or done) in the memo; a failed one is dropped, so the next asks again. */
function remember(key: string, stamp: string, info: Promise<VideoInfo>): void {
  probeMemo.delete(key);
  probeMemo.set(key, { stamp, info });
  if (probeMemo.size > PROBE_MEMO_SIZE) probeMemo.delete(probeMemo.keys().next().value!);
  info.catch(() => {
    if (probeMemo.get(key)?.info === info) probeMemo.delete(key);
  });
}

/**
 * The last probes of this thread by absolute path, each valid while the file keeps its identity,
 * size and times (`fileStamp`): a command asks about one video several times (the duration bound,
 * the scan, the judge's frames, camera motion), and each ffprobe start costs ≈ 0.08 CPU-s here —
 * more than probing a short video. A file rewritten in place gets a new change time, so it is
 * probed again.
 */
const probeMemo = new Map<string, { stamp: string; info: Promise<VideoInfo> }>();
const PROBE_MEMO_SIZE = 128;

/** The reader, then device, inode, size and modification/change times (ns) of a file; undefined when it cannot be read. */
function fileStamp(file: string, reader: string): string | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return s.isFile() ? `${reader}:${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : undefined;
  } catch {
    return undefined;
  }
}

/** `probe` without the memo: one ffprobe. */
async function probeFile(file: string): Promise<VideoInfo> {
  const json = await ffprobeJson(file, ProbeListing, PACKET_ENTRIES);
  const info = infoFromListing(file, json);
  // a capture begun mid-stream: the frames are those that decode (one decode counts them)
  return startsMidStream(json, info) ? decodedInfo(info, json) : info;
}

/** The packets of every stream (a stream selection would hide the audio streams too). */
const PACKET_ENTRIES = ['-show_entries', 'packet=stream_index,pts,duration,flags'];

/** Seconds of packets a bounded listing reads past the limit it checks (see `probeWithin`). */
const BOUND_MARGIN_S = 10;

/**
 * The duration a file's header states, from ONE ffprobe that also lists the packets of its first
 * `maxS` + 10 seconds (`-read_intervals`): a file longer than `maxS` is known from its header
 * without reading further, and a shorter one's listing is its whole probe, kept for `probe` (no
 * second ffprobe). The listing counts as whole only when the header states a duration ≤ `maxS` and
 * no video packet lies within 5 s of where the read stopped — a file with packets past the bound
 * (a header that understates) is probed again, unbounded, by `probe`. A listing that fails (a file
 * whose packets cannot be read) falls back to the header alone, which is what `maxS` is checked on.
 */
export async function probeWithin(
  file: string,
  maxS: number,
): Promise<{ stated_s: number | undefined; held_s?: number; whole: boolean }> {
  const bound = maxS + BOUND_MARGIN_S;
  let json: z.output<typeof ProbeListing>;
  try {
    json = await ffprobeJson(file, ProbeListing, [...PACKET_ENTRIES, '-read_intervals', `%+${bound}`]);
  } catch {
    return { stated_s: statedDuration(await ffprobeJson(file, ProbeListing)), whole: false };
  }
  const stated_s = statedDuration(json);
  if (stated_s !== undefined && stated_s > maxS) return { stated_s, whole: false };
  // the frames' own timestamps: a header that understates (or states nothing) does not decide
  const held_s = listedSpan(json);
  if (held_s !== undefined && held_s > maxS) return { stated_s, held_s, whole: false };
  if (stated_s === undefined) return { stated_s, whole: false };
  let info: VideoInfo;
  try {
    info = infoFromListing(file, json);
  } catch {
    // the file's faults are `probe`'s to report, unbounded
    return { stated_s, whole: false };
  }
  // a stream begun mid-GOP is `probe`'s to count by decoding it
  const whole = listedWhole(json, info, bound - BOUND_MARGIN_S / 2) && !startsMidStream(json, info);
  const key = resolve(file);
  const stamp = fileStamp(key, ffprobeBinary());
  if (whole && stamp !== undefined) remember(key, stamp, Promise.resolve(info));
  return { stated_s, whole };
}

/** ffprobe's count of the frames of one stream it decoded (`-count_frames`). */
const FrameCount = z.looseObject({
  streams: z.array(z.looseObject({ nb_read_frames: z.string().optional() })),
});

/**
 * How many frames of the video `probe` described actually decode (ffprobe decodes the whole
 * stream: a full decode, for a truncated file, where the container's count is wrong).
 */
export async function countDecodableFrames(info: Pick<VideoInfo, 'file' | 'stream'>): Promise<number> {
  const spec = info.stream === undefined ? 'v:0' : String(info.stream);
  const r = await ffprobeJson(info.file, FrameCount, ['-count_frames', '-select_streams', spec]);
  const n = Number(r.streams[0]?.nb_read_frames ?? Number.NaN);
  if (!Number.isInteger(n) || n < 0)
    throw new BackendError(`ffprobe did not count the decoded frames of ${info.file}`);
  return n;
}

/**
 * A video as `media probe` reports it: `probe`, and for a truncated file the frames that actually
 * decode (`decodable_frames`, counted by a full decode, only then).
 */
export async function probeReport(file: string): Promise<VideoInfo & { decodable_frames?: number }> {
  const info = await probe(file);
  return info.truncated ? { ...info, decodable_frames: await countDecodableFrames(info) } : info;
}

/**
 * The ffmpeg stream specifier of the video `probe` described, for input `input` (`0:v:0` unless
 * a picture stream comes first): the stream every decoder reads.
 */
export function videoStream(info: Pick<VideoInfo, 'stream'>, input = 0): string {
  return info.stream !== undefined ? `${input}:${info.stream}` : `${input}:v:0`;
}

/**
 * The filters every reader puts first on the decoded frames, before it selects or scales any
 * (ending in a comma, or empty): an interlaced video is deinterlaced one frame per frame (bwdif,
 * `deint=interlaced`: frames flagged interlaced only), so that its frames are those of its
 * deinterlaced twin, not two fields woven together (issue 48 item 4).
 */
export function decodeChain(info: Pick<VideoInfo, 'interlaced'>): string {
  return info.interlaced ? 'bwdif=mode=send_frame:parity=auto:deint=interlaced,' : '';
}

/** Start of frame n's display interval, seconds (its pts in a variable-rate file, else n/fps). */
export function frameTime(info: VideoInfo, n: number): number {
  if (info.times) return info.times[n]!;
  return (n * info.fpsRational.den) / info.fpsRational.num;
}

/** The frame shown at time t: by pts in a variable-rate file, else ⌊t·fps⌋. */
export function frameAt(info: VideoInfo, t: number): number {
  return info.times ? frameAtTimeIn(info.times, t) : frameAtTime(t, info.fpsRational);
}

/** Frame shown at time t (seconds): ⌊t·fps⌋, with a 1e-6-frame tolerance for float noise. */
export function frameAtTime(t: number, fps: Rational): number {
  return Math.floor((t * fps.num) / fps.den + 1e-6);
}
