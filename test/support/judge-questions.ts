/** N distinct judge questions over a few small images (distinct by prompt text). */

import { ImageEncoder } from '../../src/judge/images.js';
import type { Judge } from '../../src/judge/judge.js';
import { PairAnswer } from '../../src/judge/pairwise.js';
import type { JudgeImage, Verdict } from '../../src/judge/types.js';
import { loadImage } from '../../src/media/image.js';
import { media } from './paths.js';

const encoder = new ImageEncoder(128);
let pool: JudgeImage[] | undefined;

export async function imagePool(): Promise<JudgeImage[]> {
  if (!pool) {
    pool = [];
    for (const n of ['base.png', 'blur.png', 'coffee.png', 'mandel.png', 'testsrc.png', 'astronaut.png'])
      pool.push(await encoder.fromRaw(await loadImage(media(n))));
  }
  return pool;
}

export function question(i: number, images: JudgeImage[]) {
  const a = images[i % images.length]!;
  const b = images[(i * 7 + 1) % images.length]!;
  return {
    prompt: `Question ${i}: which image is better? Answer {"winner": "A" | "B", "reason": "..."}`,
    images: [a, b],
    labels: ['A', 'B'],
    protocol: { name: 'pairwise', version: 'test' },
    schema: PairAnswer,
  };
}

/** Ask questions 0..n−1 with at most `parallel` outstanding at once from this loop. */
export async function askMany(
  judge: Judge,
  n: number,
  parallel = 64,
): Promise<Verdict<{ winner: 'A' | 'B' }>[]> {
  const images = await imagePool();
  const out: Verdict<{ winner: 'A' | 'B' }>[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await judge.ask(question(i, images));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, n) }, worker));
  return out;
}
