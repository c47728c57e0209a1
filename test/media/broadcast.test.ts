/**
 * A broadcast capture begun mid-GOP (issue 48 item 3), fixtures from scripts/make-footage-fixtures.sh:
 * footage/broadcast-midgop.m2t is an MPEG-2 transport stream (frame n: a pan over a photograph above
 * a strip of flat grey of luma 16 + 2n) cut in the middle of its second GOP and in the middle of
 * its last picture. ffmpeg drops its first 8 packets' frames (no sequence header before the third
 * GOP's I-frame, source frame 24; the open GOP's leading B-frames), conceals the last picture
 * ("Warning MVs not available"), and exits 0. Before issue 48 every read of it failed: "video is damaged or
 * truncated (Warning MVs not available)".
 */
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { streamFrames } from '../../src/media/frames.js';
import { frameTime, probe } from '../../src/media/probe.js';
import { streamWindowLuma } from '../../src/media/window.js';
import { runCli } from '../support/cli.js';
import { media } from '../support/paths.js';

const MIDGOP = media('footage/broadcast-midgop.m2t');
/** The source frame each decoded frame of the capture shows: 24–99. */
const SOURCE = Array.from({ length: 76 }, (_, k) => 24 + k);
/**
 * Mean luma of an 80x45 frame's bottom 4 rows (the grey strip under the pan): 16 + 2·(source
 * frame), limited range.
 */
const level = (y: Uint8Array, width: number) => {
  let s = 0;
  for (let i = y.length - 4 * width; i < y.length; i++) s += y[i]!;
  return s / (4 * width);
};

describe('a broadcast capture begun mid-GOP', () => {
  it('probe: the frames that decode, at their own times, and what the decoder dropped and concealed', async () => {
    const info = await probe(MIDGOP);
    expect(info.frames).toBe(76);
    expect(info.decoding).toEqual({ dropped: 8, concealed: 1 });
    // frame 0 is source frame 24, shown at 0 s
    expect(frameTime(info, 0)).toBe(0);
    expect(frameTime(info, 10)).toBeCloseTo(0.4, 6);
    expect(info.duration_s).toBeCloseTo((100 - 24) / 25, 6);
    expect(info.vfr).toBe(false);
    // a transport stream that begins at a keyframe is a plain file
    expect((await probe(media('footage/interlaced.m2t'))).decoding).toBeUndefined();
  });

  it('is decoded, not refused: every frame, each the source frame it shows', async () => {
    const info = await probe(MIDGOP);
    const levels: number[] = [];
    for await (const f of streamFrames(info, { kind: 'all' }, { width: 80, height: 45, pixels: 'gray' }))
      levels.push(level(f.data, 80));
    expect(levels).toHaveLength(76);
    // grey comes full range: limited-range luma 16 + 2n is 2n · 255/219; each frame shows its
    // own source frame (the nearest level), not a neighbour
    const shown = levels.map((l) => Math.round((l * 219) / 255 / 2));
    // but frame 74 (source 98), whose data the recording cut short: concealed from its references
    expect(shown.filter((_, k) => k !== 74)).toEqual(SOURCE.filter((_, k) => k !== 74));
    expect([97, 98, 99]).toContain(shown[74]);
  });

  it('a window read by seeking lands on the frames the probe numbered', async () => {
    const info = await probe(MIDGOP);
    const got: number[] = [];
    for await (const f of streamWindowLuma(info, 40, 44, { width: 80, height: 45 })) got.push(level(f.y, 80));
    expect(got).toHaveLength(5);
    // 601 luma of the RGB frame, full range as above
    expect(got.map((l) => Math.round((l * 219) / 255 / 2))).toEqual(SOURCE.slice(40, 45));
  });

  it('a decode that stops short of the frames counted is truncated', async () => {
    const info = await probe(MIDGOP);
    // the file as probed claims one frame more than its stream holds
    const longer = { ...info, frames: info.frames + 1 };
    const err = await (async () => {
      for await (const _ of streamFrames(longer, { kind: 'all' }, { width: 32, height: 18 })) {
        // consume
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadInputError);
    expect(String(err)).toMatch(
      /broadcast-midgop\.m2t: video is truncated: the decoder stopped after 76 of its 77 frames/,
    );
  });

  it('media probe reports the dropped and concealed frames', async () => {
    const r = await runCli(['media', 'probe', '--json', MIDGOP]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ frames: 76, dropped_frames: 8, concealed_frames: 1 });
  });
});
