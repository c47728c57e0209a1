/**
 * The match decision on a keyframe's similarity curve over the sampled frames (SPEC §3.2;
 * response/placement.ts reads it): the runs of frames with similarity ≥ γ, and the run that places
 * the keyframe. Stage 2 (stage2.ts) refines that same run, so the scan and the metrics share it.
 */

/** Inclusive range of sampled-frame indices. */
export type FrameRun = readonly [number, number];

/** Maximal runs of frames with similarity ≥ `threshold`, in time order. */
export function runsAtLeast(s: readonly number[], threshold: number): FrameRun[] {
  const out: FrameRun[] = [];
  let start = -1;
  for (let j = 0; j <= s.length; j++) {
    const on = j < s.length && s[j]! >= threshold;
    if (on && start < 0) start = j;
    if (!on && start >= 0) {
      out.push([start, j - 1]);
      start = -1;
    }
  }
  return out;
}

/** The index of the largest value of `s` in [a, b] (ties: the earliest). */
export function argmaxIn(s: readonly number[], a: number, b: number): number {
  let best = a;
  for (let j = a + 1; j <= b; j++) if (s[j]! > s[best]!) best = j;
  return best;
}

/**
 * The run that places a keyframe: the earliest γ-run whose best is within `holdEps` of the overall
 * best; null when the best is below γ (unmatched).
 */
export function placingRun(s: readonly number[], gamma: number, holdEps: number): FrameRun | null {
  if (s.length === 0) return null;
  const best = s[argmaxIn(s, 0, s.length - 1)]!;
  if (!(best >= gamma)) return null;
  return runsAtLeast(s, gamma).find(([a, b]) => s[argmaxIn(s, a, b)]! >= best - holdEps) ?? null;
}
