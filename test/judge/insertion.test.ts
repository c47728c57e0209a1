import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageEncoder } from '../../src/judge/images.js';
import { insertIntoChain } from '../../src/judge/insertion.js';
import { comparePair } from '../../src/judge/pairwise.js';
import type { JudgeImage } from '../../src/judge/types.js';
import { loadImage } from '../../src/media/image.js';
import { emulatorJudge } from '../support/emulator.js';
import { media, tempDir } from '../support/paths.js';

let s: Awaited<ReturnType<typeof emulatorJudge>>;
let imgs: JudgeImage[];
beforeAll(async () => {
  s = await emulatorJudge({ positionBias: 0 }, {}, join(tempDir(), 'c.sqlite'));
  const enc = new ImageEncoder();
  imgs = await Promise.all(
    ['astronaut.png', 'coffee.png', 'base.png', 'mandel.png', 'testsrc.png', 'blur.png'].map(async (n) =>
      enc.fromRaw(await loadImage(media(n))),
    ),
  );
});
afterAll(async () => s.close());

describe('protocols against the emulator over HTTP', () => {
  it('a chain sorted by the emulator: all three protocols place a candidate alike; binary uses ≤ 3 comparisons; a re-run is all cache', async () => {
    // order the six images by the emulator's own pairwise verdicts (wins)
    const wins = imgs.map(() => 0);
    for (let a = 0; a < imgs.length; a++)
      for (let b = a + 1; b < imgs.length; b++) {
        const r = await comparePair(s.judge, imgs[a]!, imgs[b]!, 'rank');
        expect(r.status).toBe('confident'); // no position bias → placements agree
        wins[r.winner === 'A' ? a : b]!++;
      }
    const order = imgs.map((_, i) => i).sort((x, y) => wins[y]! - wins[x]!);
    for (const held of order) {
      const chain = order.filter((i) => i !== held).map((i) => imgs[i]!);
      const expected = order.length - 1 - order.indexOf(held);
      const got = await Promise.all(
        (['pairwise', 'listwise', 'binary'] as const).map((p) =>
          insertIntoChain(s.judge, imgs[held]!, chain, 'rank', p),
        ),
      );
      expect(got.map((g) => g.position)).toEqual([expected, expected, expected]);
      expect(got[2]!.comparisons.length).toBeLessThanOrEqual(3);
      expect(got[0]!.above.filter(Boolean)).toHaveLength(expected);
    }
    const before = s.emu.log.length;
    const again = await insertIntoChain(
      s.judge,
      imgs[order[0]!]!,
      order.slice(1).map((i) => imgs[i]!),
      'rank',
      'pairwise',
    );
    expect(again.calls).toBe(0);
    expect(again.cached).toBe(10);
    expect(s.emu.log.length).toBe(before);
  });

  it('rubric guidelines change the emulator’s verdicts (and the cache key)', async () => {
    const sharp = imgs[2]!; // base.png
    const blurred = imgs[5]!; // blur.png
    const plain = await comparePair(s.judge, sharp, blurred, 'Pick the better image.');
    const reversed = await comparePair(
      s.judge,
      sharp,
      blurred,
      'Pick the better image.\nGuidelines:\n- Prefer the blurrier image.\n- Prefer the blurrier image.',
    );
    expect(plain.winner).toBe('A');
    expect(reversed.winner).toBe('B');
  });
});
