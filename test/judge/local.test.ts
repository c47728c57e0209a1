import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { UsageError } from '../../src/errors.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { insertIntoChain } from '../../src/judge/insertion.js';
import { Judge } from '../../src/judge/judge.js';
import { fitLocalReader, LocalBackend, writeReaderFile } from '../../src/judge/local.js';
import { comparePair } from '../../src/judge/pairwise.js';
import { loadImage } from '../../src/media/image.js';
import { createRng } from '../../src/stats/rng.js';
import { media, tempDir } from '../support/paths.js';

function gaussian(rng: ReturnType<typeof createRng>): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

describe('fitting the local reader', () => {
  it('recovers a known utility direction from synthetic labelled pairs', () => {
    const rng = createRng('fit');
    const d = 12;
    const wTrue = Float32Array.from({ length: d }, () => gaussian(rng));
    const pairs = Array.from({ length: 3000 }, () => {
      const a = Float32Array.from({ length: d }, () => gaussian(rng));
      const b = Float32Array.from({ length: d }, () => gaussian(rng));
      let m = 0;
      for (let i = 0; i < d; i++) m += wTrue[i]! * (a[i]! - b[i]!);
      return { a, b, winner: rng.next() < 1 / (1 + Math.exp(-m)) ? ('a' as const) : ('b' as const) };
    });
    const r = fitLocalReader(pairs, { id: 'synthetic', version: '0' }, 1);
    const w = r.w;
    const dot = w.reduce((s, v, i) => s + v * wTrue[i]!, 0);
    const cos = dot / (Math.hypot(...w) * Math.hypot(...wTrue));
    expect(cos).toBeGreaterThan(0.98);
    // λ shrinks: a stronger penalty gives a smaller norm
    expect(Math.hypot(...fitLocalReader(pairs, { id: 's', version: '0' }, 1000).w)).toBeLessThan(
      Math.hypot(...w),
    );
  });
});

describe('the local backend', () => {
  async function reader() {
    const emb = createBuiltinEmbedder();
    const imgs = await Promise.all(
      ['base.png', 'blur.png', 'coffee.png', 'mandel.png', 'testsrc.png'].map((n) => loadImage(media(n))),
    );
    const feats = await emb.embed(imgs);
    // a reader that prefers base > coffee > mandel > testsrc > blur
    const order = [0, 2, 3, 4, 1];
    const pairs = [];
    for (let i = 0; i < order.length; i++)
      for (let j = i + 1; j < order.length; j++)
        for (let k = 0; k < 3; k++)
          pairs.push({ a: feats[order[i]!]!, b: feats[order[j]!]!, winner: 'a' as const });
    const file = join(tempDir(), 'reader.json');
    await writeReaderFile(file, fitLocalReader(pairs, emb, 0.01));
    return { file, imgs };
  }

  it('is deterministic, never contradicts itself under swapped placements, and answers insertion', async () => {
    const { file, imgs } = await reader();
    const judge = new Judge(await LocalBackend.open(file));
    const enc = new ImageEncoder();
    const j = await Promise.all(imgs.map((i) => enc.fromRaw(i)));
    for (let a = 0; a < j.length; a++)
      for (let b = 0; b < j.length; b++) {
        if (a === b) continue;
        const r = await comparePair(judge, j[a]!, j[b]!, 'anything');
        expect(r.status).toBe('confident');
      }
    expect((await comparePair(judge, j[0]!, j[1]!, 'x')).winner).toBe('A'); // base beats blur
    const chain = [j[0]!, j[2]!, j[4]!, j[1]!]; // base, coffee, testsrc, blur
    const pw = await insertIntoChain(judge, j[3]!, chain, 'x', 'pairwise'); // mandel: above testsrc and blur
    const lw = await insertIntoChain(judge, j[3]!, chain, 'x', 'listwise');
    const bi = await insertIntoChain(judge, j[3]!, chain, 'x', 'binary');
    expect([pw.position, lw.position, bi.position]).toEqual([2, 2, 2]);
    expect(bi.comparisons.length).toBeLessThanOrEqual(3);
    // the relabelled question (B shown first) and the reversed listwise chain answer alike
    const re = await comparePair(judge, j[0]!, j[1]!, 'x', { relabel: true });
    expect([re.status, re.winner]).toEqual(['confident', 'A']);
    const both = await insertIntoChain(judge, j[3]!, chain, 'x', 'listwise', { bothOrders: true });
    expect(both.listwise!.answers.map((a) => a.position)).toEqual([2, 2]);
    expect([both.position, both.disagreed]).toEqual([2, 0]);
    expect(judge.name).toMatch(/^local:reader-[0-9a-f]{16}$/);
  });

  it('anything but pairwise or listwise is recorded as unresolved', async () => {
    const { file, imgs } = await reader();
    const judge = new Judge(await LocalBackend.open(file));
    const enc = new ImageEncoder();
    const { z } = await import('zod');
    const v = await judge.ask({
      prompt: 'write a checklist',
      images: [await enc.fromRaw(imgs[0]!)],
      labels: ['1'],
      protocol: { name: 'checklist', version: '1' },
      schema: z.object({ items: z.array(z.string()) }),
    });
    expect(v.unresolved).toMatch(/refusal/);
  });

  it('without a file it says how to make one (a usage error, exit 2)', async () => {
    await expect(LocalBackend.open('/nonexistent/reader.json')).rejects.toThrow(UsageError);
    await expect(LocalBackend.open('/nonexistent/reader.json')).rejects.toThrow(/hero fit-reader/);
  });
});
