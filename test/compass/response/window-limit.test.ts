/**
 * Stage 2's one limit (issue 47 item 3): a window keeps at most `STAGE2_MAX_KEPT` frames, on both
 * ways of reading stage 2, and a refinement that reached it records the frames it dropped
 * (`dropped`) instead of cutting them silently. Before, only the riding-along path had the cap
 * (silent) and the seeking path kept every window whole.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { STAGE2_MAX_KEPT, WindowMatch } from '../../../src/compass/scan/window-match.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ffmpegRun } from '../../../src/media/ffmpeg.js';
import { tempDir } from '../../support/paths.js';

const luma = (v: number) => new Uint8Array(16).fill(v);

describe('WindowMatch, the one rule placing f*(k) in a window', () => {
  it('picks the least-MSE frame (ties: the earliest) and holds the frames matching as well', () => {
    const m = new WindowMatch<{ index: number; y: Uint8Array }, string>(luma(100), null, 2);
    [90, 100, 100, 120].forEach((v, i) => {
      m.add({ index: 10 + i, y: luma(v) }, `f${10 + i}`);
    });
    const r = m.result();
    expect(r?.best.index).toBe(11);
    expect(r?.extra).toBe('f11');
    expect(r?.hold.map((f) => f.index)).toEqual([11, 12]);
    expect(r?.window.map((f) => f.index)).toEqual([10, 13]);
    expect(r?.dropped).toBe(0);
  });

  it(`keeps ${STAGE2_MAX_KEPT} frames at most and counts the frames it dropped`, () => {
    // f*(k) late: the earliest frames go
    const late = new WindowMatch<{ index: number; y: Uint8Array }, number>(luma(100), null, 2);
    // each frame closer to the keyframe up to frame 640, then far
    const level = (i: number) => (i === 640 ? 100 : i < 640 ? Math.floor((99 * i) / 640) : 0);
    for (let i = 0; i < STAGE2_MAX_KEPT + 50; i++) late.add({ index: i, y: luma(level(i)) }, i);
    const a = late.result();
    expect(a?.best.index).toBe(640);
    expect(a?.window.map((f) => f.index)).toEqual([0, STAGE2_MAX_KEPT + 49]);
    expect(a?.hold.map((f) => f.index)).toEqual([640, 640]);
    expect(a?.dropped).toBe(50);
    // f*(k) the earliest kept: each later frame goes, and the hold ends at the last one kept
    const early = new WindowMatch<{ index: number; y: Uint8Array }, number>(luma(100), null, 2);
    for (let i = 0; i < STAGE2_MAX_KEPT + 50; i++) early.add({ index: i, y: luma(100) }, i);
    const b = early.result();
    expect(b?.best.index).toBe(0);
    expect(b?.hold.map((f) => f.index)).toEqual([0, STAGE2_MAX_KEPT - 1]);
    expect(b?.dropped).toBe(50);
  });
});

/** Stage 2 riding along stage 1 (30 fps ≤ twice the 24 fps cap), and by windows read afterwards. */
const READS = [
  { read: 'riding along stage 1', fpsCap: 24 },
  { read: 'reading its windows', fpsCap: 10 },
];

describe('a window longer than the limit, on a real video', () => {
  it.each(READS)('the refinement records the frames dropped — stage 2 $read', async ({ fpsCap }) => {
    const dir = tempDir('window-limit-');
    const still = join(dir, 'still.png');
    const video = join(dir, 'held-25s.mp4');
    await ffmpegRun(['-y', '-f', 'lavfi', '-i', 'testsrc2=s=96x54', '-frames:v', '1', still], still);
    // one still held 25 s at 30 fps: 750 frames, every one in the keyframe's window
    await ffmpegRun(
      [
        '-y',
        '-loop',
        '1',
        '-i',
        still,
        '-r',
        '30',
        '-t',
        '25',
        '-pix_fmt',
        'yuv420p',
        '-c:v',
        'libx264',
        video,
      ],
      video,
    );
    const scan = await scanVideo(
      { video, keyframes: [{ kf_id: 'k1', image: still }] },
      createBuiltinEmbedder(),
      { fpsCap },
    );
    const r = scan.refined?.[0];
    expect(r?.window).toEqual([0, 749]);
    expect(r?.dropped).toBe(750 - STAGE2_MAX_KEPT);
    expect(r && r.hold[1] - r.hold[0] + 1).toBeLessThanOrEqual(STAGE2_MAX_KEPT);
  });
});
