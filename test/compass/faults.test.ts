/**
 * The metrics catch their faults, keyframe by keyframe, on real rendered videos of the mini
 * Compass set: the faithful model scores ≥ 0.9 on all six for every keyframe; each fault drives
 * its target metric of every affected keyframe to what the definition gives; the case-level
 * metric falls by at least 0.8 × the per-keyframe losses / N; unaffected keyframes keep all six
 * per-keyframe scores within 0.05.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type LoadedCase, loadCases, videoPath } from '../../src/compass/cases/cases.js';
import { pixelScore } from '../../src/compass/response/fidelity.js';
import { DEFAULT_RESPONSE_OPTIONS } from '../../src/compass/response/options.js';
import { scoreResponse } from '../../src/compass/response/report.js';
import { scanVideo } from '../../src/compass/scan/scan.js';
import { METRICS, type Metric, type ResponseReport } from '../../src/compass/schemas/response.js';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import {
  affected,
  HOLD,
  LATE as LATE_FRAMES,
  MODELS,
  type Model,
  SLOT,
} from '../../src/synthetic/mini-compass/plans.js';
import { sharedMiniCompass, TEST_CASES } from '../support/mini-compass.js';

const embedder = createBuiltinEmbedder();
const reports = new Map<string, ResponseReport>();
let cases: LoadedCase[] = [];

beforeAll(async () => {
  const p = await sharedMiniCompass();
  cases = await loadCases(p.cases);
  for (const c of cases)
    for (const model of MODELS) {
      const scan = await scanVideo(
        { video: videoPath(p.videos, model, c.case_id, 'minimal'), keyframes: c.keyframes },
        embedder,
      );
      reports.set(`${model}/${c.case_id}`, scoreResponse(c, scan, embedder));
    }
});

const get = (model: Model, id: string) => reports.get(`${model}/${id}`)!;

/** The metric a fault targets and the per-keyframe value its definition gives. */
const TARGET: Record<Exclude<Model, 'faithful' | 'drift' | 'missing'>, { metric: Metric; value: number }> = {
  swapped: { metric: 'ordering', value: 0.5 }, // one of two longest increasing subsequences each
  // multi-shot: the wrong shot (0); one-take: shown 20 frames late for 14 frames, so the hold's frame
  // nearest the target (placement.ts) is 13 frames after it, τ = half the 36-frame slot: 1 − 13/18
  mistimed: { metric: 'localization', value: 0 },
  repeated: { metric: 'uniqueness', value: 0.5 }, // two separate runs
  flash: { metric: 'persistence', value: 1 / 24 / 0.5 }, // one frame at 24 fps over 0.5 s
};

describe('mini Compass faults, per keyframe', () => {
  it('the test subset spans both structures and 3, 6, 9 and 12 keyframes', () => {
    expect(new Set(cases.map((c) => c.structure))).toEqual(new Set(['one_take', 'multi_shot']));
    expect(new Set(cases.map((c) => c.keyframes.length))).toEqual(new Set([3, 6, 9, 12]));
    expect(cases.map((c) => c.case_id).sort()).toEqual(TEST_CASES.map((c) => c.case_id).sort());
  });

  it('faithful: every keyframe scores ≥ 0.9 on all six, and the shots are the intended ones', () => {
    for (const c of cases) {
      const r = get('faithful', c.case_id);
      for (const k of r.keyframes)
        for (const m of METRICS)
          expect(k.scores[m], `${c.case_id} ${k.kf_id} ${m}`).toBeGreaterThanOrEqual(0.9);
      if (c.structure === 'multi_shot') {
        const shots = new Set(c.keyframes.map((k) => k.shot_index)).size;
        expect(r.shots.length, c.case_id).toBe(shots);
        expect(r.keyframes.map((k) => k.shot)).toEqual(c.keyframes.map((k) => k.shot_index));
      }
    }
  });

  for (const model of MODELS.filter((m) => m !== 'faithful')) {
    it(`${model}: affected keyframes drop to the definition, the case follows, the rest keep their scores`, () => {
      for (const c of cases) {
        const n = c.keyframes.length;
        const hit = affected(model, c.structure, n);
        expect(hit.length, c.case_id).toBeGreaterThan(0);
        const base = get('faithful', c.case_id);
        const r = get(model, c.case_id);
        const targets: Metric[] =
          model === 'missing' ? [...METRICS] : model === 'drift' ? ['fidelity'] : [TARGET[model].metric];
        for (const metric of targets) {
          let loss = 0;
          for (const i of hit) {
            const k = r.keyframes[i]!;
            let expected: number;
            if (model === 'missing') expected = 0;
            else if (model === 'drift') {
              // still found, but its pixels are not the keyframe's: KFS as defined, clearly lower
              expect(k.matched, `${c.case_id} ${k.kf_id}`).toBe(true);
              const p = pixelScore({ psnr_db: k.psnr_db, ssim: k.ssim! }, DEFAULT_RESPONSE_OPTIONS);
              expected = 0.5 * (p + k.cos);
              expect(k.scores.fidelity).toBeLessThan(base.keyframes[i]!.scores.fidelity - 0.15);
            } else if (model === 'mistimed' && c.structure === 'one_take')
              expected = 1 - (LATE_FRAMES - HOLD / 2) / (SLOT / 2);
            else expected = TARGET[model].value;
            expect(k.scores[metric], `${c.case_id} ${k.kf_id} ${metric}`).toBeCloseTo(expected, 2);
            loss += base.keyframes[i]!.scores[metric] - k.scores[metric];
          }
          const drop = base.metrics[metric] - r.metrics[metric];
          expect(drop, `${c.case_id} case ${metric}`).toBeGreaterThanOrEqual((0.8 * loss) / n - 1e-9);
          expect(drop, `${c.case_id} case ${metric}`).toBeGreaterThan(0);
        }
        r.keyframes.forEach((k, i) => {
          if (hit.includes(i)) return;
          for (const m of METRICS)
            expect(
              Math.abs(k.scores[m] - base.keyframes[i]!.scores[m]),
              `${model} ${c.case_id} ${k.kf_id} ${m}`,
            ).toBeLessThanOrEqual(0.05);
        });
      }
    });
  }

  it('the fault targets are specific: a fault leaves the metrics it does not target at the faithful level', () => {
    for (const c of cases) {
      const base = get('faithful', c.case_id).metrics;
      const near = (model: Model, m: Metric) => Math.abs(get(model, c.case_id).metrics[m] - base[m]) <= 0.05;
      expect(
        near('repeated', 'ordering') && near('repeated', 'localization') && near('repeated', 'persistence'),
      ).toBe(true);
      expect(near('flash', 'presence') && near('flash', 'ordering') && near('flash', 'uniqueness')).toBe(
        true,
      );
      expect(
        near('mistimed', 'ordering') && near('mistimed', 'persistence') && near('mistimed', 'uniqueness'),
      ).toBe(true);
      expect(near('drift', 'presence') && near('drift', 'ordering') && near('drift', 'localization')).toBe(
        true,
      );
    }
  });
});
