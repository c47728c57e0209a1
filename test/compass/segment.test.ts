/**
 * The judge segmenter (seed E.2): the reply contract, shots from boundaries, the agreement count,
 * and the emulator's segmentation of rendered mini videos over real HTTP.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedCase, loadCases } from '../../src/compass/cases/cases.js';
import {
  boundariesOf,
  judgeSegments,
  type Segmentation,
  segmenterAgreement,
  segmentSchema,
  shotsFromBoundaries,
} from '../../src/compass/quality/segment.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { probe } from '../../src/media/probe.js';
import type { MiniCompassPaths } from '../../src/synthetic/mini-compass/build.js';
import { emulatorJudge } from '../support/emulator.js';
import { sharedMiniCompass } from '../support/mini-compass.js';

describe('segmentation contract', () => {
  const schema = segmentSchema(['a', 'b'], 10);
  const ok = (v: unknown) => schema.safeParse(v).success;
  it('accepts increasing boundaries inside the video and every keyframe once, null for none', () => {
    expect(
      ok({
        boundaries_s: [3.5, 5],
        assignments: [
          { kf_id: 'a', shot: 0 },
          { kf_id: 'b', shot: null },
        ],
      }),
    ).toBe(true);
    expect(
      ok({
        boundaries_s: [],
        assignments: [
          { kf_id: 'a', shot: 0 },
          { kf_id: 'b', shot: 0 },
        ],
      }),
    ).toBe(true);
  });
  it('rejects boundaries out of order or outside the video, unknown, repeated or missing keyframes, shots that do not exist', () => {
    const both = [
      { kf_id: 'a', shot: 0 },
      { kf_id: 'b', shot: 0 },
    ];
    expect(ok({ boundaries_s: [5, 3.5], assignments: both })).toBe(false);
    expect(ok({ boundaries_s: [10], assignments: both })).toBe(false);
    expect(ok({ boundaries_s: [0], assignments: both })).toBe(false);
    expect(ok({ boundaries_s: [], assignments: [{ kf_id: 'a', shot: 0 }] })).toBe(false);
    expect(ok({ boundaries_s: [], assignments: [...both, { kf_id: 'c', shot: 0 }] })).toBe(false);
    expect(ok({ boundaries_s: [], assignments: [...both, { kf_id: 'a', shot: 0 }] })).toBe(false);
    expect(
      ok({
        boundaries_s: [2],
        assignments: [
          { kf_id: 'a', shot: 2 },
          { kf_id: 'b', shot: 0 },
        ],
      }),
    ).toBe(false);
  });
  it('shots from boundaries; agreement counts shot counts and boundaries within the tolerance, one to one', () => {
    expect(shotsFromBoundaries([3.5, 5], 10)).toEqual([
      { start_s: 0, end_s: 3.5 },
      { start_s: 3.5, end_s: 5 },
      { start_s: 5, end_s: 10 },
    ]);
    expect(boundariesOf(shotsFromBoundaries([3.5, 5], 10))).toEqual([3.5, 5]);
    const tol = 2 / 24;
    expect(
      segmenterAgreement([
        { a: [3.5, 5], b: [3.55, 5.08], tolerance_s: tol }, // both within ±2 frames
        { a: [3.5, 5], b: [3.5, 5.2], tolerance_s: tol }, // same count, one boundary off
        { a: [3.5], b: [], tolerance_s: tol }, // a missed cut
        { a: [], b: [], tolerance_s: tol }, // one take both
      ]),
    ).toEqual({ videos: 4, same_count: 3, same_boundaries: 2, matched: 3, a_total: 5, b_total: 4 });
  });
});

describe('the emulator segments rendered videos', () => {
  let p: MiniCompassPaths;
  let cases: LoadedCase[];
  let j: Awaited<ReturnType<typeof emulatorJudge>>;
  beforeAll(async () => {
    p = await sharedMiniCompass();
    cases = await loadCases(p.cases);
    j = await emulatorJudge();
  });
  afterAll(() => j.close());

  const segment = async (model: string, id: string) => {
    const c = cases.find((x) => x.case_id === id)!;
    const info = await probe(join(p.videos, model, `${id}__minimal.mp4`));
    return {
      c,
      r: (await judgeSegments({ judge: j.judge, encoder: new ImageEncoder(384), c, info })) as Segmentation,
    };
  };

  it('a one-take stays one shot; an unasked-for cut breaks it; a multi-shot video has its cuts', async () => {
    const take = await segment('faithful', 'ot-03');
    expect(take.r.shots).toHaveLength(1);
    expect(Object.values(take.r.assignments)).toEqual([0, 0, 0]);
    // the cut model replaces the middle transition by a cut to an unrelated image (and back)
    expect((await segment('cut', 'ot-03')).r.shots.length).toBeGreaterThan(1);
    const ms = await segment('faithful', 'ms-06');
    const wanted = new Set(ms.c.keyframes.map((k) => k.shot_index)).size;
    expect(ms.r.shots).toHaveLength(wanted);
    // every keyframe assigned to its intended shot
    expect(ms.c.keyframes.map((k) => ms.r.assignments[k.kf_id])).toEqual(
      ms.c.keyframes.map((k) => k.shot_index),
    );
  });

  it('a keyframe the video never shows is left unassigned', async () => {
    const { c, r } = await segment('missing', 'ot-03');
    // the missing model shows an unrelated image in keyframe ⌊N/2⌋'s place
    expect(r.assignments[c.keyframes[1]!.kf_id]).toBeNull();
  });
});
