/**
 * A key-frame selection method: footage in, at most k ranked frame indices out, deterministic
 * given the seed. A method sees only footage — the film's 1 fps track frames (and, for methods
 * that declare it, the full-rate clips) — never the rubric, the stills or any metadata.
 */
import type { Embedder } from '../../embed/embedder.js';
import { InternalError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import type { ImageStats } from '../../media/image-stats.js';
import type { RawImage } from '../../media/raw.js';
import type { Rng } from '../../stats/rng.js';
import type { Timeline } from '../track/timeline.js';

export interface SelectContext {
  movieId: string;
  /** Number of track frames (frame_idx 0..frameCount−1). */
  frameCount: number;
  k: number;
  rng: Rng;
  /** A track frame at a small size (160 px wide), cached for this film. */
  frame(i: number): Promise<RawImage>;
  /** Photographic statistics of a track frame, cached. */
  stats(i: number): Promise<ImageStats>;
  /** For methods that declare `needs.clips`: the film's clip files and timeline. */
  clips?: { lsmdc: string; timeline: Timeline } | undefined;
  /** For methods that declare `needs.judge`: a judge and the one fixed sentence of eval/query.txt. */
  judge?:
    | { judge: Judge; encoder: ImageEncoder; query: string; trackFrame: (i: number) => string }
    | undefined;
  /** For methods that declare `needs.embedder`. */
  embedder?: Embedder | undefined;
}

export interface SelectionMethod {
  name: string;
  /** One line: what it does and where the idea comes from. */
  description: string;
  /** What it needs beyond the track's 1 fps frames. */
  needs?: { clips?: boolean; judge?: boolean; embedder?: boolean };
  select(ctx: SelectContext): Promise<number[]>;
}

/** The k best indices by score (descending), at least `gap` frames apart; ties by index. */
export function topKSpread(scores: readonly number[], k: number, gap: number): number[] {
  const order = scores.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const out: number[] = [];
  for (const [, i] of order) {
    if (out.length >= k) break;
    if (out.every((j) => Math.abs(j - i) >= gap)) out.push(i);
  }
  return out;
}

export async function allStats(ctx: SelectContext): Promise<ImageStats[]> {
  const out: ImageStats[] = [];
  for (let i = 0; i < ctx.frameCount; i++) out.push(await ctx.stats(i));
  return out;
}

/** The minimum spacing used by the photographic-proxy methods: a k-th of the film, halved. */
export function spreadGap(ctx: SelectContext): number {
  return Math.max(1, Math.floor(ctx.frameCount / (2 * ctx.k)));
}

/**
 * What a method reads beyond the track frames (`ctx.clips`, `ctx.judge`, `ctx.embedder`): given
 * only to a method that declares it in `needs`, so one that reads it without declaring it is
 * kfbench's fault, named — not a TypeError on undefined.
 */
export function needed<T>(value: T | undefined, method: string, what: 'clips' | 'judge' | 'embedder'): T {
  if (value === undefined)
    throw new InternalError(`selection method ${method} reads ctx.${what} without declaring needs.${what}`);
  return value;
}
