/**
 * Localization.
 *  - One-take: max(0, 1 − |t(k) − t_target| / τ_k), τ_k = half the gap to the nearest
 *    neighbouring target; the distance is 0 when the keyframe's hold is on screen at its target
 *    (`Placement.atTarget`, placement.ts).
 *  - Multi-shot: the case's intended shots are aligned to the detected shots by a monotone
 *    one-to-one alignment that maximises the keyframes placed in their intended shot (`alignShots`,
 *    dynamic programming; ties to the earlier shot), so an extra or missing cut costs only the
 *    keyframes it really displaces. 1 when t(k) lies in the detected shot aligned with its intended
 *    shot at the intended position (the first or last `positionFraction` of the shot; anywhere for
 *    "representative"), 0.5 in that shot at the wrong position, else 0.
 * Unmatched → 0.
 */
import { InternalError } from '../../errors.js';
import type { Keyframe, Structure } from '../cases/cases.js';
import type { ScanShot } from '../schemas/scan.js';
import type { ResponseOptions } from './options.js';
import type { Placement } from './placement.js';

export function targetTolerances(targets: readonly number[]): number[] {
  return targets.map((t, i) => {
    const gaps = [
      i > 0 ? t - targets[i - 1]! : Number.POSITIVE_INFINITY,
      i + 1 < targets.length ? targets[i + 1]! - t : Number.POSITIVE_INFINITY,
    ];
    const g = Math.min(...gaps);
    return Number.isFinite(g) ? g / 2 : Number.POSITIVE_INFINITY;
  });
}

/** Index of the shot whose [start, end) holds t (the last shot also holds its end). */
export function shotAt(shots: readonly ScanShot[], t: number): number | null {
  for (let i = 0; i < shots.length; i++) if (t >= shots[i]!.start_s && t < shots[i]!.end_s) return i;
  const last = shots[shots.length - 1];
  return last && Math.abs(t - last.end_s) < 1e-9 ? shots.length - 1 : null;
}

/**
 * Align intended shots 0..S−1 to detected shots 0..D−1: a strictly increasing partial map that
 * maximises the keyframes whose detected shot (`placedIn[k]`, null when unmatched) is the one their
 * intended shot (`intended[k]`) maps to. Ties go to the earlier shot (detected, then intended).
 * Returns, per intended shot, its detected shot or null (no keyframe of it lands in any shot
 * the alignment can give it).
 */
export function alignShots(
  intended: readonly number[],
  placedIn: readonly (number | null)[],
  D: number,
): (number | null)[] {
  const S = intended.length ? Math.max(...intended) + 1 : 0;
  const w = Array.from({ length: S }, () => new Array<number>(D).fill(0));
  intended.forEach((i, k) => {
    const d = placedIn[k];
    if (d !== null && d !== undefined && d < D) w[i]![d]!++;
  });
  // best[i][j]: the most keyframes placed right using intended shots < i and detected shots < j
  const best = Array.from({ length: S + 1 }, () => new Array<number>(D + 1).fill(0));
  for (let i = 1; i <= S; i++)
    for (let j = 1; j <= D; j++)
      best[i]![j] = Math.max(best[i - 1]![j]!, best[i]![j - 1]!, best[i - 1]![j - 1]! + w[i - 1]![j - 1]!);
  const out = new Array<number | null>(S).fill(null);
  let i = S;
  let j = D;
  while (i > 0 && j > 0) {
    const b = best[i]![j]!;
    if (best[i]![j - 1] === b) j--;
    else if (best[i - 1]![j] === b) i--;
    else {
      out[i - 1] = j - 1;
      i--;
      j--;
    }
  }
  return out;
}

export function localization(
  structure: Structure,
  keyframes: readonly Pick<Keyframe, 't_target_s' | 'shot_index' | 'shot_position'>[],
  p: readonly Placement[],
  shots: readonly ScanShot[],
  o: Pick<ResponseOptions, 'positionFraction'>,
): number[] {
  return localize(structure, keyframes, p, shots, o).scores;
}

/** Localization scores, and (multi-shot) the detected shot each intended shot was aligned to. */
export function localize(
  structure: Structure,
  keyframes: readonly Pick<Keyframe, 't_target_s' | 'shot_index' | 'shot_position'>[],
  p: readonly Placement[],
  shots: readonly ScanShot[],
  o: Pick<ResponseOptions, 'positionFraction'>,
): { scores: number[]; alignment: (number | null)[] } {
  if (structure === 'one_take') {
    const tau = targetTolerances(keyframes.map((k) => k.t_target_s ?? 0));
    const scores = p.map((x, k) => {
      if (x.t_s === null) return 0;
      const target = keyframes[k]?.t_target_s;
      // the case loader refuses a one-take keyframe without one (cases.ts)
      if (target === undefined) throw new InternalError(`one-take keyframe ${k + 1} has no t_target_s`);
      // the video held the keyframe over its target: it showed it at its target (placement.ts)
      const d = x.atTarget ? 0 : Math.abs(x.t_s - target);
      return Math.max(0, 1 - d / tau[k]!);
    });
    return { scores, alignment: [] };
  }
  const placedIn = p.map((x) => (x.t_s === null ? null : shotAt(shots, x.t_s)));
  const alignment = alignShots(
    keyframes.map((k) => k.shot_index ?? 0),
    placedIn,
    shots.length,
  );
  const scores = p.map((x, k) => {
    if (x.t_s === null) return 0;
    const kf = keyframes[k]!;
    const aligned = alignment[kf.shot_index ?? 0] ?? null;
    const shot = aligned === null ? undefined : shots[aligned];
    if (!shot || placedIn[k] !== aligned) return 0;
    const len = shot.end_s - shot.start_s;
    const pos = kf.shot_position ?? 'representative';
    if (pos === 'first') return x.t_s < shot.start_s + o.positionFraction * len ? 1 : 0.5;
    if (pos === 'last') return x.t_s >= shot.end_s - o.positionFraction * len ? 1 : 0.5;
    return 1;
  });
  return { scores, alignment };
}
