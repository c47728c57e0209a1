/**
 * The published sizes (the dataset cards' counts) and the `--size` flag of `hero mini` / `compass
 * mini`: `mini` (the hand-made mini set), `published` (the full counts), or a fraction of them
 * (`1/8`, `0.25`, …) for scale benchmarks and tests. A fraction scales the number of films and of
 * cases; what each film or case holds stays the same, so cost grows with the fraction alone.
 */
import { UsageError } from '../errors.js';

/** HeroFrame-Bench: 204 films, 2,031 chains, 11,161 images, ~500,000 track frames. */
export const PUBLISHED_HERO = { films: 204, chains: 2031, images: 11161, trackFrames: 500_000 } as const;
/** KeyFrame-Compass: 386 cases, each in 2 prompt modes. */
export const PUBLISHED_COMPASS = { cases: 386 } as const;

export type MiniSize = { kind: 'mini' } | { kind: 'published'; fraction: number };

/** `mini` | `published` | `a/b` | a decimal in (0, 1] (a fraction of the published counts). */
export function parseMiniSize(s: string): MiniSize {
  if (s === 'mini') return { kind: 'mini' };
  if (s === 'published') return { kind: 'published', fraction: 1 };
  const m = /^(\d+)\/(\d+)$/.exec(s);
  const f = m ? Number(m[1]) / Number(m[2]) : /^\d*\.?\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!(f > 0 && f <= 1))
    throw new UsageError(
      `--size ${s}: expected mini, published, or a fraction of the published counts in (0, 1] such as 1/8 or 0.25`,
    );
  return { kind: 'published', fraction: f };
}

/** How many of `total` a fraction takes (at least 1). */
export const scaled = (total: number, fraction: number) => Math.max(1, Math.round(total * fraction));
