/**
 * A video that begins in the middle of its stream: a capture of a broadcast started mid-GOP (a
 * transport stream cut at any 188-byte packet). Its first packets reference pictures the file does
 * not hold, so a decoder cannot start before the next keyframe: ffmpeg drops those frames (and an
 * open GOP's leading B-frames after it), prints errors, and exits 0, and every player shows the file
 * from that keyframe. Such warnings are not damage (issue 48 item 3): the video is the frames that
 * decode. `probe` then counts them by decoding the stream once (only for such a file: its first
 * packet is not a keyframe), and frame n is the n-th frame the decoder outputs, at its own
 * timestamp; how many frames were dropped or concealed is reported (`VideoInfo.decoding`). A decode
 * that stops short of the frames counted so is truncated (the readers check the count).
 */
import type { z } from 'zod';
import { BadInputError } from '../errors.js';
import { ffprobeDecodedFrames } from './ffmpeg.js';
import { type ProbeListing, parseRational } from './probe-listing.js';
import { buildTimeline } from './timeline.js';
import type { VideoInfo } from './video-info.js';

/** The first packet of the probed video stream (decode order) is not a keyframe. */
export function startsMidStream(json: z.output<typeof ProbeListing>, info: VideoInfo): boolean {
  const video = (json.streams ?? []).filter((s) => s.codec_type === 'video');
  const index = info.stream ?? video[0]?.index;
  const first = (json.packets ?? []).find((p) => p.stream_index === index);
  return first !== undefined && !first.flags?.includes('K');
}

/**
 * A decoder's frame-level concealment report, once per damaged frame (MPEG-1/2's error resilience
 * without motion vectors, H.264's and others' concealment line).
 */
const CONCEALED = /Warning MVs not available|concealing \d+ DC/g;

/**
 * `info` (from the packet listing) made the frames that decode: one decode of the stream; times
 * from the decoded frames' timestamps (frame 0 at 0 s); `decoding` says what was dropped
 * (packets without a frame) and concealed. Readers decode such a file from its start, never
 * seeking in it (window.ts): a transport stream's seek can land past the frame asked for.
 */
export async function decodedInfo(info: VideoInfo, json: z.output<typeof ProbeListing>): Promise<VideoInfo> {
  const streams = json.streams ?? [];
  const video =
    info.stream !== undefined
      ? streams.find((s) => s.index === info.stream)
      : streams.find((s) => s.codec_type === 'video');
  const tb = parseRational(video?.time_base);
  if (!video || video.index === undefined || !tb)
    throw new BadInputError('has no video time base to place its frames', { file: info.file });
  const { pts, stderr } = await ffprobeDecodedFrames(info.file, String(video.index));
  if (pts.length === 0) throw new BadInputError('has no decodable frames', { file: info.file });
  if (pts.some((p) => !Number.isFinite(p)))
    throw new BadInputError('has decoded frames without a timestamp', { file: info.file });
  const packets = (json.packets ?? []).filter(
    (p) => p.stream_index === video.index && !p.flags?.includes('D'),
  ).length;
  const base = tb.num / tb.den;
  // the decoder's output order is display order: timestamps only go forwards
  const timeline = buildTimeline(
    pts.map((p) => ({ pts: p })),
    base,
    false,
    info.file,
  )!;
  const decoding = {
    dropped: Math.max(0, packets - pts.length),
    concealed: stderr.match(CONCEALED)?.length ?? 0,
  };
  const frames = timeline.frames;
  if (timeline.vfr) {
    const duration_s = timeline.times[frames - 1]! + timeline.lastDuration_s;
    return {
      ...info,
      frames,
      times: timeline.times,
      vfr: true,
      duration_s,
      mean_fps: frames / duration_s,
      decoding,
    };
  }
  return {
    ...info,
    frames,
    times: undefined,
    vfr: false,
    duration_s: frames / info.fps,
    mean_fps: info.fps,
    decoding,
  };
}
