/**
 * The mini set's quality faults against the emulator over real HTTP: each lowers its target
 * quality metric, and the keyframe metrics stay where they belong. This proves the plumbing —
 * the emulator was written to notice these faults; what a real judge notices is measured with a
 * real judge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../../src/compass/cases/cases.js';
import type { QualityMetric } from '../../../src/compass/quality/metrics.js';
import { type EvaluateResult, evaluateCompass } from '../../../src/compass/run/evaluate.js';
import type { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ImageEncoder } from '../../../src/judge/images.js';
import type { QualityModel } from '../../../src/synthetic/mini-compass/plans.js';
import { emulatorJudge } from '../../support/emulator.js';
import { sharedMiniCompass } from '../../support/mini-compass.js';

const TARGET: Record<QualityModel, QualityMetric> = {
  blurred: 'SVQ',
  flicker: 'DVQ',
  frozen: 'DVQ',
  'colour-drift': 'AC',
  cut: 'VMA',
};

let r: EvaluateResult;
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const p = await sharedMiniCompass();
  const cases = (await loadCases(p.cases)).filter((c) => ['ot-03', 'ms-06'].includes(c.case_id));
  const j = await emulatorJudge();
  close = () => j.close();
  r = await evaluateCompass({
    cases,
    videos: p.videos,
    models: ['faithful', ...p.qualityModels],
    modes: ['minimal'],
    embedder: createBuiltinEmbedder(),
    judge: j.judge,
    encoder: new ImageEncoder(384),
  });
});
afterAll(() => close());

const get = (model: string, id: string): VideoEvaluation =>
  r.videos.find((v) => v.model === model && v.case_id === id)!;

describe('mini Compass quality faults (emulator)', () => {
  it('the faithful video scores full marks on the metrics the emulator can see', () => {
    for (const id of ['ot-03', 'ms-06']) {
      const m = get('faithful', id).quality.metrics;
      for (const k of ['SVQ', 'DVQ', 'AC', 'VMA'] as const) expect(m[k].score, `${id} ${k}`).toBe(1);
    }
  });

  for (const [model, metric] of Object.entries(TARGET))
    it(`${model} lowers ${metric} by at least 0.25 in every case`, () => {
      for (const id of ['ot-03', 'ms-06']) {
        const faithful = get('faithful', id).quality.metrics[metric].score!;
        const faulty = get(model, id).quality.metrics[metric];
        expect(faulty.status).toBe('scored');
        expect(faulty.score!, `${model} ${id}`).toBeLessThanOrEqual(faithful - 0.25);
        // the evidence cites times inside the video
        for (const it of faulty.items!)
          for (const e of it.evidence) expect(e.t_end_s).toBeGreaterThanOrEqual(e.t_start_s);
      }
    });

  it('keyframe metrics stay where they belong', () => {
    const near = (a: number, b: number) => Math.abs(a - b) <= 0.05;
    for (const id of ['ot-03', 'ms-06']) {
      const base = get('faithful', id).response.groups;
      // a freeze after the last keyframe, and a colour drift the embedder still matches, leave them
      for (const m of ['frozen', 'colour-drift']) {
        const g = get(m, id).response.groups;
        expect(
          near(g.keyframe_fidelity, base.keyframe_fidelity) &&
            near(g.temporal_organization, base.temporal_organization),
          `${m} ${id}`,
        ).toBe(true);
      }
      // blur costs pixel fidelity, as KFS should
      expect(get('blurred', id).response.groups.keyframe_fidelity).toBeLessThan(base.keyframe_fidelity - 0.1);
    }
    // an unasked-for cut in a one-take leaves the keyframes in place; in a multi-shot case it adds
    // shots, which displaces the keyframes after it (SPEC §3.2: the i-th detected shot is shot i)
    const cut = get('cut', 'ot-03').response.groups;
    const ref = get('faithful', 'ot-03').response.groups;
    expect(cut.temporal_organization).toBe(ref.temporal_organization);
    expect(cut.keyframe_fidelity).toBeCloseTo(ref.keyframe_fidelity, 2); // re-encoded neighbours: pixels differ slightly
    expect(get('cut', 'ms-06').response.metrics.localization).toBeLessThan(
      get('faithful', 'ms-06').response.metrics.localization,
    );
  });
});
