/**
 * The pixel shot detector on real-style transitions (issue 28, item 7), fixtures from
 * scripts/make-staged-fixtures.sh with their truth by construction:
 *  - dissolve-busy.mp4: a one-second dissolve from a plain shot into busy, textured, moving
 *    footage is one gradual transition (before: none) with its start and end within one frame
 *    (issue 48 item 1), and the later cut is still found;
 *  - vfr-similar.mp4: in variable-rate footage (frames of a 30 fps source dropped), a hard cut
 *    between two shots of similar colour and brightness is found (before: missed) beside the
 *    other cut of the excerpt, each at its frame's real time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { probe } from '../../src/media/probe.js';
import { detectShots } from '../../src/media/shots.js';
import { media } from '../support/paths.js';
import { expectShotsMatch, type ShotTruth } from '../support/references.js';

const truth = JSON.parse(readFileSync(media('staged/truth.json'), 'utf8')) as Record<
  string,
  ShotTruth & { cut_times?: number[] }
>;

describe.each(Object.keys(truth))('shot segmentation on staged/%s', (name) => {
  const t = truth[name]!;
  it('finds every hard cut within ±1 frame, each gradual transition once, nothing else', async () => {
    const info = await probe(media(`staged/${name}`));
    expect(info.frames).toBe(t.frames);
    const r = await detectShots(info);
    // issue 48 item 1: a dissolve's true start and end within one frame (before: from frame 52 for 48)
    expectShotsMatch(r, t);
    if (t.cut_times) {
      expect(info.vfr).toBe(true);
      // a cut's shot starts at its first frame's presentation time
      const starts = r.shots.slice(1).map((s) => s.start_s);
      for (const [i, c] of t.cut_times.entries()) expect(starts[i]).toBeCloseTo(c, 3);
    }
  });
});
