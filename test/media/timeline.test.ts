import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { streamFrames } from '../../src/media/frames.js';
import { frameAt, probe } from '../../src/media/probe.js';
import { probeMany } from '../../src/media/probe-many.js';
import { detectShots } from '../../src/media/shots.js';
import { buildTimeline } from '../../src/media/timeline.js';
import { media } from '../support/paths.js';

/**
 * vfr.mp4's frame times by construction (scripts/make-media-fixtures.sh): source frames n of a
 * 120 fps grid, kept by the same rule the script's `select` applies; frame time = n/120.
 */
function vfrTruth(): number[] {
  const out: number[] = [];
  for (let n = 0; n < 1260; n++) {
    const keep =
      n < 450
        ? n % 5 === 0 && (n / 5) % 3 !== 2
        : n < 720
          ? n % 10 === 0
          : n < 1050
            ? n % 4 === 0
            : (n - 1050) % 10 === 0 || (n - 1050) % 10 === 3;
    if (keep) out.push(n / 120);
  }
  return out;
}

describe('frame times from presentation timestamps', () => {
  const truth = vfrTruth();

  it('a variable-rate file: vfr, the real mean rate, and every frame at its pts (B-frames reordered)', async () => {
    const info = await probe(media('vfr.mp4'));
    expect(truth).toHaveLength(212);
    expect(info).toMatchObject({ vfr: true, frames: 212 });
    expect(info.mean_fps).toBeCloseTo(212 / info.duration_s, 9);
    expect(info.duration_s).toBeGreaterThan(truth[211]!);
    const got: number[] = [];
    for await (const f of streamFrames(info, { kind: 'all' }, { width: 32, height: 18, pixels: 'gray' }))
      got.push(f.time_s);
    expect(got).toHaveLength(212);
    got.forEach((t, n) => {
      expect(t).toBeCloseTo(truth[n]!, 6);
    });
  });

  it('probeMany (clip batches) hands a variable-rate clip to probe, times and all', async () => {
    const [v, c] = await probeMany([media('vfr.mp4'), media('shots.mp4')]);
    expect(v).toMatchObject({ vfr: true, frames: 212 });
    expect(v!.times![60]).toBeCloseTo(3.75, 9);
    expect(c).toMatchObject({ vfr: false, fps: 24 });
    expect(c!.times).toBeUndefined();
  });

  it('a constant-rate file keeps n/fps (no per-frame table)', async () => {
    const info = await probe(media('shots.mp4'));
    expect(info).toMatchObject({ vfr: false, mean_fps: 24, times: undefined });
  });

  it('times and rate requests pick the frame shown at each time, by pts', async () => {
    const info = await probe(media('vfr.mp4'));
    // the frame shown at t: the last whose pts ≤ t
    for (const t of [0, 0.05, 1.0, 3.74, 3.75, 3.76, 5.99, 6.0, 8.7, 8.76, 10.4]) {
      const n = frameAt(info, t);
      expect(truth[n]!).toBeLessThanOrEqual(t + 1e-9);
      if (n + 1 < truth.length) expect(truth[n + 1]!).toBeGreaterThan(t);
    }
    const times: number[] = [];
    for await (const f of streamFrames(
      info,
      { kind: 'times', times: [3.74, 3.76, 8.76] },
      { width: 32, pixels: 'gray' },
    ))
      times.push(f.time_s);
    expect(times).toEqual([truth[59], truth[60], truth[170]]);
    const rate: { index: number; time_s: number }[] = [];
    for await (const f of streamFrames(info, { kind: 'rate', rate: 1 }, { width: 32, pixels: 'gray' }))
      rate.push({ index: f.index, time_s: f.time_s });
    expect(rate).toHaveLength(Math.floor(info.duration_s - 0.5) + 1);
    rate.forEach((r, k) => {
      const t = k + 0.5;
      expect(r.time_s).toBeLessThanOrEqual(t);
      expect(truth[r.index + 1] ?? Number.POSITIVE_INFINITY).toBeGreaterThan(t);
    });
  });

  it('cuts in a variable-rate file fall at their real times (within one frame duration)', async () => {
    const r = await detectShots(await probe(media('vfr.mp4')));
    const starts = r.shots.slice(1).map((s) => s.start_s);
    expect(starts).toHaveLength(3);
    [3.75, 6.0, 8.75].forEach((t, i) => {
      const n = truth.findIndex((x) => x >= t - 1e-9);
      const frameDuration = truth[n]! - truth[n - 1]!;
      expect(Math.abs(starts[i]! - t)).toBeLessThanOrEqual(frameDuration + 1e-9);
    });
  });

  it('repeated timestamps are bad input naming the file and the frame', async () => {
    const err = await probe(media('repeat-ts.mkv')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toMatch(
      /repeat-ts\.mkv: timestamps repeat at frame 10 \(two frames at 0\.360 s\)/,
    );
  });

  it('timestamps going backwards are bad input without B-frames, reordering with them', () => {
    const packets = (pts: number[], flags: string[] = []) =>
      pts.map((p, i) => ({ pts: p, duration: 1, flags: flags[i] ?? '__' }));
    expect(() => buildTimeline(packets([0, 1, 2, 1, 4]), 0.04, false, 'x.mkv')).toThrow(
      /x\.mkv: timestamps go backwards at frame 3 /,
    );
    const t = buildTimeline(packets([0, 3, 1, 2, 4]), 0.04, true, 'x.mp4')!;
    expect([...t.times]).toEqual([0, 0.04, 0.08, 0.12, 0.16]);
    expect(t.vfr).toBe(false);
    // discarded packets (edit lists) are never decoded: not frames
    expect(buildTimeline(packets([0, 1, 2], ['K_', '_D', '__']), 1, false, 'x')!.frames).toBe(2);
    // a packet without pts (a raw elementary stream): no timeline
    expect(buildTimeline([{ pts: 0 }, { duration: 1 }], 1, false, 'x')).toBeNull();
  });
});

describe('display rotation', () => {
  it('a clip stored sideways with a −90° display matrix is probed and decoded upright', async () => {
    const info = await probe(media('rotated.mp4'));
    expect(info).toMatchObject({ width: 136, height: 320, rotation: 270 });
    const [many] = await probeMany([media('rotated.mp4'), media('shots.mp4')]);
    expect(many).toMatchObject({ width: 136, height: 320, rotation: 270 });
    for await (const f of streamFrames(info, { kind: 'indices', indices: [0] }, { pixels: 'gray' })) {
      expect([f.width, f.height]).toEqual([136, 320]);
      const at = (x: number, y: number) => f.data[y * f.width + x]!;
      expect(at(80, 20)).toBeGreaterThan(200); // white bar across the top
      expect(at(80, 200)).toBeLessThan(40); // black body
      expect(at(10, 200)).toBeGreaterThan(90); // grey strip down the left
      expect(at(10, 200)).toBeLessThan(170);
      expect(at(126, 200)).toBeLessThan(40);
    }
  });
});
