/**
 * A bound on how long a video may be before anything decodes it (`--max-duration`): a generated
 * clip that runs for hours (a wrong file, a broken encoder) would otherwise be decoded whole. The
 * duration comes from a light ffprobe (container and streams, no packet listing), so a ten-hour
 * file is refused in the time it takes to read its header.
 */
import { z } from 'zod';
import { BadInputError } from '../errors.js';
import { ffprobeJson } from './ffmpeg.js';

/**
 * 120 s: generated videos run from seconds to about a minute; two minutes leaves room for a model
 * that overshoots its target, and bounds a decode to a few thousand frames (3,000 at 25 fps). Cases
 * whose `duration_s` is longer need a higher `--max-duration`.
 */
export const DEFAULT_MAX_DURATION_S = 120;

const Header = z.looseObject({
  format: z.looseObject({ duration: z.string().optional() }).optional(),
  streams: z
    .array(z.looseObject({ codec_type: z.string().optional(), duration: z.string().optional() }))
    .optional(),
});

/** The duration a file's header states (the container's, else its longest video stream's); undefined when it states none. */
export async function headerDuration(file: string): Promise<number | undefined> {
  const h = await ffprobeJson(file, Header);
  const format = Number(h.format?.duration ?? Number.NaN);
  if (Number.isFinite(format) && format > 0) return format;
  const streams = (h.streams ?? [])
    .filter((s) => s.codec_type === 'video')
    .map((s) => Number(s.duration ?? Number.NaN))
    .filter((d) => Number.isFinite(d) && d > 0);
  return streams.length ? Math.max(...streams) : undefined;
}

/**
 * Bad input naming the file when its header says it lasts longer than `maxS` seconds (a file that
 * states no duration passes: its probe and decode judge it). `Infinity` checks nothing.
 */
export async function checkMaxDuration(file: string, maxS: number): Promise<void> {
  if (!Number.isFinite(maxS)) return;
  const d = await headerDuration(file);
  if (d !== undefined && d > maxS)
    throw new BadInputError(
      `lasts ${d.toFixed(1)} s, longer than the ${maxS} s limit (--max-duration): not decoded`,
      { file },
    );
}
