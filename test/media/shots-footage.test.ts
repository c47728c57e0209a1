/**
 * The pixel shot detector on issue 48's transitions (items 1 and 2), fixtures from
 * scripts/make-footage-fixtures.sh with their truth by construction (footage/truth.json):
 *  - dissolves.mp4: xfade dissolves of 0.2, 0.4, 1 s (into busy footage) and 2 s, and a cut;
 *  - crossfades.mp4: dissolves of 0.2 and 0.4 s into busy footage (a Game of Life, a fast pan and
 *    zoom), of 1 and 2 s into calm footage, fades through black and through white (out of busy
 *    footage), each clip joined to the next by a cut;
 *  - matched-cut.mp4 / matched-motion.mp4: a hard cut between a pan over a photograph and the same
 *    photograph mirrored (the same colour histogram) panned at the same speed — slow, and fast
 *    (10 px a frame) with a turn and a camera bump inside the shots — is found, and nothing else.
 *  - dark-cut.mp4 / glass-move.mp4 (issue 56 item 6): a cut between two dark shots of similar tone
 *    is found (before: missed), and a three-frame camera jerk behind a window reflection is no cut
 *    (before: a cut at 52) — PySceneDetect's AdaptiveDetector gets both right
 *    (test/media/shots-pyscenedetect.test.ts).
 * Issue 48 item 1: "A dissolve of any length, into any content, is one gradual transition with its
 * true start and end (within one frame)": each dissolve is one gradual transition (no cut inside
 * it) whose first and last frames are each within one frame of the truth's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCAN_OPTIONS } from '../../src/compass/scan/options.js';
import { streamFrames } from '../../src/media/frames.js';
import { probe } from '../../src/media/probe.js';
import { detectShots, ShotDetector } from '../../src/media/shots.js';
import { media } from '../support/paths.js';
import { expectShotsMatch, type ShotTruth } from '../support/references.js';

const truth = JSON.parse(readFileSync(media('footage/truth.json'), 'utf8')) as Record<string, ShotTruth>;

/** Gradual transitions (by true first frame) a 24 fps scan does not find yet (the report of issue 48): none. */
const KNOWN_MISSES_AT_24: Record<string, number[]> = {};

describe.each(Object.keys(truth))('shot segmentation on footage/%s', (name) => {
  const t = truth[name]!;
  it('finds every cut within ±1 frame and each dissolve as one gradual transition with its bounds within one frame, nothing else', async () => {
    const info = await probe(media(`footage/${name}`));
    expect(info.frames).toBe(t.frames);
    const r = await detectShots(info);
    expectShotsMatch(r, t);
    // the shots a Compass scan assigns keyframes to: one boundary per dissolve, inside it
    for (const g of t.gradual) {
      const inside = r.shots.filter(
        (s) => s.start_frame >= g.start_frame && s.start_frame <= g.end_frame + 1,
      );
      expect(inside, `${g.start_frame}–${g.end_frame}`).toHaveLength(1);
    }
  });

  it("at a Compass scan's sampling rate (24 fps of 25), each dissolve is one gradual transition within two source frames of its true times, each cut one cut", async () => {
    const info = await probe(media(`footage/${name}`));
    const rate = DEFAULT_SCAN_OPTIONS.fpsCap;
    const det = new ShotDetector(rate);
    const times: number[] = []; // each sampled frame's time (its source frame's)
    for await (const f of streamFrames(
      info,
      { kind: 'rate', rate },
      { width: 64, height: 36, pixels: 'rgb' },
    )) {
      det.push(f);
      times.push(f.time_s);
    }
    const r = det.finish();
    const fps = info.mean_fps;
    const near = (sampled: number, frame: number) =>
      expect(Math.abs(times[sampled]! - frame / fps), `${sampled} for ${frame}`).toBeLessThanOrEqual(
        2 / fps + 1e-6,
      );
    const cuts = r.transitions.filter((x) => x.kind === 'cut');
    const gradual = r.transitions.filter((x) => x.kind === 'gradual');
    expect(cuts).toHaveLength(t.cuts.length);
    for (const [i, c] of t.cuts.entries()) near(cuts[i]!.start_frame, c);
    // a known miss is not reported at all (no cut there either); crossfades.mp4's 0.4 s dissolve
    // into the fast pan and zoom, once missed (its run of changing frames reached a dropped frame
    // into the pan, which is no blend), is now found (shot-gradual.ts blendOfRun)
    const missed = KNOWN_MISSES_AT_24[name] ?? [];
    const found = t.gradual.filter((g) => !missed.includes(g.start_frame));
    for (const g of t.gradual.filter((x) => missed.includes(x.start_frame)))
      expect(
        r.transitions.filter(
          (x) => Math.abs(times[x.start_frame]! * fps - g.start_frame) <= g.end_frame - g.start_frame + 2,
        ),
      ).toEqual([]);
    expect(gradual).toHaveLength(found.length);
    for (const [i, g] of found.entries()) {
      near(gradual[i]!.start_frame, g.start_frame);
      near(gradual[i]!.end_frame, g.end_frame);
    }
  });
});
