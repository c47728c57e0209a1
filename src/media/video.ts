/**
 * Video probing and frame streaming. Which frame is "the frame at time t": the one whose display
 * interval contains t, i.e. frame ⌊t·fps⌋ for a constant frame rate and, in a variable-rate file,
 * the last frame whose presentation timestamp is ≤ t (times from the packets: see timeline.ts),
 * selected inside ffmpeg by its exact decoded frame number `n` (never by an `fps` filter, whose
 * choice follows rounded timestamps). Frames come as displayed: ffmpeg turns them by the display
 * matrix (a phone's −90°) and `probe` reports the turned size, so scaling never squashes them.
 *
 * Paths taken:
 *  - every request on one file is served by ONE ffmpeg process reading the file once, with a
 *    `select` filter that keeps exactly the planned frame numbers and stops after the last one;
 *  - rate requests (`{kind: 'rate'}`) use an O(1) integer expression inside `select`, exact for
 *    rational frame rates such as 24000/1001;
 *  - several short files (clips) can be read through one ffmpeg process with `streamClips`,
 *    which opens them as separate inputs and concatenates the selected frames, so a process start
 *    (~90 ms) is paid once per batch rather than once per clip.
 * No seeking is used: a few timestamps far apart in a long file still cost one sequential decode.
 */
import { z } from 'zod';
import { BackendError, BadInputError, KfbenchError, UsageError } from '../errors.js';
import { ffmpegFilterRaw, ffmpegLog, ffmpegRawFrames, ffprobeJson } from './ffmpeg.js';
import { luma601, type RawImage } from './raw.js';
import { buildTimeline, displayRotation, frameAtTimeIn, type ProbePacket } from './timeline.js';
import { workingSize, workingSizeExpr } from './working-size.js';
import { planarBytes, yuvMatrix, yuvToLuma601, yuvToRgb } from './yuv.js';

export interface Rational {
  num: number;
  den: number;
}

export interface VideoInfo {
  file: string;
  duration_s: number;
  fps: number;
  fpsRational: Rational;
  frames: number;
  /** Displayed size: the coded size turned by the display matrix (see `rotation`). */
  width: number;
  height: number;
  has_audio: boolean;
  /** Frame durations vary (from the packets' presentation timestamps). */
  vfr: boolean;
  /** frames / duration: the real mean rate (= fps for a constant-rate file). */
  mean_fps: number;
  /** Degrees the display matrix turns the coded frames (0, 90, 180, 270); ffmpeg decodes them turned. */
  rotation: number;
  /** The stream's colour matrix as ffprobe names it (`bt709` …); absent when the file does not say. */
  color_space?: string | undefined;
  /** The decoder's pixel format (`yuv420p` …) as ffprobe names it. */
  pix_fmt?: string | undefined;
  /**
   * ffprobe's index of the stream described here, when it is not the file's first video stream
   * (cover art or a still picture comes first): every decoder maps this one (`videoStream`).
   */
  stream?: number | undefined;
  /**
   * Variable-rate files only: start of each frame's display interval (seconds from the first
   * frame), in decode order. Absent for constant-rate files, whose frame n starts at n/fps.
   */
  times?: Float64Array | undefined;
  /**
   * The file is cut short: its container lists `frames` frames but only `packets` packets of the
   * video stream could be read (the last may be partial). `frames` stays the container's count;
   * decoding the file fails past the cut (`countDecodableFrames` says how far it gets).
   */
  truncated?: { packets: number } | undefined;
}

/** The fields of ffprobe's stream listing that `probe` reads (the rest are kept, unread). */
const ProbeStream = z.looseObject({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  r_frame_rate: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  nb_frames: z.string().optional(),
  nb_read_packets: z.string().optional(),
  duration: z.string().optional(),
  time_base: z.string().optional(),
  has_b_frames: z.number().optional(),
  color_space: z.string().optional(),
  pix_fmt: z.string().optional(),
  index: z.number().optional(),
  disposition: z
    .looseObject({ attached_pic: z.number().optional(), still_image: z.number().optional() })
    .optional(),
  side_data_list: z
    .array(z.looseObject({ side_data_type: z.string().optional(), rotation: z.number().optional() }))
    .optional(),
  tags: z.looseObject({ rotate: z.string().optional() }).optional(),
});
type ProbeStream = z.output<typeof ProbeStream>;

/** ffprobe's listing of a file: streams, format and (for `probe`) the packets of every stream. */
const ProbeListing = z.looseObject({
  streams: z.array(ProbeStream).optional(),
  format: z.looseObject({ duration: z.string().optional(), format_name: z.string().optional() }).optional(),
  packets: z
    .array(
      z.looseObject({
        stream_index: z.number().optional(),
        pts: z.number().optional(),
        duration: z.number().optional(),
        flags: z.string().optional(),
      }),
    )
    .optional(),
});

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

export function parseRational(s: string | undefined): Rational | undefined {
  if (!s) return undefined;
  const m = /^(\d+)(?:\/(\d+))?$/.exec(s.trim());
  if (!m) return undefined;
  const num = Number(m[1]);
  const den = m[2] === undefined ? 1 : Number(m[2]);
  if (!num || !den) return undefined;
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

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
  // the packets of every stream (a stream selection would hide the audio streams too)
  const json = await ffprobeJson(file, ProbeListing, [
    '-show_entries',
    'packet=stream_index,pts,duration,flags',
  ]);
  const streams = json.streams ?? [];
  const videos = streams.filter((s) => s.codec_type === 'video');
  // the first stream that is moving pictures: not an attached picture (cover art), not a still
  // image (a PNG renamed .mp4, a picture stream ahead of the film in a Matroska file)
  const video = videos.find((s) => !isStill(s, json.format?.format_name));
  if (!video) {
    const still = videos[0]?.codec_name;
    throw new BadInputError(
      still ? `has no video stream, only a still picture (${still})` : 'has no video stream',
      { file },
    );
  }
  const packets = (json.packets ?? []).filter((p) => p.stream_index === video.index);
  const has_audio = streams.some((s) => s.codec_type === 'audio');
  const r = parseRational(video.r_frame_rate);
  const avg = parseRational(video.avg_frame_rate);
  let fpsRational = r ?? avg;
  // Some containers report a timebase-like r_frame_rate (e.g. 90000/1); the average is right then.
  if (r && avg && r.num / r.den > 2 * (avg.num / avg.den)) fpsRational = avg;
  if (!fpsRational) throw new BadInputError('has no usable frame rate', { file });
  const fps = fpsRational.num / fpsRational.den;
  const tb = parseRational(video.time_base);
  const timeline = tb ? buildTimeline(packets, tb.num / tb.den, (video.has_b_frames ?? 0) > 0, file) : null;
  let frames = Number(video.nb_frames ?? Number.NaN);
  // a container that lists more frames than the file holds packets for: the file was cut
  const truncated =
    Number.isFinite(frames) && frames > packets.length ? { packets: packets.length } : undefined;
  if (!Number.isFinite(frames) || frames <= 0)
    frames = timeline?.frames ?? packets.filter((p) => !p.flags?.includes('D')).length;
  const duration = Number(video.duration ?? json.format?.duration ?? Number.NaN);
  let duration_s = Number.isFinite(duration) && duration > 0 ? duration : frames / fps;
  if (!frames || frames <= 0) throw new BadInputError('has no video frames', { file });
  if (!video.width || !video.height) throw new BadInputError('has no frame size', { file });
  const rotation = displayRotation(video);
  const turned = rotation % 180 !== 0;
  const width = turned ? video.height : video.width;
  const height = turned ? video.width : video.height;
  let times: Float64Array | undefined;
  let mean_fps = fps;
  if (timeline?.vfr) {
    times = timeline.times;
    frames = timeline.frames;
    duration_s = times[frames - 1]! + timeline.lastDuration_s;
    mean_fps = frames / duration_s;
  }
  return {
    file,
    duration_s,
    fps,
    fpsRational,
    frames,
    width,
    height,
    has_audio,
    vfr: !!times,
    mean_fps,
    rotation,
    ...(video.color_space && video.color_space !== 'unknown' ? { color_space: video.color_space } : {}),
    ...(video.pix_fmt ? { pix_fmt: video.pix_fmt } : {}),
    ...(video !== videos[0] && video.index !== undefined ? { stream: video.index } : {}),
    ...(truncated ? { truncated } : {}),
    times,
  };
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

/** Codecs of still pictures: a stream of one of them is not a video (however ffprobe types it). */
const STILL_CODECS = new Set(['png', 'bmp', 'tiff', 'jpeg2000', 'jpegls', 'qoi', 'ppm', 'pgm', 'pam']);

/**
 * A stream that is a still picture, not a video: flagged so, read by an image demuxer (a picture
 * file renamed `.mp4`), of a still-picture codec, or a one-frame Motion JPEG (cover art).
 */
function isStill(s: ProbeStream, formatName: string | undefined): boolean {
  return (
    !!s.disposition?.attached_pic ||
    !!s.disposition?.still_image ||
    formatName === 'image2' ||
    !!formatName?.endsWith('_pipe') ||
    STILL_CODECS.has(s.codec_name ?? '') ||
    (s.codec_name === 'mjpeg' && Number(s.nb_frames ?? 0) <= 1)
  );
}

/**
 * The ffmpeg stream specifier of the video `probe` described, for input `input` (`0:v:0` unless
 * a picture stream comes first): the stream every decoder reads.
 */
export function videoStream(info: Pick<VideoInfo, 'stream'>, input = 0): string {
  return info.stream !== undefined ? `${input}:${info.stream}` : `${input}:v:0`;
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

/**
 * Probe many files with one ffmpeg process per `batch` files (a process start costs ~90 ms; over
 * LSMDC's 128k clips one ffprobe each would add hours). Exact frame rates come from `showinfo`'s
 * link configuration; size, audio and duration from ffmpeg's input summary. The frame count is
 * estimated as round(duration·fps) (`frames` is exact only from `probe`); readers that select
 * frames verify that what they planned was decoded. A file ffmpeg cannot open fails the batch,
 * which is then probed file by file so that the error names the file. A file whose mean rate
 * differs from its base rate (ffmpeg's `fps` against `tbr`: a variable frame rate) is probed
 * alone with `probe`, which reads its timestamps.
 */
export async function probeMany(files: string[], batch = 64): Promise<VideoInfo[]> {
  const out: VideoInfo[] = [];
  for (let s = 0; s < files.length; s += batch) {
    const group = files.slice(s, s + batch);
    if (group.length === 1) {
      out.push(await probe(group[0]!));
      continue;
    }
    let log: string;
    try {
      const args: string[] = [];
      for (const f of group) args.push('-threads', '1', '-i', f);
      const graph = group.map((_, j) => `[${j}:v:0]trim=end_frame=1,showinfo@in${j}[o${j}]`).join(';');
      args.push('-filter_complex', graph);
      for (let j = 0; j < group.length; j++) args.push('-map', `[o${j}]`);
      args.push('-frames:v', '1', '-f', 'null', '-');
      log = await ffmpegLog(args, group.join(', '));
    } catch {
      for (const f of group) out.push(await probe(f));
      continue;
    }
    const parsed = parseProbeLog(log, group);
    for (let j = 0; j < group.length; j++) out.push(parsed[j] ?? (await probe(group[j]!)));
  }
  return out;
}

function parseProbeLog(log: string, files: string[]): (VideoInfo | undefined)[] {
  const lines = log.split('\n');
  const res: (VideoInfo | undefined)[] = [];
  for (let j = 0; j < files.length; j++) {
    const file = files[j]!;
    const start = lines.findIndex((l) => l.startsWith(`Input #${j},`));
    if (start < 0) {
      res.push(undefined);
      continue;
    }
    let end = lines.findIndex((l, k) => k > start && /^(Input #|Stream mapping|Output #|\[)/.test(l));
    if (end < 0) end = lines.length;
    const block = lines.slice(start, end);
    const dur = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(block.join('\n'));
    const video = block.find((l) => new RegExp(`Stream #${j}:\\d+.*: Video:`).test(l));
    // the displayed size: that of the first decoded frame (ffmpeg turns frames by the display matrix)
    const shown = new RegExp(`\\[showinfo@in${j} @ [^\\]]+\\] n: *0 .* s:(\\d+)x(\\d+) `).exec(log);
    const size = shown ?? (video ? /, (\d+)x(\d+)[ ,]/.exec(video) : null);
    // a mean rate (fps) unlike the base rate (tbr) says the frame rate varies: probe that file alone
    const rates = video ? /, ([\d.]+)(k?) fps, ([\d.]+)(k?) tbr/.exec(video) : null;
    if (rates) {
      const avg = Number(rates[1]) * (rates[2] ? 1000 : 1);
      const base = Number(rates[3]) * (rates[4] ? 1000 : 1);
      if (Math.abs(avg - base) > 0.01 * base) {
        res.push(undefined);
        continue;
      }
    }
    const rot = /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(block.join('\n'));
    const rotation = rot ? displayRotation({ tags: { rotate: rot[1]! } }) : 0;
    const has_audio = block.some((l) => new RegExp(`Stream #${j}:\\d+.*: Audio:`).test(l));
    const cfg = new RegExp(
      `\\[showinfo@in${j} @ [^\\]]+\\] config in time_base: \\d+/\\d+, frame_rate: (\\d+)/(\\d+)`,
    ).exec(log);
    const fpsRational = cfg ? parseRational(`${cfg[1]}/${cfg[2]}`) : undefined;
    if (!dur || !size || !fpsRational) {
      res.push(undefined);
      continue;
    }
    const duration_s = Number(dur[1]) * 3600 + Number(dur[2]) * 60 + Number(dur[3]);
    const fps = fpsRational.num / fpsRational.den;
    res.push({
      file,
      duration_s,
      fps,
      fpsRational,
      frames: Math.max(1, Math.round(duration_s * fps)),
      width: Number(size[1]),
      height: Number(size[2]),
      has_audio,
      vfr: false,
      mean_fps: fps,
      rotation,
    });
  }
  return res;
}

export type FrameRequest =
  | { kind: 'all' }
  /** Samples at the midpoints t_k = (k + 0.5)/rate for every t_k < duration. */
  | { kind: 'rate'; rate: number }
  | { kind: 'times'; times: number[] }
  | { kind: 'indices'; indices: number[] };

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

/** Frame shown at time t (seconds): ⌊t·fps⌋, with a 1e-6-frame tolerance for float noise. */
export function frameAtTime(t: number, fps: Rational): number {
  return Math.floor((t * fps.num) / fps.den + 1e-6);
}

/** The exact frame numbers a rate request selects in a video of the given rate and frame count. */
export function rateIndices(rate: Rational, fps: Rational, frames: number): number[] {
  // frame of sample k: ⌊(2k+1)·b·p / (2·a·q)⌋ with rate a/b and fps p/q — integers only.
  const { num: a, den: b } = rate;
  const { num: p, den: q } = fps;
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const n = Math.floor(((2 * k + 1) * b * p) / (2 * a * q));
    if (n >= frames) break;
    if (out[out.length - 1] !== n) out.push(n);
  }
  return out;
}

function rateSelectExpr(rate: Rational, fps: Rational): string | null {
  const { num: a, den: b } = rate;
  const { num: p, den: q } = fps;
  if (2 * a * q >= 2 * b * p) return null; // rate ≥ fps: every frame
  // frame n is selected iff some sample falls in [n/fps, (n+1)/fps):  mod(bp − 2aqn, 2bp) < 2aq
  return `lt(mod(${b * p}-${2 * a * q}*n\\,${2 * b * p})\\,${2 * a * q})`;
}

function indicesSelectExpr(sorted: number[]): string {
  const terms: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    terms.push(j === i ? `eq(n\\,${sorted[i]})` : `between(n\\,${sorted[i]}\\,${sorted[j]})`);
    i = j + 1;
  }
  return balancedSum(terms);
}

/** Terms a flat sum may hold: ffmpeg's expression parser refuses a sum of more than about 100. */
const FLAT_TERMS = 16;

/**
 * `a+b+…` as a balanced tree of parenthesised halves: ffmpeg's parser nests one level per term of
 * a flat sum and gives up past ~100 ("Error while parsing expression"), while a balanced tree of
 * n terms nests only log2(n / FLAT_TERMS) levels, so any number of scattered frames fits one select.
 */
export function balancedSum(terms: readonly string[]): string {
  if (terms.length <= FLAT_TERMS) return terms.join('+');
  const half = Math.ceil(terms.length / 2);
  return `(${balancedSum(terms.slice(0, half))})+(${balancedSum(terms.slice(half))})`;
}

export interface FramePlan {
  /** Sorted unique frame numbers to decode, or null for every frame. */
  indices: number[] | null;
  /** The `select` expression, or null when every frame is kept. */
  select: string | null;
}

/** Turn a request into exact frame numbers (validated against the video) and a select expression. */
export function planFrames(info: VideoInfo, req: FrameRequest): FramePlan {
  switch (req.kind) {
    case 'all':
      return { indices: null, select: null };
    case 'rate': {
      const rate = rateToRational(req.rate);
      if (info.times) {
        // variable rate: the frame shown at each sample time (k + ½)/rate, by pts
        const indices: number[] = [];
        for (let k = 0; (k + 0.5) / req.rate < info.duration_s; k++) {
          const n = frameAtTimeIn(info.times, (k + 0.5) / req.rate);
          if (indices[indices.length - 1] !== n) indices.push(n);
        }
        if (indices.length === info.frames) return { indices: null, select: null };
        return { indices, select: indices.length ? indicesSelectExpr(indices) : 'eq(0\\,1)' };
      }
      const indices = rateIndices(rate, info.fpsRational, info.frames);
      return { indices, select: rateSelectExpr(rate, info.fpsRational) ?? null };
    }
    case 'times': {
      const indices = req.times.map((t) => {
        if (!Number.isFinite(t) || t < 0)
          throw new BadInputError(`time ${t} is not a time ≥ 0`, { file: info.file });
        const n = frameAt(info, t);
        if (n >= info.frames || (info.times && t >= info.duration_s)) {
          throw new BadInputError(
            `time ${t} s is past the last frame (${info.frames} frames, ${info.duration_s.toFixed(3)} s)`,
            { file: info.file },
          );
        }
        return n;
      });
      const sorted = [...new Set(indices)].sort((x, y) => x - y);
      return { indices: sorted, select: sorted.length ? indicesSelectExpr(sorted) : 'eq(0\\,1)' };
    }
    case 'indices': {
      for (const n of req.indices) {
        if (!Number.isInteger(n) || n < 0 || n >= info.frames) {
          throw new BadInputError(`frame ${n} is outside 0..${info.frames - 1}`, { file: info.file });
        }
      }
      const sorted = [...new Set(req.indices)].sort((x, y) => x - y);
      return { indices: sorted, select: sorted.length ? indicesSelectExpr(sorted) : 'eq(0\\,1)' };
    }
  }
}

export function outputSize(srcW: number, srcH: number, fmt: FrameFormat): { width: number; height: number } {
  const { width, height } = fmt;
  if (width && height) return { width, height };
  if (width) return { width, height: Math.max(1, Math.round((width * srcH) / srcW)) };
  if (height) return { width: Math.max(1, Math.round((height * srcW) / srcH)), height };
  return { width: srcW, height: srcH };
}

function chain(select: string | null, w: number, h: number, pixels: 'rgb' | 'gray'): string {
  const parts: string[] = [];
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
): AsyncGenerator<VideoFrame, void, void> {
  const plan = planFrames(info, req);
  if (plan.indices && plan.indices.length === 0) return;
  const pixels = fmt.pixels ?? 'rgb';
  const channels = pixels === 'gray' ? 1 : 3;
  const { width, height } = outputSize(info.width, info.height, fmt);
  const args: string[] = [];
  if (fmt.threads) args.push('-threads', String(fmt.threads));
  args.push('-i', info.file, '-map', videoStream(info), '-an', '-sn', '-dn');
  args.push('-vf', chain(plan.select, width, height, pixels), '-fps_mode', 'passthrough');
  if (plan.indices) args.push('-frames:v', String(plan.indices.length));
  args.push('-f', 'rawvideo', 'pipe:1');
  let i = 0;
  for await (const data of ffmpegRawFrames({
    args,
    frameBytes: width * height * channels,
    file: info.file,
    signal,
  })) {
    const index = plan.indices ? plan.indices[i]! : i;
    i++;
    yield { index, time_s: frameTime(info, index), width, height, channels, data };
  }
  if (plan.indices && i < plan.indices.length) {
    throw new BadInputError(
      `has fewer frames than its header says: frame ${plan.indices[i]} could not be decoded`,
      { file: info.file },
    );
  }
  if (!plan.indices && i === 0) throw new BadInputError('has no decodable frames', { file: info.file });
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
          `[${videoStream(b.c.info, j)}]${chain(b.plan.select, fmt.width, fmt.height, pixels)}[v${j}]`,
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
 * width and height, frames come at the first clip's size. Without a
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

/**
 * The planar format `streamFramePairs` carries a video's frames in: 4:2:0 only for an 8-bit 4:2:0
 * source (its chroma as decoded, read back as swscale's own yuv420p → rgb24 does) whose small copy
 * has an even height (so the full frame below it starts on a chroma row); any other source keeps
 * full chroma, so nothing is lost on the way. Keyframe images meant to be compared with those
 * frames go through the same format (`imagesAsFramePairs`).
 */
export function pairPixelFormat(
  info: Pick<VideoInfo, 'pix_fmt'>,
  small: { width: number; height: number },
): 'yuv420p' | 'yuv444p' {
  return /^yuvj?420p$/.test(info.pix_fmt ?? '') && small.height % 2 === 0 ? 'yuv420p' : 'yuv444p';
}

/**
 * The size a frame is compared at (PSNR/SSIM): the long side scaled to `pixelSize`, the width
 * rounded down to even (at least 2), the height in proportion; the video's own size when
 * `pixelSize` is 0 or not smaller than its long side (never up). `pixelFrameExpr` is the same rule
 * as ffmpeg `scale` expressions, so that a decoder can start before the video's size is known.
 */
export function pixelFrameSize(
  width: number,
  height: number,
  pixelSize: number,
): { width: number; height: number } {
  const long = Math.max(width, height);
  if (!pixelSize || pixelSize >= long) return { width, height };
  const w0 = Math.round((width * pixelSize) / long);
  const w = Math.max(2, w0 - (w0 % 2));
  return { width: w, height: Math.max(1, Math.round((w * height) / width)) };
}

export function pixelFrameExpr(pixelSize: number): { w: string; h: string } {
  if (!pixelSize) return { w: 'iw', h: 'ih' };
  const P = pixelSize;
  const w0 = `round(iw*${P}/max(iw,ih))`;
  return {
    // quoted: the filtergraph parser keeps the commas inside
    w: `'if(gte(${P},max(iw,ih)),iw,max(2,${w0}-mod(${w0},2)))'`,
    h: `'if(gte(${P},max(iw,ih)),ih,max(1,round(ow*ih/iw)))'`,
  };
}

export interface FramePair {
  /** Frame number in the file, from 0. */
  index: number;
  time_s: number;
  /** The frame at the requested pixel size (the video's own by default), converted on demand. */
  full: () => RawImage;
  /**
   * `luma601(full())` computed straight from the planar frame (no RGB image), on demand and once:
   * what PSNR/SSIM (`compareRaw`) measure of the frame.
   */
  fullLuma: () => RawImage;
  /** The same frame scaled (area averaging, aspect not kept) to `small`'s size. */
  small: RawImage;
  /**
   * When a working size was asked for (`work`): the frame's luma area-scaled to it, limited range,
   * copied out on demand (stage 2 of keyframe matching, media/window.ts).
   */
  work?: () => Uint8Array;
}

/**
 * The filter graph of a frame pair: the frame scaled to the pixel size (`w`/`h`: numbers or
 * `scale` expressions) and a copy of it scaled to `small`, stacked with the small copy on top
 * (so the full frame starts on a chroma row whatever its own height), in planar `pixFmt`.
 */
function pairGraph(
  stream: string,
  select: string | null,
  full: { w: string; h: string },
  small: { width: number; height: number },
  pixFmt: string,
  work?: { w: string; h: string },
): string {
  const pre = select ? `select=${select},` : '';
  // limited range whatever the source (a full-range `yuvj` file is converted here, as it was on
  // its way to RGB), so that yuv.ts reads every frame with one formula
  if (!work)
    return (
      `[${stream}]${pre}scale=w=${full.w}:h=${full.h}:flags=area:out_range=tv,setsar=1,format=${pixFmt},split=2[f][s];` +
      `[s]scale=${small.width}:${small.height}:flags=area[sp];` +
      '[sp][f]xstack=inputs=2:layout=0_0|0_h0:fill=black[out]'
    );
  // a third copy below, scaled from the decoded frame straight to the working size (its luma
  // then is what media/window.ts reads as gray)
  return (
    `[${stream}]${pre}split=2[d][w];` +
    `[d]scale=w=${full.w}:h=${full.h}:flags=area:out_range=tv,setsar=1,format=${pixFmt},split=2[f][s];` +
    `[s]scale=${small.width}:${small.height}:flags=area[sp];` +
    `[w]scale=w=${work.w}:h=${work.h}:flags=area:out_range=tv,setsar=1,format=${pixFmt}[wp];` +
    '[sp][f][wp]xstack=inputs=3:layout=0_0|0_h0|0_h0+h1:fill=black[out]'
  );
}

function pairArgs(file: string, graph: string, pixFmt: string, frames: number | undefined, threads?: number) {
  const args: string[] = [];
  if (threads) args.push('-threads', String(threads));
  args.push('-i', file, '-filter_complex', graph, '-map', '[out]', '-an', '-sn', '-dn');
  args.push('-fps_mode', 'passthrough');
  if (frames !== undefined) args.push('-frames:v', String(frames));
  args.push('-f', 'rawvideo', '-pix_fmt', pixFmt, 'pipe:1');
  return args;
}

/** Bytes of one stacked pair. */
function pairBytes(
  full: { width: number; height: number },
  small: { width: number; height: number },
  sub: 1 | 2,
  work?: { width: number; height: number },
) {
  return planarBytes(
    Math.max(full.width, small.width, work?.width ?? 0),
    small.height + full.height + (work?.height ?? 0),
    sub,
  );
}

/** Stacked raw frames → pairs, checking that the plan's frames all came. */
async function* pairsOf(
  raw: AsyncIterable<Buffer>,
  info: VideoInfo,
  plan: FramePlan,
  full: { width: number; height: number },
  small: { width: number; height: number },
  sub: 1 | 2,
  work?: { width: number; height: number } | 'full',
): AsyncGenerator<FramePair, void, void> {
  const matrix = yuvMatrix(info.color_space);
  // 'full': the working size is the pixel size, whose luma the frame already carries
  const region =
    work === 'full' ? { top: small.height, ...full } : work && { top: small.height + full.height, ...work };
  if (work === 'full') work = undefined;
  const cw = Math.max(full.width, small.width, work?.width ?? 0);
  const stackH = small.height + full.height + (work?.height ?? 0);
  let i = 0;
  for await (const data of raw) {
    const index = plan.indices ? plan.indices[i]! : i;
    i++;
    const frame = { width: cw, height: stackH, sub, data };
    let rgb: RawImage | undefined;
    let luma: RawImage | undefined;
    const pair: FramePair = {
      index,
      time_s: frameTime(info, index),
      full: () => {
        rgb ??= yuvToRgb(frame, small.height, full.width, full.height, matrix);
        return rgb;
      },
      fullLuma: () => {
        luma ??= rgb ? luma601(rgb) : yuvToLuma601(frame, small.height, full.width, full.height, matrix);
        return luma;
      },
      small: yuvToRgb(frame, 0, small.width, small.height, matrix),
    };
    if (region) {
      const { top, width, height } = region;
      // rows as wide as the stack lie one after another: a view, not a copy
      pair.work =
        width === cw
          ? () => data.subarray(top * cw, (top + height) * cw)
          : () => {
              const y = new Uint8Array(width * height);
              for (let r = 0; r < height; r++)
                y.set(data.subarray((top + r) * cw, (top + r) * cw + width), r * width);
              return y;
            };
    }
    yield pair;
  }
  if (plan.indices && i < plan.indices.length) {
    throw new BadInputError(
      `has fewer frames than its header says: frame ${plan.indices[i]} could not be decoded`,
      { file: info.file },
    );
  }
  if (!plan.indices && i === 0) throw new BadInputError('has no decodable frames', { file: info.file });
}

/**
 * Stream the requested frames at two sizes from ONE decode: ffmpeg scales a copy of each frame
 * to `small` and stacks it above the frame at the pixel size (`pixelFrameSize`), in planar YUV
 * (`pairPixelFormat`) — half the bytes of RGB and no colour conversion of the full frame in
 * ffmpeg. The small copy is converted to RGB at once (`yuv.ts`, the stream's colour matrix); the
 * full one only when a reader asks for it (`full()`), so a matcher pays for the few frames it
 * keeps. Frames come in order; memory holds one frame.
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
  const pixFmt = pairPixelFormat(info, small);
  const sub: 1 | 2 = pixFmt === 'yuv420p' ? 2 : 1;
  const work =
    fmt.workSize === undefined || fmt.workSize === 'full'
      ? undefined
      : workingSize(info.width, info.height, fmt.workSize);
  const graph = pairGraph(
    videoStream(info),
    plan.select,
    { w: String(full.width), h: String(full.height) },
    small,
    pixFmt,
    work && { w: String(work.width), h: String(work.height) },
  );
  yield* pairsOf(
    ffmpegRawFrames({
      args: pairArgs(info.file, graph, pixFmt, plan.indices?.length, fmt.threads),
      frameBytes: pairBytes(full, small, sub, work),
      file: info.file,
      signal,
    }),
    info,
    plan,
    full,
    small,
    sub,
    fmt.workSize === 'full' ? 'full' : work,
  );
}

/** A decoder started before the probe returned (`startFramePairs`). */
export interface EarlyFramePairs {
  /**
   * The pairs, when the video turned out as guessed (every frame wanted, 8-bit 4:2:0, the guessed
   * small size); else undefined, and the early decoder is stopped.
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
 * ffprobe's. When the probe says otherwise (a rate above the cap, a format other than 8-bit 4:2:0,
 * another small size) the early decoder is stopped and the caller streams as usual.
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
  const raw = ffmpegRawFrames({
    args: pairArgs(
      file,
      pairGraph(
        '0:v:0',
        null,
        pixelFrameExpr(pixelSize),
        small,
        'yuv420p',
        workSize === undefined || workSize === 'full' ? undefined : workingSizeExpr(workSize),
      ),
      'yuv420p',
      undefined,
      threads,
    ),
    frameBytes: size,
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
      // (it decodes the first video stream: of no use when the video is another)
      const fits =
        info.stream === undefined &&
        !plan.select &&
        !plan.indices &&
        s.width === small.width &&
        s.height === small.height &&
        pairPixelFormat(info, small) === 'yuv420p';
      if (!fits) {
        cancel();
        return undefined;
      }
      const work =
        workSize === undefined || workSize === 'full'
          ? undefined
          : workingSize(info.width, info.height, workSize);
      resolveSize(pairBytes(full, small, 2, work));
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
      return pairsOf(frames, info, plan, full, small, 2, workSize === 'full' ? 'full' : work);
    },
  };
}

/**
 * Put still images through the same scaling chain `streamFramePairs` applies to video frames, in
 * one ffmpeg process: each image (already at the `full` frame size) is converted to the frames'
 * planar format (`pairPixelFormat`; `yuv420p` by default, the chroma subsampling of nearly every
 * encoded video), area-scaled to `small` and read back to RGB by yuv.ts. An image and a frame
 * showing it are then resampled alike — some embedders' features depend on the resampler — and
 * subsampling is no difference either.
 */
export async function imagesAsFramePairs(
  images: readonly RawImage[],
  small: { width: number; height: number },
  pixFmt = 'yuv420p',
): Promise<RawImage[]> {
  if (images.length === 0) return [];
  const { width: fw, height: fh } = images[0]!;
  for (const img of images)
    if (img.width !== fw || img.height !== fh || img.channels !== 3)
      // the caller resizes first: a mismatch here is kfbench's own fault, not the user's
      throw new KfbenchError('INTERNAL', 'imagesAsFramePairs needs RGB images of one size');
  const { width: sw, height: sh } = small;
  const sub: 1 | 2 = sw % 2 === 0 && sh % 2 === 0 && pixFmt === 'yuv420p' ? 2 : 1;
  const outFmt = sub === 2 ? 'yuv420p' : 'yuv444p';
  const frames = await ffmpegFilterRaw({
    args: [
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${fw}x${fh}`, '-r', '1', '-i', 'pipe:0'],
      ...['-vf', `format=${pixFmt},scale=${sw}:${sh}:flags=area:out_range=tv,setsar=1,format=${outFmt}`],
      ...['-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', outFmt, 'pipe:1'],
    ],
    input: images.map((i) => i.data),
    frameBytes: planarBytes(sw, sh, sub),
    file: 'keyframe images',
  });
  if (frames.length !== images.length)
    throw new BackendError(`ffmpeg returned ${frames.length} of ${images.length} keyframe images`);
  // RGB in, so swscale chose BT.601 on the way to YUV; read back with the same matrix
  return frames.map((data) => yuvToRgb({ width: sw, height: sh, sub, data }, 0, sw, sh, 'bt601'));
}
