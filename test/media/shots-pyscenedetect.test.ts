/**
 * Shots at least as good as PySceneDetect's (issue 56 item 6), on every shot fixture: PySceneDetect's
 * AdaptiveDetector at its defaults, run by scripts/shots-references.py from its public source tree,
 * left its cut lists in test/fixtures/media/pyscenedetect.json (this test reads only that file, never
 * Python). Against the construction truth of each fixture (truth.json, footage/truth.json,
 * staged/truth.json):
 *  - every hard cut PySceneDetect finds (within ±1 frame of a true cut), kfbench finds within ±1
 *    frame — among them footage/dark-cut.mp4's cut between two dark shots of similar tone, which
 *    kfbench missed before;
 *  - kfbench reports no more false cuts (a cut not within ±1 frame of a true cut, a cut inside a
 *    dissolve included) than PySceneDetect — footage/glass-move.mp4, a camera jerk behind a window
 *    reflection, gave kfbench a false cut before and PySceneDetect none;
 *  - every true gradual transition is still reported, as one gradual transition (PySceneDetect
 *    reports none).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probe } from '../../src/media/probe.js';
import { detectShots } from '../../src/media/shots.js';
import { media } from '../support/paths.js';
import type { ShotTruth } from '../support/references.js';

interface PsdReference {
  generated_by: string;
  videos: Record<string, { frames: number; cuts: { frame: number; time_s: number }[] }>;
}

const refs = JSON.parse(readFileSync(media('pyscenedetect.json'), 'utf8')) as PsdReference;
const truth: Record<string, ShotTruth> = {};
for (const file of ['truth.json', 'footage/truth.json', 'staged/truth.json']) {
  const t = JSON.parse(readFileSync(media(file), 'utf8')) as Record<string, ShotTruth>;
  const folder = dirname(file);
  for (const [name, v] of Object.entries(t)) truth[folder === '.' ? name : join(folder, name)] = v;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1;

it('PySceneDetect has a reference cut list for every shot fixture, made by the committed script', () => {
  expect(Object.keys(refs.videos).sort()).toEqual(Object.keys(truth).sort());
  expect(refs.generated_by).toMatch(/^scripts\/shots-references\.py with PySceneDetect 0\.7/);
  for (const [name, r] of Object.entries(refs.videos)) expect(r.frames, name).toBe(truth[name]!.frames);
});

describe.each(Object.keys(truth))('kfbench against PySceneDetect on %s', (name) => {
  const t = truth[name]!;
  it('finds every hard cut PySceneDetect finds (±1 frame), no more false cuts, and every gradual transition', async () => {
    const ref = refs.videos[name]!;
    const psdCuts = ref.cuts.map((c) => c.frame);
    const psdFound = psdCuts.filter((c) => t.cuts.some((x) => near(c, x)));
    const psdFalse = psdCuts.length - psdFound.length;

    const r = await detectShots(await probe(media(name)));
    const cuts = r.transitions.filter((x) => x.kind === 'cut').map((x) => x.start_frame);
    const gradual = r.transitions.filter((x) => x.kind === 'gradual');
    for (const c of psdFound)
      expect(
        cuts.some((x) => near(x, c)),
        `PySceneDetect's cut at ${c}; kfbench: ${cuts.join(', ')}`,
      ).toBe(true);
    const ourFalse = cuts.filter((c) => !t.cuts.some((x) => near(c, x)));
    expect(ourFalse.length, `kfbench's false cuts ${ourFalse.join(', ')}`).toBeLessThanOrEqual(psdFalse);
    for (const g of t.gradual) {
      const inside = gradual.filter((x) => {
        const mid = Math.floor((x.start_frame + x.end_frame) / 2);
        return mid >= g.start_frame - 1 && mid <= g.end_frame + 1;
      });
      expect(inside, `gradual ${g.start_frame}–${g.end_frame}`).toHaveLength(1);
    }
  });
});
