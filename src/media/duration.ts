/**
 * A bound on how long a video may be before anything decodes it (`--max-duration`): a generated
 * clip that runs for hours (a wrong file, a broken encoder) would otherwise be decoded whole. The
 * duration comes from the header, read by an ffprobe that lists packets only up to the limit
 * (`probeWithin`), so a ten-hour file is refused in the time it takes to read its header and a
 * few minutes of packets; for a file within the limit that listing is its probe, kept for the
 * scan that follows (one ffprobe per video, not two).
 */
import { BadInputError } from '../errors.js';
import { probeWithin } from './probe.js';

/**
 * 120 s: generated videos run from seconds to about a minute; two minutes leaves room for a model
 * that overshoots its target, and bounds a decode to a few thousand frames (3,000 at 25 fps). Cases
 * whose `duration_s` is longer need a higher `--max-duration`.
 */
export const DEFAULT_MAX_DURATION_S = 120;

/**
 * Bad input naming the file when its header says it lasts longer than `maxS` seconds, or when its
 * frames' own timestamps run past `maxS` whatever the header says (a header of 10 s on 1,800 s of
 * frames was decoded whole; issue 46 item 12): the listing that reads the header reads packets up
 * to `maxS` + 10 s only, so such a file is refused before any frame is decoded. `Infinity` checks
 * nothing.
 */
export async function checkMaxDuration(file: string, maxS: number): Promise<void> {
  if (!Number.isFinite(maxS)) return;
  const r = await probeWithin(file, maxS);
  refuseLonger(file, r.stated_s, maxS);
  if (r.held_s !== undefined && r.held_s > maxS)
    throw new BadInputError(
      `its frames run past the ${maxS} s limit (--max-duration) by their own timestamps (${r.held_s.toFixed(1)} s read, ${r.stated_s === undefined ? 'no duration in its header' : `its header says ${r.stated_s.toFixed(1)} s`}): not decoded`,
      { file },
    );
}

/**
 * The same refusal for a duration known otherwise (a scan cache's record of the video): bad input
 * naming the file when `seconds` is past `maxS`; an unknown duration passes.
 */
export function refuseLonger(file: string, seconds: number | undefined, maxS: number): void {
  if (seconds !== undefined && seconds > maxS)
    throw new BadInputError(
      `lasts ${seconds.toFixed(1)} s, longer than the ${maxS} s limit (--max-duration): not decoded`,
      { file },
    );
}
