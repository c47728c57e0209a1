import { describe, expect, it } from 'vitest';
import { probe } from '../../src/media/probe.js';
import { detectShots } from '../../src/media/shots.js';
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
