import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageEncoder } from '../../src/judge/images.js';
import { insertIntoChain } from '../../src/judge/insertion.js';
import { Judge } from '../../src/judge/judge.js';
import { comparePair } from '../../src/judge/pairwise.js';
import type { JudgeBackend, JudgeImage } from '../../src/judge/types.js';
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

describe('--both-orders disagreement', () => {
  /** A backend that answers the listwise question by the order the chain is shown in. */
  function scripted(bestFirst: string, worstFirst: string): Judge {
    const backend: JudgeBackend = {
      name: 'scripted',
      model: 'm',
      identity: {},
      complete: (req) =>
        Promise.resolve({
          text: /worst first/.test(req.prompt) ? worstFirst : bestFirst,
          usage: { prompt_tokens: 0, completion_tokens: 0 },
          latency_ms: 0,
          retries: 0,
        }),
      close: () => Promise.resolve(),
    };
    return new Judge(backend);
  }
  const pos = (p: number) => JSON.stringify({ position: p });
  const garbage = 'no answer here';

  it('is symmetric: (0, unresolved) and (unresolved, 0) are both disagreements; (2, 2) is not', async () => {
    const chain = imgs.slice(0, 5);
    const c = imgs[5]!;
    const run = (a: string, b: string) =>
      insertIntoChain(scripted(a, b), c, chain, 'rank', 'listwise', { bothOrders: true });
    const zeroThenUnresolved = await run(pos(0), garbage);
    const unresolvedThenZero = await run(garbage, pos(0));
    expect(zeroThenUnresolved.listwise!.answers.map((a) => a.position)).toEqual([0, null]);
    expect(unresolvedThenZero.listwise!.answers.map((a) => a.position)).toEqual([null, 0]);
    expect([zeroThenUnresolved.disagreed, unresolvedThenZero.disagreed]).toEqual([1, 1]);
    expect([zeroThenUnresolved.position, unresolvedThenZero.position]).toEqual([0, 0]);
    // two different positions, either way round
    expect((await run(pos(1), pos(3))).disagreed).toBe(1);
    expect((await run(pos(3), pos(1))).disagreed).toBe(1);
    expect((await run(pos(2), pos(2))).disagreed).toBe(0);
    expect((await run(garbage, garbage)).disagreed).toBe(1);
  });
});
