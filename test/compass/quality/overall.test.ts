/**
 * The two Overalls (video-only and joint audio-video) of one video — keyframe control first, then
 * the general-quality groups (seed §4.2) — and what a model's Overall row flags.
 */
import { describe, expect, it } from 'vitest';
import { caseOverall, overallOf } from '../../../src/compass/overall/aggregate.js';
import { modelOverall } from '../../../src/compass/overall/overall.js';
import type { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';

const g = (score: number | null, incomplete: string[] = []) => ({ score, incomplete }) as never;
const base = {
  keyframe_fidelity: 0.9,
  temporal_organization: 0.8,
  visual_quality: 0.7,
  spatiotemporal_coherence: 0.6,
  instruction_adherence: 0.5,
};
const quality = (av: ReturnType<typeof g>, audio_track?: boolean) => ({
  groups: {
    visual_quality: g(0.7),
    spatiotemporal_coherence: g(0.6),
    instruction_adherence: g(0.5),
    av_coordination: av,
  },
  ...(audio_track === undefined ? {} : { audio_track }),
});
/** keyframe control = mean(KF, TO) = 0.85, then the mean with the three quality groups */
const VIDEO = (0.85 + 0.7 + 0.6 + 0.5) / 4;

describe('Overall, video-only and joint audio-video', () => {
  it('Keyframe Fidelity and Temporal Organization enter as one keyframe-control score (seed §4.2), not as two groups of five', () => {
    const o = overallOf(base, quality(g(0.2), true));
    expect(o.score).toBeCloseTo(VIDEO, 12);
    expect(o.score).not.toBeCloseTo((0.9 + 0.8 + 0.7 + 0.6 + 0.5) / 5, 6); // the old five-group mean
    expect(o.joint_av!.score).toBeCloseTo((0.85 + 0.7 + 0.6 + 0.5 + 0.2) / 5, 12);
    expect(o.joint_av!.missing).toEqual([]);
    expect(o.joint_av!.no_audio_track).toBeUndefined();
  });

  it('--keyframe-control separate: the other reading, the two response groups as two of five (kfbench before issue 44)', () => {
    const o = overallOf(base, quality(g(0.2), true), 'separate');
    expect(o.score).toBeCloseTo((0.9 + 0.8 + 0.7 + 0.6 + 0.5) / 5, 12);
    expect(o.joint_av!.score).toBeCloseTo((0.9 + 0.8 + 0.7 + 0.6 + 0.5 + 0.2) / 6, 12);
  });

  it('--video-quality one: the other reading of Table 3, the three quality groups as one Video Quality group', () => {
    const o = overallOf(base, quality(g(0.2), true), 'combined', 'one');
    const vq = (0.7 + 0.6 + 0.5) / 3;
    expect(o.score).toBeCloseTo((0.85 + vq) / 2, 12);
    expect(o.joint_av!.score).toBeCloseTo((0.85 + vq + 0.2) / 3, 12);
    // a quality group not measured leaves the others' mean as Video Quality
    const part = overallOf({ ...base, instruction_adherence: null }, undefined, 'combined', 'one');
    expect(part.score).toBeCloseTo((0.85 + (0.7 + 0.6) / 2) / 2, 12);
    expect(part.missing).toEqual(['instruction_adherence']);
  });

  it('a video without an audio track, audio judged (AVC settled, nothing incomplete): AV Coordination 0 on the joint Overall, marked', () => {
    const o = overallOf(base, quality(g(null), false));
    expect(o.score).toBeCloseTo(VIDEO, 12);
    expect(o.joint_av).toEqual({
      score: (0.85 + 0.7 + 0.6 + 0.5 + 0) / 5,
      missing: [],
      no_audio_track: true,
    });
  });

  it('AV applies but was not measured: left out of the joint Overall and listed as missing; incomplete groups listed', () => {
    const q = quality(g(null, ['AVC']), false);
    q.groups.instruction_adherence = g(0.5, ['AMA']);
    const o = overallOf(base, q);
    expect(o.joint_av).toEqual({ score: o.score, missing: ['av_coordination'] });
    expect(o.incomplete).toEqual(['instruction_adherence: AMA']);
    const c = caseOverall([o, overallOf(base, quality(g(0.4), true))]);
    expect(c.joint_av!.missing).toEqual(['av_coordination']);
    expect(c.joint_av!.score).toBeCloseTo((VIDEO + (0.85 + 0.7 + 0.6 + 0.5 + 0.4) / 5) / 2, 12);
    expect(c.incomplete).toEqual(['instruction_adherence: AMA']);
  });
});

describe('the below-rate line', () => {
  it('lists every video judged below 8 fps, capped by --frame-budget or not', () => {
    const v = (case_id: string, effective_fps: number, capped: boolean) =>
      ({
        case_id,
        model: 'm',
        prompt_mode: 'minimal',
        run: 0,
        status: 'scored',
        response: { groups: { keyframe_fidelity: 1, temporal_organization: 1 } },
        quality: {
          frames: { count: 10, fps: 8, effective_fps, capped_by_budget: capped },
          ...quality(g(null)),
        },
        overall: overallOf(base, quality(g(null))),
      }) as unknown as VideoEvaluation;
    const m = modelOverall([v('a', 4, true), v('b', 6, false), v('c', 8, false)], 'm');
    expect(m.below_rate).toEqual(['a__minimal at 4.00 fps', 'b__minimal at 6.00 fps']);
  });
});
