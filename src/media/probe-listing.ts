/**
 * ffprobe's listing of a file read into a `VideoInfo` (probe.ts runs ffprobe; this file only reads
 * what it printed): which stream is the video (not cover art, not a still picture), its exact rate,
 * frame count, displayed size and, for a variable-rate file, its frame times; the duration the
 * header states; whether a listing bounded in time holds every packet of the video.
 */
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { buildTimeline, displayRotation } from './timeline.js';
import type { Rational, VideoInfo } from './video-info.js';

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
  field_order: z.string().optional(),
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
export const ProbeListing = z.looseObject({
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

export function gcd(a: number, b: number): number {
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

/** The duration a listing's header states: the container's, else its longest video stream's. */
export function statedDuration(
  h: Pick<z.output<typeof ProbeListing>, 'format' | 'streams'>,
): number | undefined {
  const format = Number(h.format?.duration ?? Number.NaN);
  if (Number.isFinite(format) && format > 0) return format;
  const streams = (h.streams ?? [])
    .filter((s) => s.codec_type === 'video')
    .map((s) => Number(s.duration ?? Number.NaN))
    .filter((d) => Number.isFinite(d) && d > 0);
  return streams.length ? Math.max(...streams) : undefined;
}

/**
 * How far a listing's video packets run by their own timestamps: the last video packet's time less
 * the earliest packet's of any stream (where a bounded read starts counting); undefined when no
 * video packet has a timestamp. What a file holds, whatever its header says.
 */
export function listedSpan(json: z.output<typeof ProbeListing>): number | undefined {
  const base = new Map<number, number>();
  const video = new Set<number>();
  for (const s of json.streams ?? []) {
    const tb = parseRational(s.time_base);
    if (s.index !== undefined && tb) base.set(s.index, tb.num / tb.den);
    if (s.index !== undefined && s.codec_type === 'video') video.add(s.index);
  }
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const p of json.packets ?? []) {
    const tb = p.stream_index === undefined ? undefined : base.get(p.stream_index);
    if (p.pts === undefined || tb === undefined) continue;
    const t = p.pts * tb;
    if (t < first) first = t;
    if (video.has(p.stream_index!) && t > last) last = t;
  }
  return Number.isFinite(last) && Number.isFinite(first) ? last - first : undefined;
}

/**
 * Every packet of the probed video stream is in a listing bounded in time: each has a timestamp,
 * and the last lies before `limit_s` seconds after the earliest packet of any stream (where the
 * bounded read starts counting).
 */
export function listedWhole(json: z.output<typeof ProbeListing>, info: VideoInfo, limit_s: number): boolean {
  const base = new Map<number, number>();
  for (const s of json.streams ?? []) {
    const tb = parseRational(s.time_base);
    if (s.index !== undefined && tb) base.set(s.index, tb.num / tb.den);
  }
  const video = (json.streams ?? []).find(
    (s) => s.codec_type === 'video' && (info.stream === undefined || s.index === info.stream),
  );
  if (video?.index === undefined) return false;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const p of json.packets ?? []) {
    const tb = p.stream_index === undefined ? undefined : base.get(p.stream_index);
    if (p.pts === undefined || tb === undefined) {
      if (p.stream_index === video.index) return false;
      continue;
    }
    const t = p.pts * tb;
    if (t < first) first = t;
    if (p.stream_index === video.index && t > last) last = t;
  }
  return Number.isFinite(last) && last - first < limit_s;
}

/** The `VideoInfo` of a file from ffprobe's listing of its streams, format and packets. */
export function infoFromListing(file: string, json: z.output<typeof ProbeListing>): VideoInfo {
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
    // coded as fields (ffprobe: tt, bb, tb, bt): every reader deinterlaces it (`decodeChain`)
    ...(/^(tt|bb|tb|bt)$/.test(video.field_order ?? '') ? { interlaced: true } : {}),
    ...(video !== videos[0] && video.index !== undefined ? { stream: video.index } : {}),
    ...(truncated ? { truncated } : {}),
    ...(packets.some((p) => p.pts === undefined) ? { untimed: true as const } : {}),
    times,
  };
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
