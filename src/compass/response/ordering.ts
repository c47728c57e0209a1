/**
 * Ordering: the length L of the longest strictly increasing subsequence of the matched keyframes'
 * times t(k), taken in prescribed order, divided by N. Per keyframe: the share of all longest
 * subsequences that contain it (1 when it is in every one, ½ for each of two swapped neighbours,
 * 0 when unmatched or in none); these shares sum to L, so their mean is the case score.
 */
import type { Placement } from './placement.js';

export interface OrderingResult {
  /** L / N. */
  score: number;
  lis: number;
  perKeyframe: number[];
}

export function ordering(p: readonly Placement[]): OrderingResult {
  const idx = p.flatMap((x, k) => (x.matched && x.t_s !== null ? [k] : []));
  const t = idx.map((k) => p[k]!.t_s!);
  const m = t.length;
  const lenEnd = new Array<number>(m).fill(1);
  const cntEnd = new Array<number>(m).fill(1);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < i; j++) {
      if (!(t[j]! < t[i]!)) continue;
      if (lenEnd[j]! + 1 > lenEnd[i]!) {
        lenEnd[i] = lenEnd[j]! + 1;
        cntEnd[i] = cntEnd[j]!;
      } else if (lenEnd[j]! + 1 === lenEnd[i]) cntEnd[i]! += cntEnd[j]!;
    }
  }
  const lenStart = new Array<number>(m).fill(1);
  const cntStart = new Array<number>(m).fill(1);
  for (let i = m - 1; i >= 0; i--) {
    for (let j = i + 1; j < m; j++) {
      if (!(t[i]! < t[j]!)) continue;
      if (lenStart[j]! + 1 > lenStart[i]!) {
        lenStart[i] = lenStart[j]! + 1;
        cntStart[i] = cntStart[j]!;
      } else if (lenStart[j]! + 1 === lenStart[i]) cntStart[i]! += cntStart[j]!;
    }
  }
  const L = m ? Math.max(...lenEnd) : 0;
  let total = 0;
  for (let i = 0; i < m; i++) if (lenEnd[i] === L) total += cntEnd[i]!;
  const perKeyframe = new Array<number>(p.length).fill(0);
  idx.forEach((k, i) => {
    if (lenEnd[i]! + lenStart[i]! - 1 === L) perKeyframe[k] = (cntEnd[i]! * cntStart[i]!) / total;
  });
  return { score: p.length ? L / p.length : 0, lis: L, perKeyframe };
}
