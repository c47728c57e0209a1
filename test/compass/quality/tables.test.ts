/**
 * Issue 54 item 6, the KeyFrame-Compass tables kfbench did not print: Table 5's keyframe-density
 * buckets ("instruction scores fall from 0.849 at 3 keyframes to 0.756 for 9&12", §4.3), each
 * quality metric by prompt mode ("segment-specific prompts lower VMA by 0.060–0.260 versus minimal
 * prompts", §4.3), each group's standard deviation over repeated runs (Table 7, App. C) and the
 * rows by domain and by structure–duration setting ("three video structure-duration settings and
 * three application domains", §3.4). The
 * demo test checks the same tables on the mini set's leaderboard.json.
 */
import { describe, expect, it } from 'vitest';
import { overallOf } from '../../../src/compass/overall/aggregate.js';
import { leaderboard } from '../../../src/compass/overall/leaderboard.js';
import { densityLevel } from '../../../src/compass/overall/tables.js';
import { qualityGroups } from '../../../src/compass/quality/groups.js';
import { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';
import { Leaderboard } from '../../../src/compass/schemas/leaderboard.js';
import type { QualityMetricReport } from '../../../src/compass/schemas/quality.js';
import { leaderboardMarkdown, leaderboardText } from '../../../src/report/compass.js';

const scored = (score: number): QualityMetricReport => ({ status: 'scored', score });

function video(o: {
  case_id: string;
  n: number;
  mode: 'minimal' | 'segment_specific';
  run: number;
  vma: number;
  q: number;
}) {
  const metrics = {
    SVQ: scored(o.q),
    DVQ: scored(o.q),
    AC: scored(o.q),
    SOC: scored(o.q),
    PR: scored(o.q),
    VMA: scored(o.vma),
    AMA: { status: 'not_applicable', score: null } as QualityMetricReport,
    AVC: { status: 'not_measured', score: null } as QualityMetricReport,
  };
  const groups = qualityGroups(metrics);
  const quality = {
    frames: { count: 8, fps: 8, effective_fps: 8, capped_by_budget: false },
    metrics,
    groups,
  };
  const response = { keyframe_fidelity: 0.5, temporal_organization: 0.5 };
  return VideoEvaluation.parse({
    case_id: o.case_id,
    model: 'm',
    prompt_mode: o.mode,
    run: o.run,
    status: 'scored',
    structure: 'multi_shot',
    n_keyframes: o.n,
    conditioning: 'image_list',
    domain: o.n <= 6 ? 'daily' : 'cinematic',
    duration_s: o.n <= 6 ? 8 : 15,
    response: {
      metrics: {
        presence: 0.5,
        fidelity: 0.5,
        ordering: 0.5,
        localization: 0.5,
        persistence: 0.5,
        uniqueness: 0.5,
      },
      groups: response,
    },
    quality,
    overall: overallOf(
      {
        ...response,
        visual_quality: groups.visual_quality.score,
        spatiotemporal_coherence: groups.spatiotemporal_coherence.score,
        instruction_adherence: groups.instruction_adherence.score,
      },
      quality,
    ),
  });
}

// cases with 3, 6, 9 and 12 keyframes; VMA falls with density and with segment-specific prompts;
// run 1 judges the visual metrics 0.1 higher than run 0
const all = [3, 6, 9, 12].flatMap((n) =>
  (['minimal', 'segment_specific'] as const).flatMap((mode) =>
    [0, 1].map((run) =>
      video({
        case_id: `c${n}`,
        n,
        mode,
        run,
        vma: 1 - n / 20 - (mode === 'segment_specific' ? 0.1 : 0),
        q: 0.6 + run / 10,
      }),
    ),
  ),
);
const lb = Leaderboard.parse(leaderboard(all, ['m'], { judge: 'j', embedder: 'dinov3', runs: 2 }));

describe('the tables the paper prints (issue 54 item 6)', () => {
  it('Table 5: the keyframe-density buckets 3, 6 and 9&12', () => {
    expect([3, 6, 9, 12].map(densityLevel)).toEqual(['3', '6', '9&12', '9&12']);
    expect(Object.keys(lb.keyframe_density!).sort()).toEqual(['3', '6', '9&12']);
    const ia = (level: string) => lb.keyframe_density![level]![0]!.groups.instruction_adherence!;
    // 9&12 pools the two densest: VMA mean over 9 and 12 keyframes, both modes
    expect(ia('9&12')).toBeCloseTo(((1 - 9 / 20) * 2 - 0.1 + (1 - 12 / 20) * 2 - 0.1) / 4, 12);
    expect(ia('3')).toBeGreaterThan(ia('9&12'));
    expect(leaderboardText(lb)).toMatch(/^keyframe density \(Table 5\) = 9&12$/m);
  });

  it('§4.3: each quality metric per prompt mode; segment-specific lowers VMA by 0.1 here', () => {
    const by = lb.metrics_by_prompt_mode!;
    expect(by.minimal!.m!.VMA! - by.segment_specific!.m!.VMA!).toBeCloseTo(0.1, 12);
    expect(by.minimal!.m!.AMA).toBeNull();
    expect(leaderboardMarkdown(lb)).toContain('## Quality metrics, prompt mode segment_specific');
  });

  it('§3.4: the rows by application domain and by structure–duration setting (≤ 10 s single pass, longer agent mode, §4.1)', () => {
    expect(Object.keys(lb.domain!).sort()).toEqual(['cinematic', 'daily']);
    expect(Object.keys(lb.setting!).sort()).toEqual(['multi_shot, > 10 s', 'multi_shot, ≤ 10 s']);
    expect(lb.domain!.daily![0]!.cases).toBe(2);
    expect(leaderboardText(lb)).toMatch(/^structure–duration setting = multi_shot, > 10 s$/m);
  });

  it('Table 7: each group has its standard deviation over runs, beside Overall', () => {
    const row = lb.models[0]!;
    // visual quality is 0.6 in run 0 and 0.7 in run 1: sd of two means 0.1/√2
    expect(row.groups_sd!.visual_quality).toBeCloseTo(0.1 / Math.SQRT2, 12);
    expect(row.groups_sd!.keyframe_control).toBe(0);
    expect(row.overall_sd).toBeGreaterThan(0);
    expect(leaderboardText(lb)).toMatch(/0\.650 ± 0\.071/);
  });
});
