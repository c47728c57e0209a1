/**
 * Issue 54 item 7, the readings that changed a score without a flag or a word: the grouped judge's
 * rule for an item off the anchors or whose `support` contradicts its score (`--item-rule`), the
 * dropped items counted in leaderboard.json and the reports, and the spatial rubric's §E.4 caveat
 * ("MonST3R sensor context … does not provide object masks, boxes, depth, or pose evidence").
 */
import { describe, expect, it } from 'vitest';
import { overallOf } from '../../../src/compass/overall/aggregate.js';
import { leaderboard } from '../../../src/compass/overall/leaderboard.js';
import { groupedQuestion, parseMetric } from '../../../src/compass/quality/grouped.js';
import { qualityGroups } from '../../../src/compass/quality/groups.js';
import { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';
import type { QualityMetricReport } from '../../../src/compass/schemas/quality.js';
import { leaderboardText } from '../../../src/report/compass.js';

const item = (id: string) => ({
  item_id: id,
  question: 'q',
  scope: 'full_video' as const,
  anchors: [],
  dimension: 'd',
});
const checklist = ['A', 'B', 'C'].map(item);
const ev = [{ t_start_s: 0, t_end_s: 1, observation: 'seen' }];
const reply = {
  items: [
    { item_id: 'A', score: 0.6, support: 'partial', evidence: ev }, // off the anchors
    { item_id: 'B', score: 1, support: 'partial', evidence: ev }, // support contradicts
    { item_id: 'C', score: 0.25, support: 'partial', evidence: ev },
  ],
};

describe('--item-rule (issue 54 item 7)', () => {
  it('strict drops an off-anchor score and a contradicting support, counted; snap keeps them, counted apart', () => {
    const strict = parseMetric('SVQ', reply, checklist, 5);
    expect(strict.items.map((i) => i.item_id)).toEqual(['C']);
    expect(strict.dropped).toEqual({ score_off_scale: 1, support_contradicts_score: 1 });
    expect(strict.score).toBe(0.25);
    const snap = parseMetric('SVQ', reply, checklist, 5, 0.05, 'snap');
    expect(snap.items.map((i) => [i.item_id, i.score, i.support])).toEqual([
      ['A', 0.5, 'partial'],
      ['B', 1, 'pass'],
      ['C', 0.25, 'partial'],
    ]);
    expect(snap.dropped).toEqual({});
    expect(snap.kept_by_rule).toEqual({ score_off_scale: 1, support_contradicts_score: 1 });
    expect(snap.score).toBeCloseTo((0.5 + 1 + 0.25) / 3, 12);
  });

  it('leaderboard.json and the terminal count the dropped items by reason', () => {
    const scored = (score: number, dropped?: QualityMetricReport['dropped']): QualityMetricReport => ({
      status: 'scored',
      score,
      ...(dropped ? { dropped } : {}),
    });
    const metrics = {
      SVQ: scored(0.25, { score_off_scale: 1, support_contradicts_score: 1 }),
      DVQ: scored(0.5, { no_evidence: 2 }),
      AC: scored(0.5),
      SOC: scored(0.5),
      PR: scored(0.5),
      VMA: scored(0.5),
      AMA: { status: 'not_applicable', score: null } as QualityMetricReport,
      AVC: { status: 'not_measured', score: null } as QualityMetricReport,
    };
    const groups = qualityGroups(metrics);
    const quality = {
      frames: { count: 8, fps: 8, effective_fps: 8, capped_by_budget: false },
      metrics,
      groups,
    };
    const v = VideoEvaluation.parse({
      case_id: 'c1',
      model: 'm',
      prompt_mode: 'minimal',
      run: 0,
      status: 'scored',
      structure: 'multi_shot',
      n_keyframes: 3,
      conditioning: 'image_list',
      response: {
        metrics: { presence: 1, fidelity: 1, ordering: 1, localization: 1, persistence: 1, uniqueness: 1 },
        groups: { keyframe_fidelity: 1, temporal_organization: 1 },
      },
      quality,
      overall: overallOf({ keyframe_fidelity: 1, temporal_organization: 1 }, quality),
    });
    const lb = leaderboard([v], ['m'], { judge: 'j', embedder: 'dinov3', runs: 1 });
    expect(lb.dropped_items).toEqual({ score_off_scale: 1, support_contradicts_score: 1, no_evidence: 2 });
    expect(leaderboardText(lb)).toMatch(
      /^judged items dropped \(left out of their metric's mean\): 4 \(score_off_scale 1, support_contradicts_score 1, no_evidence 2\)$/m,
    );
  });

  it("the spatial rubric carries §E.4's caveat: the camera-motion context gives no masks, boxes, depth or pose", () => {
    const q = groupedQuestion({
      c: {
        case_id: 'c',
        domain: 'daily',
        structure: 'multi_shot',
        duration_s: 4,
        keyframes: [],
        prompts: { minimal: 'm', segment_specific: 's' },
        story_summary: 's',
        conditioning: 'image_list',
        source: { file: 'f', line: 1 },
      } as never,
      mode: 'minimal',
      metrics: ['AC', 'SOC', 'PR'],
      checklists: new Map([['SOC', checklist]]),
      frames: [],
      keyframes: [],
      duration_s: 4,
      evidence: '- camera motion per shot: static',
      budgetNote: '',
    });
    expect(q.prompt).toMatch(
      /SOC \(spatial orientation consistency\): .*provides no object masks, boxes, depth or pose evidence/,
    );
  });
});
