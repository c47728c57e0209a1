/**
 * The emulator answers the seed's Compass judge prompts (src/compass/quality/prompts/): the checklist
 * prompt with items of its metric, the grouped prompt with a `support` consistent with each score,
 * timestamped evidence, and not_applicable items answered as such — and the parser keeps them all.
 */
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../src/compass/cases/cases.js';
import { checklistQuestion } from '../../src/compass/quality/checklist.js';
import { groupedQuestion, parseMetric, supportOf } from '../../src/compass/quality/grouped.js';
import type { QualityMetric } from '../../src/compass/quality/metrics.js';
import type { ChecklistItem } from '../../src/compass/schemas/quality.js';
import { checklistHandler, groupedHandler } from '../../src/synthetic/emulator/compass.js';
import type { ImageFeatures } from '../../src/synthetic/emulator/features.js';

const kf = (i: number) => ({
  kf_id: `k${i}`,
  image: `/nowhere/k${i}.png`,
  shot_index: i,
  shot_position: 'representative' as const,
});
const c = {
  case_id: 'c1',
  domain: 'daily',
  structure: 'multi_shot',
  duration_s: 4,
  keyframes: [kf(0), kf(1), kf(2)],
  prompts: { minimal: 'A short story in three shots.', segment_specific: 'Shot 1: … Shot 2: … Shot 3: …' },
  story_summary: 'A heron lands on the pier and steals a fish.',
  conditioning: 'image_list',
  source: { file: 'cases.jsonl', line: 1 },
} as LoadedCase;
const feat = (v: number): ImageFeatures => ({
  sharpness: 0.5,
  colourfulness: 0.3,
  centredness: 0.5,
  brightness: v,
  fingerprint: `f${v}`,
  rgb: [v, v, v],
});
/** The text the emulator reads: the prompt, then each image's label (as the wire adds them). */
const withLabels = (prompt: string, labels: string[]) =>
  `${prompt}\n${labels.map((l) => `Image ${l}:`).join('\n')}`;

describe('the emulator answers the seed prompts', () => {
  it('checklist generation: items of the metric, anchored on the keyframes', () => {
    const q = checklistQuestion(c, 'segment_specific', 'AC', []);
    expect(checklistHandler.matches(q.prompt)).toBe(true);
    const a = q.schema.parse(checklistHandler.answer({ text: q.prompt, images: [], positionBias: 0 }));
    expect(a.items.length).toBeGreaterThanOrEqual(4);
    expect(a.items[0]!.item_id).toBe('AC-1');
  });

  it('the grouped judge: support consistent with each score, time ranges inside the video, not_applicable kept', () => {
    const svqItems: ChecklistItem[] = [0, 1].map((i) => ({
      item_id: `SVQ-${i}`,
      question: 'q',
      scope: 'shot',
      anchors: [],
      dimension: 'clarity',
    }));
    const dvqItems: ChecklistItem[] = [
      { item_id: 'DVQ-0', question: 'q', scope: 'full_video', anchors: [], dimension: 'flicker' },
      {
        item_id: 'DVQ-1',
        question: 'q',
        scope: 'cross_shot',
        anchors: [],
        dimension: 'boundary_glitch',
        not_applicable: true,
      },
    ];
    const checklists = new Map<QualityMetric, ChecklistItem[]>([
      ['SVQ', svqItems],
      ['DVQ', dvqItems],
    ]);
    const times = [0, 1, 2, 3];
    const q = groupedQuestion({
      c,
      mode: 'segment_specific',
      metrics: ['SVQ', 'DVQ'],
      checklists,
      frames: [],
      keyframes: [],
      duration_s: 4,
      evidence: '- shots detected: 3',
      budgetNote: '',
    });
    const labels = [...times.map((t) => `t=${t.toFixed(3)}s`), 'k0', 'k1', 'k2'];
    const text = withLabels(q.prompt, labels);
    expect(groupedHandler.matches(text)).toBe(true);
    const images = [...times.map((t) => feat(0.4 + t * 0.01)), feat(0.4), feat(0.41), feat(0.42)];
    const reply = q.schema.parse(groupedHandler.answer({ text, images, positionBias: 0 }));
    const byMetric = new Map(reply.metrics.map((m) => [m.metric, m.items]));
    const svq = byMetric.get('SVQ') as {
      score: number;
      support: string;
      evidence: { t_start_s: number; t_end_s: number }[];
    }[];
    expect(svq).toHaveLength(2);
    for (const it of svq) {
      expect(it.support).toBe(supportOf(it.score));
      for (const e of it.evidence) expect(e.t_end_s).toBeLessThanOrEqual(4);
    }
    expect(byMetric.get('DVQ')?.[1]).toEqual({ item_id: 'DVQ-1', not_applicable: true });
    const dvq = parseMetric('DVQ', { items: byMetric.get('DVQ')! }, dvqItems, 4);
    expect(dvq).toMatchObject({ missing_items: 0, dropped: {} });
    expect(dvq.items.map((i) => i.item_id)).toEqual(['DVQ-0']);
    expect(parseMetric('SVQ', { items: svq }, svqItems, 4).dropped).toEqual({});
  });
});
