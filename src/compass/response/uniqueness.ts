/**
 * Uniqueness: 1 / (number of separate runs in which the keyframe is matched, runs less than
 * `uniqueGap_s` apart counting as one); halved when its hold (the frames that place it) overlaps
 * in time the hold of another matched keyframe — one stretch of video cannot show two keyframes.
 * Unmatched → 0.
 */

import type { FrameRun } from '../scan/runs.js';
import type { Scan } from '../schemas/scan.js';
import type { ResponseOptions } from './options.js';
import { type Placement, runSpan } from './placement.js';

function separateRuns(scan: Scan, runs: readonly FrameRun[], gap_s: number): number {
  let count = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const r of runs) {
    const [a, b] = runSpan(scan, r);
    if (a - lastEnd >= gap_s - 1e-9) count++;
    lastEnd = b;
  }
  return count;
}

export function uniqueness(
  p: readonly Placement[],
  scan: Scan,
  o: Pick<ResponseOptions, 'uniqueGap_s'>,
): { scores: number[]; runs: number[]; sharedHold: boolean[] } {
  const spans = p.map((x) => (x.hold ? runSpan(scan, x.hold) : null));
  const runs = p.map((x) => (x.matched ? separateRuns(scan, x.runs, o.uniqueGap_s) : 0));
  const sharedHold = spans.map(
    (s, k) =>
      s !== null && spans.some((u, j) => j !== k && u !== null && u[0] < s[1] - 1e-9 && s[0] < u[1] - 1e-9),
  );
  const scores = p.map((x, k) => (x.matched ? (1 / runs[k]!) * (sharedHold[k] ? 0.5 : 1) : 0));
  return { scores, runs, sharedHold };
}
