/** The six metrics on hand-made similarity curves, where the definitions give exact answers. */
import { describe, expect, it } from 'vitest';
import { fidelity, pixelScore } from '../../../src/compass/response/fidelity.js';
import {
  alignShots,
  localization,
  shotAt,
  targetTolerances,
} from '../../../src/compass/response/localization.js';
import { DEFAULT_RESPONSE_OPTIONS as D } from '../../../src/compass/response/options.js';
import { ordering } from '../../../src/compass/response/ordering.js';
import { persistence } from '../../../src/compass/response/persistence.js';
import { type Placement, place } from '../../../src/compass/response/placement.js';
import { scoreResponse } from '../../../src/compass/response/report.js';
import { uniqueness } from '../../../src/compass/response/uniqueness.js';
import { runsAtLeast } from '../../../src/compass/scan/runs.js';
import type { Scan } from '../../../src/compass/schemas/scan.js';

const FPS = 10;

/** A scan of `frames` frames at 10 fps; curve k is low except where `on[k]` says. */
function scan(frames: number, on: [number, number, number][][], shots?: [number, number][]): Scan {
  const sims = on.map((spans) => {
    const s = new Array<number>(frames).fill(0.1);
    for (const [a, b, v] of spans) for (let j = a; j <= b; j++) s[j] = v;
    return s;
  });
  return {
    video: { width: 64, height: 36, fps: FPS, frames, duration_s: frames / FPS },
    sample_fps: FPS,
    times: Array.from({ length: frames }, (_, j) => j / FPS),
    sims,
    peaks: sims.map((s) => ({
      frame: s.indexOf(Math.max(...s)),
      cos: Math.max(...s),
      psnr_db: 40,
      ssim: 0.95,
    })),
    shots: (shots ?? [[0, frames / FPS]]).map(([start_s, end_s]) => ({ start_s, end_s })),
  };
}

const placed = (sc: Scan, gamma = 0.8) => sc.sims.map((_, k) => place(sc, k, gamma, D));

describe('placement', () => {
  it('finds runs at or above a threshold', () => {
    expect(runsAtLeast([0, 1, 1, 0, 1], 0.5)).toEqual([
      [1, 2],
      [4, 4],
    ]);
    expect(runsAtLeast([1, 1], 0.5)).toEqual([[0, 1]]);
  });

  it("t(k) is a frame's presentation time: f*'s without a target, the hold's frame nearest the target with one; ties go to the earliest frame", () => {
    const sc = scan(40, [[[10, 19, 0.95]]]); // frames 10..19 (10 fps) cover [1.0, 2.0)
    const p = place(sc, 0, 0.8, D);
    expect(p.matched).toBe(true);
    expect(p.peak).toBe(10);
    expect(p.t_peak_s).toBeCloseTo(1.0, 12);
    expect(p.t_s).toBe(p.t_peak_s); // never the hold's middle (1.5)
    // a target the hold is on screen at: the frame shown then, and no distance for localization
    expect(place(sc, 0, 0.8, D, 1.55)).toMatchObject({ t_s: 1.5, atTarget: true });
    expect(place(sc, 0, 0.8, D, 1.0)).toMatchObject({ t_s: 1.0, atTarget: true });
    // before the hold: its first frame; at or after its end: its last frame
    expect(place(sc, 0, 0.8, D, 0.5)).toMatchObject({ t_s: 1.0 });
    expect(place(sc, 0, 0.8, D, 0.5).atTarget).toBeUndefined();
    expect(place(sc, 0, 0.8, D, 2.0).t_s).toBeCloseTo(1.9, 12);
    // --place-at peak: f*'s own time whatever the target
    expect(place(sc, 0, 0.8, { ...D, placeAt: 'peak' }, 1.55)).toMatchObject({ t_s: 1.0 });
    expect(place(sc, 0, 0.8, { ...D, placeAt: 'peak' }, 1.55).atTarget).toBeUndefined();
  });

  it('frames within 0.02 of the best belong to the hold; lower ones do not', () => {
    const p = place(
      scan(40, [
        [
          [10, 13, 0.9],
          [14, 15, 0.915],
          [16, 19, 0.85],
        ],
      ]),
      0,
      0.8,
      D,
    );
    expect(p.hold).toEqual([10, 15]); // 0.9 ≥ 0.915 − 0.02, 0.85 is not
    expect(p.peakRun).toEqual([10, 19]);
  });

  it('a keyframe matched in two runs is placed by the earliest run near the best', () => {
    const p = place(
      scan(60, [
        [
          [5, 9, 0.94],
          [40, 44, 0.95],
        ],
      ]),
      0,
      0.8,
      D,
    );
    expect(p.t_s).toBeCloseTo(0.5, 12); // not 4.0: a repeat does not move the keyframe
    expect(p.peak).toBe(40);
    const q = place(
      scan(60, [
        [
          [5, 9, 0.85],
          [40, 44, 0.95],
        ],
      ]),
      0,
      0.8,
      D,
    );
    expect(q.t_s).toBeCloseTo(4.0, 12); // the earlier run is not within 0.02 of the best
  });

  it('below γ is unmatched', () => {
    const p = place(scan(20, [[[5, 9, 0.79]]]), 0, 0.8, D);
    expect(p).toMatchObject({ matched: false, t_s: null, hold: null });
  });
});

describe('ordering', () => {
  const at = (ts: (number | null)[]): Placement[] =>
    ts.map((t) => ({
      matched: t !== null,
      t_s: t,
      peak: 0,
      cos: 1,
      t_peak_s: 0,
      hold: null,
      peakRun: null,
      runs: [],
    }));

  it('is the longest strictly increasing subsequence over N; per keyframe its share of the longest ones', () => {
    expect(ordering(at([1, 2, 3, 4]))).toEqual({ score: 1, lis: 4, perKeyframe: [1, 1, 1, 1] });
    const swapped = ordering(at([1, 3, 2, 4]));
    expect(swapped.score).toBe(0.75);
    expect(swapped.perKeyframe).toEqual([1, 0.5, 0.5, 1]);
    const rotated = ordering(at([4, 1, 2, 3]));
    expect(rotated.perKeyframe).toEqual([0, 1, 1, 1]);
    const reversed = ordering(at([3, 2, 1]));
    expect(reversed.score).toBeCloseTo(1 / 3, 12);
    expect(reversed.perKeyframe.map((x) => x.toFixed(4))).toEqual(['0.3333', '0.3333', '0.3333']);
  });

  it('per-keyframe shares always average to the case score', () => {
    const cases = [
      [5, 1, 4, 2, 3, 6],
      [2, 2, 2],
      [1, null, 3, 2],
      [9, 8, 7, 1, 2, 3, 6, 5, 4],
    ];
    for (const ts of cases) {
      const r = ordering(at(ts));
      const mean = r.perKeyframe.reduce((a, b) => a + b, 0) / ts.length;
      expect(mean).toBeCloseTo(r.score, 12);
    }
  });

  it('equal times are not increasing; unmatched keyframes score 0 and stay in N', () => {
    expect(ordering(at([1, 1, 2])).score).toBeCloseTo(2 / 3, 12);
    const r = ordering(at([1, null, 3]));
    expect(r.score).toBeCloseTo(2 / 3, 12);
    expect(r.perKeyframe[1]).toBe(0);
  });
});

describe('localization', () => {
  it('one-take: 1 − |Δt|/τ with τ half the gap to the nearest target', () => {
    expect(targetTolerances([1, 3, 4])).toEqual([1, 0.5, 0.5]);
    const sc = scan(60, [[[8, 11, 0.9]], [[33, 36, 0.9]], [[40, 43, 0.9]]]);
    const kfs = [{ t_target_s: 1 }, { t_target_s: 3 }, { t_target_s: 4 }];
    // without the targets: f*'s own times 0.8, 3.3 and 4.0
    const loc = localization('one_take', kfs, placed(sc), sc.shots, D);
    expect(loc[0]).toBeCloseTo(1 - 0.2 / 1, 12); // t = 0.8
    expect(loc[1]).toBeCloseTo(1 - 0.3 / 0.5, 12); // t = 3.3
    expect(loc[2]).toBeCloseTo(1, 12); // t = 4.0
    // with them, t(k) is the hold's frame nearest the target: frames 8..11 are on screen at 1.0
    // (shown at its target: 1), 33..36 start after 3 (their first, 3.3), 40..43 start at 4.0
    const at = sc.sims.map((_, k) => place(sc, k, 0.8, D, kfs[k]!.t_target_s));
    const loc2 = localization('one_take', kfs, at, sc.shots, D);
    expect(at.map((x) => x.t_s)).toEqual([1, 3.3, 4]);
    expect(loc2[0]).toBeCloseTo(1, 12);
    expect(loc2[1]).toBeCloseTo(1 - 0.3 / 0.5, 12);
    expect(loc2[2]).toBeCloseTo(1, 12);
  });

  it('multi-shot: 1 at the intended position, 0.5 elsewhere in the shot, 0 in another shot', () => {
    const shots: [number, number][] = [
      [0, 2],
      [2, 6],
    ];
    // shot 1 is [2, 6): first quarter [2, 3), last quarter [5, 6)
    const sc = scan(60, [[[20, 21, 0.9]], [[40, 41, 0.9]], [[52, 53, 0.9]], [[5, 6, 0.9]]], shots);
    const kfs = [
      { shot_index: 1, shot_position: 'first' as const },
      { shot_index: 1, shot_position: 'first' as const },
      { shot_index: 1, shot_position: 'last' as const },
      { shot_index: 1, shot_position: 'representative' as const },
    ];
    expect(localization('multi_shot', kfs, placed(sc), sc.shots, D)).toEqual([1, 0.5, 1, 0]);
    expect(shotAt(sc.shots, 2)).toBe(1);
    expect(shotAt(sc.shots, 6)).toBe(1);
    expect(shotAt(sc.shots, 7)).toBe(null);
  });

  it('a missing cut (fewer shots detected): one intended shot gets the merged shot, the earlier on a tie', () => {
    const sc = scan(30, [[[5, 6, 0.9]], [[15, 16, 0.9]], [[25, 26, 0.9]]]);
    const kfs = [0, 1, 2].map((shot_index) => ({ shot_index }));
    expect(localization('multi_shot', kfs, placed(sc), sc.shots, D)).toEqual([1, 0, 0]);
  });

  it('alignShots: monotone, one-to-one, the most keyframes in their intended shot, ties to the earlier shot', () => {
    // intended shots of six keyframes, and the detected shot each landed in
    expect(alignShots([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2], 3)).toEqual([0, 1, 2]);
    // an extra cut inside shot 0: its keyframes split 1–1 over detected 0 and 1 → the earlier
    expect(alignShots([0, 0, 1, 1, 2, 2], [0, 1, 2, 2, 3, 3], 4)).toEqual([0, 2, 3]);
    // split 1–2: the majority wins
    expect(alignShots([0, 0, 0, 1], [0, 1, 1, 2], 3)).toEqual([1, 2]);
    // crossing is not allowed: shot 1's keyframe before shot 0's cannot both count (tie → earlier detected shot)
    expect(alignShots([0, 1], [1, 0], 2)).toEqual([null, 0]);
    // unmatched keyframes are never counted; a shot none of whose keyframes landed stays unaligned
    expect(alignShots([0, 1, 2], [0, null, 2], 3)).toEqual([0, null, 2]);
  });

  it('one extra cut early moves only the keyframes of the shot it falls in', () => {
    // three intended shots, two keyframes each (first, last); frames at 10 fps over 6 s
    const curves: [number, number, number][][] = [
      [[1, 2, 0.9]], // t = 0.15: first quarter of shot 0 either way
      [[17, 18, 0.9]], // t = 1.75
      [[21, 22, 0.9]],
      [[36, 37, 0.9]],
      [[41, 42, 0.9]],
      [[56, 57, 0.9]],
    ];
    const kfs = [0, 0, 1, 1, 2, 2].map((shot_index, k) => ({
      kf_id: `k${k}`,
      image: '',
      shot_index,
      shot_position: k % 2 ? ('last' as const) : ('first' as const),
    }));
    const c = { case_id: 'x', structure: 'multi_shot' as const, keyframes: kfs };
    const clean = scan(60, curves, [
      [0, 2],
      [2, 4],
      [4, 6],
    ]);
    const extra = scan(60, curves, [
      [0, 1],
      [1, 2],
      [2, 4],
      [4, 6],
    ]);
    const a = scoreResponse(c, clean, { id: 'test', defaultThreshold: 0.8 });
    const b = scoreResponse(c, extra, { id: 'test', defaultThreshold: 0.8 });
    const loc = (r: typeof a) => r.keyframes.map((k) => k.scores.localization);
    expect(loc(a)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(loc(b).slice(2)).toEqual(loc(a).slice(2));
    expect(loc(b).slice(0, 2)).toEqual([1, 0]);
    expect(b.keyframes.map((k) => k.shot)).toEqual([0, 1, 2, 2, 3, 3]);
    expect(b.keyframes.map((k) => k.aligned_shot)).toEqual([0, 0, 2, 2, 3, 3]);
  });
});

describe('persistence and uniqueness', () => {
  it('persistence: the γ-run around f* in seconds, over 0.5 s, at most 1; one frame is 1/fps', () => {
    const sc = scan(60, [[[10, 12, 0.9]], [[20, 20, 0.9]], [[30, 39, 0.9]]]);
    const r = persistence(placed(sc), FPS, D);
    expect(r.seconds).toEqual([0.3, 0.1, 1]);
    expect(r.scores.map((x) => +x.toFixed(12))).toEqual([0.6, 0.2, 1]);
  });

  it('uniqueness: 1 / separate runs (runs < 0.5 s apart are one); halved when holds overlap', () => {
    const sc = scan(80, [
      [
        [0, 4, 0.9],
        [7, 9, 0.9],
      ], // gap 0.2 s: one run
      [
        [20, 24, 0.9],
        [40, 44, 0.9],
        [60, 64, 0.9],
      ], // three runs
      [[70, 75, 0.9]],
      [[73, 78, 0.9]], // overlaps keyframe 2's hold
    ]);
    const u = uniqueness(placed(sc), sc, D);
    expect(u.runs).toEqual([1, 3, 1, 1]);
    expect(u.sharedHold).toEqual([false, false, true, true]);
    expect(u.scores.map((x) => +x.toFixed(12))).toEqual([1, 0.333333333333, 0.5, 0.5]);
  });
});

describe('fidelity', () => {
  it('pixel score and KFS as defined; unmatched keyframes count as 0 in the mean', () => {
    expect(pixelScore({ psnr_db: 31, ssim: 0.825 }, D)).toBeCloseTo(0.5 * (0.5 + 0.5), 12);
    expect(pixelScore({ psnr_db: 5, ssim: 0.2 }, D)).toBe(0);
    expect(pixelScore({ psnr_db: null, ssim: 1 }, D)).toBe(1); // identical
    const sc = scan(20, [[[5, 6, 0.9]], [[10, 11, 0.5]]]);
    sc.peaks[0] = { frame: 5, cos: 0.9, psnr_db: 31, ssim: 0.825 };
    const f = fidelity(placed(sc), sc.peaks, D);
    expect(f[0]).toBeCloseTo(0.5 * (0.5 + 0.9), 12);
    expect(f[1]).toBe(0);
    expect(fidelity(placed(sc), sc.peaks, { ...D, fusion: 0.3 })[0]).toBeCloseTo(0.3 * 0.5 + 0.7 * 0.9, 12);
  });

  it("one frame for both terms (issue 44 item 6): stage 2's f*(k) when its cosine ties the best within --kfs-tie, else the highest-cosine frame", () => {
    // the highest-cosine frame (5) at 31 dB / 0.825; stage 2's f*(k) (frame 6) matches losslessly
    const sc = scan(20, [[[5, 6, 0.9]]]);
    sc.peaks[0] = { frame: 5, cos: 0.9, psnr_db: 31, ssim: 0.825 };
    const staged = (cos: number | null) => {
      sc.refined = [
        { run: [5, 6], window: [4, 7], frame: 6, t_s: 0.6, hold: [6, 6], hold_s: [0.6, 0.7] },
      ].map((r) => ({ ...r, luma_psnr_db: null, psnr_db: null, ssim: 1, cos })) as Scan['refined'];
      return placed(sc);
    };
    // f*(k)'s cosine 0.8995: within 0.001 of the best, so KFS is all f*(k)'s: its cos and its pixels
    expect(fidelity(staged(0.8995), sc.peaks, D)[0]).toBeCloseTo(0.5 * 1 + 0.5 * 0.8995, 12);
    // 0.85: not a tie, so KFS is all the highest-cosine frame's (before: its cos with f*'s pixels, 0.95)
    expect(fidelity(staged(0.85), sc.peaks, D)[0]).toBeCloseTo(0.5 * 0.5 + 0.5 * 0.9, 12);
    expect(fidelity(staged(0.85), sc.peaks, { ...D, kfsTie: 0.06 })[0]).toBeCloseTo(0.5 * 1 + 0.5 * 0.85, 12);
    // f*(k) not sampled by stage 1 (no cosine of its own): the highest-cosine frame
    expect(fidelity(staged(null), sc.peaks, D)[0]).toBeCloseTo(0.5 * 0.5 + 0.5 * 0.9, 12);
    // --kfs-frame peak: the highest-cosine frame, whatever stage 2 found
    expect(fidelity(staged(0.9), sc.peaks, { ...D, kfsFrame: 'peak' })[0]).toBeCloseTo(
      0.5 * 0.5 + 0.5 * 0.9,
      12,
    );
    // the report carries the KFS frame's cos, PSNR and SSIM (what `compass sensitivity` recomputes from)
    staged(0.8995);
    const c = {
      case_id: 'x',
      structure: 'one_take' as const,
      keyframes: [{ kf_id: 'a', image: '', t_target_s: 0.6 }],
    };
    const k = scoreResponse(c, sc, { id: 'test', defaultThreshold: 0.8 }).keyframes[0]!;
    expect(k).toMatchObject({ cos: 0.8995, psnr_db: null, ssim: 1 });
    expect(k.scores.fidelity).toBeCloseTo(0.5 * 1 + 0.5 * 0.8995, 6);
    const kp = scoreResponse(c, sc, { id: 'test', defaultThreshold: 0.8 }, { kfsFrame: 'peak' })
      .keyframes[0]!;
    expect(kp).toMatchObject({ cos: 0.9, psnr_db: 31, ssim: 0.825 });
  });
});

describe('the report', () => {
  it('groups are the means SPEC §3.2 names, shots list their keyframes, unmatched ones stay unassigned', () => {
    const sc = scan(
      60,
      [[[5, 14, 0.95]], [[40, 49, 0.95]], [[20, 22, 0.3]]],
      [
        [0, 3],
        [3, 6],
      ],
    );
    const c = {
      case_id: 'x',
      structure: 'multi_shot' as const,
      keyframes: [
        { kf_id: 'a', image: '', shot_index: 0, shot_position: 'representative' as const },
        { kf_id: 'b', image: '', shot_index: 1, shot_position: 'representative' as const },
        { kf_id: 'c', image: '', shot_index: 1, shot_position: 'last' as const },
      ],
    };
    const r = scoreResponse(c, sc, { id: 'test', defaultThreshold: 0.8 });
    expect(r.gamma).toBe(0.8);
    expect(r.metrics.presence).toBeCloseTo(2 / 3, 6);
    expect(r.groups.keyframe_fidelity).toBeCloseTo((r.metrics.presence + r.metrics.fidelity) / 2, 6);
    const m = r.metrics;
    expect(r.groups.temporal_organization).toBeCloseTo(
      (m.ordering + m.localization + m.persistence + m.uniqueness) / 4,
      6,
    );
    expect(r.shots.map((s) => s.keyframes)).toEqual([['a'], ['b']]);
    expect(r.keyframes[2]).toMatchObject({ matched: false, shot: null, t_best_s: null, psnr_db: null });
    expect(scoreResponse(c, sc, { id: 'test', defaultThreshold: 0.8 }, { gamma: 0.2 }).metrics.presence).toBe(
      1,
    );
  });
});
