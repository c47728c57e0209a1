/**
 * Persistence: the run of consecutive sampled frames around f* with similarity ≥ γ lasts d_k =
 * frames / sample_fps seconds (one frame = 1/fps; in a variable-rate video, the run's real time
 * span, `span`); score min(1, d_k / persistence_s). Unmatched → 0.
 */

import type { FrameRun } from '../scan/runs.js';
import type { ResponseOptions } from './options.js';
import type { Placement } from './placement.js';

export function persistence(
  p: readonly Placement[],
  sampleFps: number,
  o: Pick<ResponseOptions, 'persistence_s'>,
  span?: (r: FrameRun) => [number, number],
): { scores: number[]; seconds: (number | null)[] } {
  const length = (r: FrameRun) => (span ? span(r)[1] - span(r)[0] : (r[1] - r[0] + 1) / sampleFps);
  const seconds = p.map((x) => (x.peakRun ? length(x.peakRun) : null));
  return { scores: seconds.map((d) => (d === null ? 0 : Math.min(1, d / o.persistence_s))), seconds };
}
