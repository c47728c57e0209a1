/**
 * A Compass scan of a variable-frame-rate video (test/fixtures/media/vfr.mp4, cuts at 3.75 s,
 * 6.0 s and 8.75 s by construction): sampled times are the frames' presentation times, shots
 * start at the real cut times, and a keyframe taken from the video is placed at its real time.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESPONSE_OPTIONS } from '../../../src/compass/response/options.js';
import { frameEnd, place, runSpan } from '../../../src/compass/response/placement.js';
import { scanVideo } from '../../../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { probe } from '../../../src/media/probe.js';
import { sampleToDir } from '../../../src/media/sample.js';
import { media, tempDir } from '../../support/paths.js';

describe('Compass scan of a variable-frame-rate video', () => {
  it('uses real frame times for samples, shots, placement and spans', async () => {
    const video = media('vfr.mp4');
    const info = await probe(video);
    const dir = tempDir('vfr-scan');
    // frame 120 is source frame 852 of the 120 fps grid: shown at 7.1 s, inside the 6.0–8.75 s shot
    const [kf] = await sampleToDir(video, { kind: 'indices', indices: [120] }, dir, { quality: 95 });
    expect(kf!.time_s).toBeCloseTo(7.1, 6);
    const scan = await scanVideo(
      { video, keyframes: [{ kf_id: 'k1', image: kf!.path }] },
      createBuiltinEmbedder(),
    );
    expect(scan.video.vfr).toBe(true);
    expect(scan.times).toHaveLength(212);
    scan.times.forEach((t, j) => {
      expect(t).toBeCloseTo(info.times![j]!, 9);
    });
    const starts = scan.shots.map((s) => s.start_s);
    expect(starts).toHaveLength(4);
    [0, 3.75, 6.0, 8.75].forEach((t, i) => {
      expect(Math.abs(starts[i]! - t)).toBeLessThanOrEqual(1 / 12 + 1e-9); // the longest frame here
    });
    const p = place(scan, 0, 0.5, DEFAULT_RESPONSE_OPTIONS);
    expect(p.matched).toBe(true);
    expect(p.t_peak_s).toBeCloseTo(7.1, 2);
    expect(p.t_s!).toBeGreaterThan(6.0);
    expect(p.t_s!).toBeLessThan(8.75);
    // t(k) is a frame's presentation time: f*'s own without a target; with one, the hold's frame
    // shown at it — a frame lasts until the next one's time, not 1/fps
    expect(p.t_s).toBe(p.t_peak_s);
    const hold = p.hold!;
    const from = scan.times[hold[0]]!;
    const until = scan.times[hold[1] + 1]!;
    if (hold[1] > hold[0]) {
      const mid = (from + until) / 2;
      const at = place(scan, 0, 0.5, DEFAULT_RESPONSE_OPTIONS, mid);
      expect(at.atTarget).toBe(true);
      expect(scan.times.slice(hold[0], hold[1] + 1)).toContain(at.t_s);
      expect(at.t_s!).toBeLessThanOrEqual(mid);
    }
    // a target after the hold: its last frame's own time, and localization counts the distance
    const after = place(scan, 0, 0.5, DEFAULT_RESPONSE_OPTIONS, until + 1);
    expect(after.atTarget).toBeUndefined();
    expect(after.t_s).toBe(scan.times[hold[1]]);
    expect(runSpan(scan, [59, 59])).toEqual([scan.times[59], scan.times[60]]);
    expect(frameEnd(scan, 59) - scan.times[59]!).toBeCloseTo(1 / 12, 9);
  });
});
