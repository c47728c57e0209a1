/**
 * Persistence: the run of consecutive sampled frames around f* with similarity ≥ γ lasts d_k =
 * frames / sample_fps seconds (one frame = 1/fps); score min(1, d_k / persistence_s). Unmatched → 0.
 */
import type { ResponseOptions } from './options.js';
import type { Placement } from './placement.js';

export function persistence(
  p: readonly Placement[],
  sampleFps: number,
  o: Pick<ResponseOptions, 'persistence_s'>,
): { scores: number[]; seconds: (number | null)[] } {
  const seconds = p.map((x) => (x.peakRun ? (x.peakRun[1] - x.peakRun[0] + 1) / sampleFps : null));
  return { scores: seconds.map((d) => (d === null ? 0 : Math.min(1, d / o.persistence_s))), seconds };
}
