/** The two Overalls (video-only and joint audio-video) and what a model's Overall row flags. */
import { describe, expect, it } from 'vitest';
import { caseOverall, overallOf } from '../../../src/compass/quality/aggregate.js';
import { modelOverall } from '../../../src/compass/quality/overall.js';
import type { VideoEvaluation } from '../../../src/compass/results.js';

const g = (score: number | null, incomplete: string[] = []) => ({ score, incomplete }) as never;
const base = {
  keyframe_fidelity: 0.9,
  temporal_organization: 0.8,
  visual_quality: 0.7,
  spatiotemporal_coherence: 0.6,
  instruction_adherence: 0.5,
};
const quality = (av: ReturnType<typeof g>) => ({
  visual_quality: g(0.7),
  spatiotemporal_coherence: g(0.6),
  instruction_adherence: g(0.5),
  av_coordination: av,
});

describe('Overall, video-only and joint audio-video', () => {
  it('the joint AV Overall adds AV Coordination where it was scored; the video-only one never does', () => {
    const o = overallOf(base, quality(g(0.2)));
    expect(o.score).toBeCloseTo(0.7, 12);
    expect(o.joint_av!.score).toBeCloseTo((0.9 + 0.8 + 0.7 + 0.6 + 0.5 + 0.2) / 6, 12);
    expect(o.joint_av!.missing).toEqual([]);
  });

  it('AV not applicable (no audio requested): both Overalls are the five groups, nothing missing', () => {
    const o = overallOf(base, quality(g(null)));
    expect(o.joint_av).toEqual({ score: o.score, missing: [] });
  });

  it('AV applies but was not measured: left out of the joint Overall and listed as missing; incomplete groups listed', () => {
    const q = { ...quality(g(null, ['AVC'])), instruction_adherence: g(0.5, ['AMA']) };
    const o = overallOf(base, q);
    expect(o.joint_av).toEqual({ score: o.score, missing: ['av_coordination'] });
    expect(o.incomplete).toEqual(['instruction_adherence: AMA']);
    const c = caseOverall([o, overallOf(base, quality(g(0.4)))]);
    expect(c.joint_av!.missing).toEqual(['av_coordination']);
    expect(c.joint_av!.score).toBeCloseTo((0.7 + (3.5 + 0.4) / 6) / 2, 12);
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
          groups: quality(g(null)),
        },
        overall: overallOf(base, quality(g(null))),
      }) as unknown as VideoEvaluation;
    const m = modelOverall([v('a', 4, true), v('b', 6, false), v('c', 8, false)], 'm');
    expect(m.below_rate).toEqual(['a__minimal at 4.00 fps', 'b__minimal at 6.00 fps']);
  });
});
