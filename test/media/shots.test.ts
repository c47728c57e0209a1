import { describe, expect, it } from 'vitest';
import { probe } from '../../src/media/probe.js';
import { detectShots, ShotDetector } from '../../src/media/shots.js';
import { media } from '../support/paths.js';
import { shotTruth } from '../support/references.js';

const truth = shotTruth();

describe.each(Object.keys(truth))('shot segmentation on %s', (name) => {
  const t = truth[name]!;
  it('finds every hard cut within ±1 frame, each gradual transition once with its start and end within ±1 frame, nothing else', async () => {
    const info = await probe(media(name));
    const r = await detectShots(info);
    const cuts = r.transitions.filter((x) => x.kind === 'cut').map((x) => x.start_frame);
    const gradual = r.transitions.filter((x) => x.kind === 'gradual');
    expect(cuts).toHaveLength(t.cuts.length);
    for (const [i, c] of t.cuts.entries()) expect(Math.abs(cuts[i]! - c)).toBeLessThanOrEqual(1);
    expect(gradual).toHaveLength(t.gradual.length);
    t.gradual.forEach((g, i) => {
      const got = gradual[i]!;
      // issue 48 item 1: "A dissolve of any length, into any content, is one gradual transition
      // with its true start and end (within one frame)" — xfade.mp4's dissolve out of the Game of
      // Life (120–143) was found from 123
      const bounds = `${got.start_frame}–${got.end_frame} for ${g.start_frame}–${g.end_frame}`;
      expect(Math.abs(got.start_frame - g.start_frame), bounds).toBeLessThanOrEqual(1);
      expect(Math.abs(got.end_frame - g.end_frame), bounds).toBeLessThanOrEqual(1);
    });
    // shots tile the video
    expect(r.shots[0]!.start_frame).toBe(0);
    expect(r.shots[r.shots.length - 1]!.end_frame).toBe(t.frames);
    for (let i = 1; i < r.shots.length; i++) expect(r.shots[i]!.start_frame).toBe(r.shots[i - 1]!.end_frame);
    expect(r.shots).toHaveLength(t.cuts.length + t.gradual.length + 1);
    for (const [lo, hi] of [t.static, t.fast_motion].filter((x): x is [number, number] => !!x)) {
      expect(r.transitions.filter((x) => x.start_frame > lo + 1 && x.start_frame <= hi)).toEqual([]);
    }
  });
});

describe('shot segmentation on a picture flickering with another', () => {
  // the mini Compass set's flicker fault (its ms-06 video, frames 39–69: the frames where the
  // other picture shows), over a slow drift of both pictures: each flicker frame lies on the line
  // between the two pictures, so a run of them trimmed of its last frame (shot-gradual.ts
  // blendOfRun) looks like a blend of its ends — but its blend weight goes back and forth
  const W = 64;
  const H = 36;
  const picture = (seed: number, shift: number) => {
    const data = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        data[i] = Math.floor(128 + 100 * Math.sin((x + shift) / 5 + seed));
        data[i + 1] = Math.floor(128 + 100 * Math.cos((y + seed * 3) / 4));
        data[i + 2] = (seed * 60 + x * 2) & 255;
      }
    return { width: W, height: H, channels: 3 as const, data };
  };
  const switches = new Set([40, 41, 47, 48, 52, 55, 60, 62, 63, 64, 65, 67]);
  const pattern: number[] = [];
  let other = 0;
  for (let n = 39; n < 70; n++) {
    if (switches.has(n)) other ^= 1;
    pattern.push(other);
  }

  it('reports no gradual transition', () => {
    const det = new ShotDetector(24);
    for (let n = 0; n < 200; n++) det.push(picture(pattern[n % pattern.length] ? 2 : 0, n * 0.3));
    const r = det.finish();
    expect(r.transitions.filter((x) => x.kind === 'gradual')).toEqual([]);
  });
});
