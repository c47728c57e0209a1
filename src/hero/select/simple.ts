/** The trivial baselines: random, uniform, middle. */
import type { SelectionMethod } from './method.js';

export const random: SelectionMethod = {
  name: 'random',
  description:
    'k distinct track frames drawn uniformly at random (seeded) — the chance baseline (HeroFrame-Bench: 0.501)',
  async select(ctx) {
    const picked = new Set<number>();
    while (picked.size < Math.min(ctx.k, ctx.frameCount)) picked.add(ctx.rng.int(ctx.frameCount));
    return [...picked];
  },
};

export const uniform: SelectionMethod = {
  name: 'uniform',
  description:
    'k frames evenly spaced over the film, ⌊(i + 0.5)·N/k⌋ — the classic uniform-sampling keyframe baseline',
  async select(ctx) {
    const k = Math.min(ctx.k, ctx.frameCount);
    return Array.from({ length: k }, (_, i) => Math.floor(((i + 0.5) * ctx.frameCount) / k));
  },
};

export const middle: SelectionMethod = {
  name: 'middle',
  description:
    'the middle frame of the film first, then its neighbours a k-th of the film apart — the "poster frame from the middle" habit of video tools',
  async select(ctx) {
    const mid = Math.floor(ctx.frameCount / 2);
    const step = Math.max(1, Math.floor(ctx.frameCount / (2 * ctx.k)));
    const out = [mid];
    for (let d = 1; out.length < Math.min(ctx.k, ctx.frameCount); d++) {
      for (const c of [mid - d * step, mid + d * step])
        if (c >= 0 && c < ctx.frameCount && !out.includes(c) && out.length < ctx.k) out.push(c);
      if (d > ctx.frameCount) break;
    }
    return out;
  },
};
