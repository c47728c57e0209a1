/** Presence (hit rate): a keyframe scores 1 when the video shows it (best cosine ≥ γ), else 0. */
import type { Placement } from './placement.js';

export function presence(p: readonly Placement[]): number[] {
  return p.map((x) => (x.matched ? 1 : 0));
}
