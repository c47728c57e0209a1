import { describe, expect, it } from 'vitest';
import { BUILTIN_THRESHOLD, createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { cosine } from '../../src/embed/embedder.js';
import { streamFrames } from '../../src/media/frames.js';
import { loadImage } from '../../src/media/image.js';
import { probe } from '../../src/media/probe.js';
import { ratesAt } from '../../src/stats/eer.js';
import { makeImagePairs } from '../../src/synthetic/image-pairs.js';
import { media } from '../support/paths.js';

const emb = createBuiltinEmbedder();

describe('builtin embedder', () => {
  it('is deterministic and unit-length', async () => {
    const img = await loadImage(media('coffee.png'));
    const [a] = await emb.embed([img]);
    const [b] = await emb.embed([img]);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(Math.hypot(...Array.from(a!))).toBeCloseTo(1, 6);
  });

  it('separates same-content from unrelated pairs on a set it was not calibrated on', async () => {
    const pairs = await makeImagePairs('grading', 160);
    const scored = [];
    for (const p of pairs) {
      const [a, b] = await emb.embed([p.a, p.b]);
      scored.push({ score: cosine(a!, b!), label: p.label });
    }
    const r = ratesAt(scored, BUILTIN_THRESHOLD);
    expect(r.fpr).toBeLessThanOrEqual(0.05);
    expect(r.fnr).toBeLessThanOrEqual(0.05);
    const negatives = scored.filter((s) => s.label === 0).map((s) => s.score);
    // centred features: unrelated images do not all score a high cosine
    expect(negatives.reduce((x, y) => x + y, 0) / negatives.length).toBeLessThan(0.4);
  });

  it('frames of one shot match, frames of different shots do not', async () => {
    const info = await probe(media('shots.mp4'));
    const frames = [];
    for await (const f of streamFrames(info, { kind: 'indices', indices: [5, 20, 60, 110, 230, 250] }))
      frames.push(f);
    const v = await emb.embed(frames);
    expect(cosine(v[0]!, v[1]!)).toBeGreaterThan(BUILTIN_THRESHOLD); // testsrc2, moving
    expect(cosine(v[4]!, v[5]!)).toBeGreaterThan(BUILTIN_THRESHOLD); // coffee, slow pan
    for (const [i, j] of [
      [0, 2],
      [2, 3],
      [3, 4],
      [0, 4],
    ])
      expect(cosine(v[i!]!, v[j!]!)).toBeLessThan(BUILTIN_THRESHOLD);
  });
});
