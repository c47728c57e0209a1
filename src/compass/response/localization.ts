/**
 * Localization.
 *  - One-take: max(0, 1 − |t(k) − t_target| / τ_k), τ_k = half the gap to the nearest
 *    neighbouring target.
 *  - Multi-shot: the intended shot is the `shot_index`-th detected shot (so an unasked-for cut
 *    displaces what follows it); 1 when t(k) lies in it at the intended position (the first or
 *    last `positionFraction` of the shot; anywhere for "representative"), 0.5 in the right shot
 *    at the wrong position, else 0.
 * Unmatched → 0.
 */
import type { Keyframe, Structure } from '../cases.js';
import type { ResponseOptions } from './options.js';
import type { Placement } from './placement.js';
import type { ScanShot } from './scan.js';

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

export function localization(
  structure: Structure,
  keyframes: readonly Pick<Keyframe, 't_target_s' | 'shot_index' | 'shot_position'>[],
  p: readonly Placement[],
  shots: readonly ScanShot[],
  o: Pick<ResponseOptions, 'positionFraction'>,
): number[] {
  if (structure === 'one_take') {
    const tau = targetTolerances(keyframes.map((k) => k.t_target_s ?? 0));
    return p.map((x, k) => {
      if (x.t_s === null) return 0;
      const d = Math.abs(x.t_s - keyframes[k]!.t_target_s!);
      return Math.max(0, 1 - d / tau[k]!);
    });
  }
  return p.map((x, k) => {
    if (x.t_s === null) return 0;
    const kf = keyframes[k]!;
    const shot = shots[kf.shot_index ?? -1];
    if (!shot || shotAt(shots, x.t_s) !== kf.shot_index) return 0;
    const len = shot.end_s - shot.start_s;
    const pos = kf.shot_position ?? 'representative';
    if (pos === 'first') return x.t_s < shot.start_s + o.positionFraction * len ? 1 : 0.5;
    if (pos === 'last') return x.t_s >= shot.end_s - o.positionFraction * len ? 1 : 0.5;
    return 1;
  });
}
