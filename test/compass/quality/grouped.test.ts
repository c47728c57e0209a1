/** The grouped judge's parser: every item checked on its own, the metric mean recomputed. */
import { describe, expect, it } from 'vitest';
import { caseOverall, overallOf } from '../../../src/compass/overall/aggregate.js';
import { parseMetric } from '../../../src/compass/quality/grouped.js';
import { qualityGroups } from '../../../src/compass/quality/groups.js';
import { applicability } from '../../../src/compass/quality/metrics.js';
import type { ChecklistItem } from '../../../src/compass/schemas/quality.js';

const items = (n: number): ChecklistItem[] =>
  Array.from({ length: n }, (_, i) => ({
    item_id: `SVQ-${i + 1}`,
    question: 'q',
    scope: 'full_video',
    anchors: [],
    dimension: 'd',
  }));
const ev = (a = 0, b = 1) => [{ t_start_s: a, t_end_s: b, observation: 'seen' }];

describe('parseMetric', () => {
  it('recomputes the mean of the valid items, never taking a total from the reply', () => {
    const r = parseMetric(
      'SVQ',
      {
        items: [
          { item_id: 'SVQ-1', score: 1, evidence: ev() },
          { item_id: 'SVQ-2', score: 0.25, evidence: ev(2, 3) },
          { item_id: 'SVQ-3', score: 0.5, evidence: ev() },
        ],
        score: 0.99,
      } as { items: unknown[] },
      items(3),
      4,
    );
    expect(r.score).toBeCloseTo((1 + 0.25 + 0.5) / 3, 12);
    expect(r.dropped).toEqual({});
    expect(r.missing_items).toBe(0);
  });

  it('drops each bad item and counts it by reason', () => {
    const r = parseMetric(
      'SVQ',
      {
        items: [
          { item_id: 'SVQ-1', score: 0.6, evidence: ev() }, // off the five anchors
          { item_id: 'SVQ-9', score: 1, evidence: ev() }, // not in the checklist
          { item_id: 'SVQ-2', score: 1, evidence: ev(3, 9) }, // past the end
          { item_id: 'SVQ-3', score: 0.75, evidence: [] }, // no evidence
          { item_id: 'SVQ-4', score: 0.5, evidence: ev(2, 1) }, // ends before it starts
          { item_id: 'SVQ-5', score: 0.75, evidence: ev() },
          { item_id: 'SVQ-5', score: 0, evidence: ev() }, // repeated
          'prose',
        ],
      },
      items(6),
      4,
    );
    expect(r.dropped).toEqual({
      score_off_scale: 1,
      unknown_item: 1,
      time_out_of_range: 2,
      no_evidence: 1,
      repeated_item: 1,
      malformed: 1,
    });
    expect(r.items.map((i) => i.item_id)).toEqual(['SVQ-5']);
    expect(r.score).toBe(0.75);
    expect(r.missing_items).toBe(5);
  });

  it('a metric with no valid item, or missing from the reply, is unresolved with the reason', () => {
    const none = parseMetric('SVQ', { items: [{ item_id: 'SVQ-1', score: 2, evidence: ev() }] }, items(3), 4);
    expect(none).toMatchObject({
      score: null,
      unresolved: 'no valid item for SVQ (dropped: 1 score_off_scale)',
    });
    expect(parseMetric('SVQ', undefined, items(3), 4)).toMatchObject({
      score: null,
      unresolved: 'the reply has no result for SVQ',
      missing_items: 3,
    });
  });
});

describe('aggregation', () => {
  const scored = (score: number) => ({ status: 'scored' as const, score });
  const na = { status: 'not_applicable' as const, score: null };
  it('groups average their scored metrics; an unmeasured metric is named, never zero', () => {
    const g = qualityGroups({
      SVQ: scored(1),
      DVQ: scored(0.5),
      AC: scored(0.75),
      SOC: { status: 'unresolved', score: null, reason: 'x' },
      PR: scored(0.25),
      VMA: scored(1),
      AMA: na,
      AVC: { status: 'not_measured', score: null, reason: 'no audio input' },
    });
    expect(g.visual_quality).toEqual({ score: 0.75, incomplete: [] });
    expect(g.spatiotemporal_coherence).toEqual({ score: 0.5, incomplete: ['SOC'] });
    expect(g.instruction_adherence).toEqual({ score: 1, incomplete: [] });
    expect(g.av_coordination).toEqual({ score: null, incomplete: ['AVC'] });
  });

  it('Overall leaves out a group that could not be measured and flags it; per case over the prompt modes', () => {
    const a = overallOf({
      keyframe_fidelity: 1,
      temporal_organization: 0.5,
      visual_quality: 0.75,
      spatiotemporal_coherence: null,
      instruction_adherence: 0.25,
    });
    // keyframe control = mean(1, 0.5) enters as one group (seed §4.2)
    expect(a).toEqual({ score: (0.75 + 0.75 + 0.25) / 3, missing: ['spatiotemporal_coherence'] });
    const b = overallOf({
      keyframe_fidelity: 0,
      temporal_organization: 0,
      visual_quality: 0,
      spatiotemporal_coherence: 0,
      instruction_adherence: 0,
    });
    expect(b).toEqual({ score: 0, missing: [] }); // measured zeros stay zeros
    expect(caseOverall([a, b])).toEqual({ score: 1.75 / 3 / 2, missing: ['spatiotemporal_coherence'] });
  });

  it('AMA is omitted for minimal prompts and when no audio is requested; AVC applies whatever the prompt (App. D)', () => {
    expect(applicability({ audio: { requested: true } }, 'minimal', 'AMA').applies).toBe(false);
    expect(applicability({ audio: { requested: true } }, 'segment_specific', 'AMA').applies).toBe(true);
    expect(applicability({ audio: { requested: false } }, 'segment_specific', 'AMA').applies).toBe(false);
    expect(applicability({ audio: { requested: false } }, 'segment_specific', 'AVC').applies).toBe(true);
    expect(applicability({}, 'minimal', 'AVC').applies).toBe(true);
    expect(applicability({}, 'segment_specific', 'SVQ').applies).toBe(true);
  });
});
