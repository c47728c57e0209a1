/**
 * The Compass judge prompts are the seed's (§E.3 checklist generation, §E.4 grouped judge): each
 * metric's prompt file is versioned and cites the seed; rendered, the checklist prompt carries the
 * metric's categories, item counts and scope words, and the grouped prompt the rubric section with
 * the five anchors and their meanings, the `support` field and the time-range instruction.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../../src/compass/cases/cases.js';
import { checklistQuestion, checklistSchema } from '../../../src/compass/quality/checklist.js';
import { groupedQuestion, parseMetric } from '../../../src/compass/quality/grouped.js';
import { QUALITY_METRICS, type QualityMetric } from '../../../src/compass/quality/metrics.js';
import { METRIC_PROMPTS } from '../../../src/compass/quality/prompts/by-metric.js';

const kf = (i: number) => ({
  kf_id: `k${i}`,
  image: `/nowhere/k${i}.png`,
  shot_index: i,
  shot_position: 'representative' as const,
});
const c: LoadedCase = {
  case_id: 'c1',
  domain: 'daily',
  structure: 'multi_shot',
  duration_s: 12,
  keyframes: [kf(0), kf(1), kf(2)],
  prompts: { minimal: 'A short story in three shots.', segment_specific: 'Shot 1: … Shot 2: … Shot 3: …' },
  story_summary: 'A heron lands on the pier and steals a fish.',
  conditioning: 'image_list',
  audio: { requested: true },
  source: { file: 'cases.jsonl', line: 1 },
} as LoadedCase;
const item = (m: string, i: number, extra: object = {}) => ({
  item_id: `${m}-${i}`,
  question: 'q',
  scope: 'full_video' as const,
  anchors: ['k0'],
  dimension: 'd',
  ...extra,
});
const grouped = (metrics: QualityMetric[], attachment?: 'frames' | 'video') =>
  groupedQuestion({
    c,
    mode: 'segment_specific',
    metrics,
    checklists: new Map(metrics.map((m) => [m, [item(m, 1)]])),
    frames: [],
    keyframes: [],
    duration_s: 12,
    evidence: '- shots detected: 3',
    budgetNote: ' at 8 fps',
    ...(attachment ? { attachment } : {}),
  }).prompt;

/** What §E.3 prescribes per metric: categories (dimension words), the item count and scope words. */
const CHECKLIST_PARTS: Record<QualityMetric, (string | RegExp)[]> = {
  SVQ: [
    'clarity',
    'artifacts',
    'color_lighting',
    'style_consistency',
    'single subdimension',
    'between 3 and 6',
    '"shot"',
    '"full_video" for style consistency',
  ],
  DVQ: [
    'jump_replacement',
    'stagnation',
    'morphing',
    'flicker',
    'boundary_glitch',
    'One artifact criterion per item',
    '"cross_shot" for boundary glitches',
    '"full_video" for recurring artifacts',
  ],
  AC: [
    'character | animal | prop',
    'one identity cue per item',
    'every keyframe that visibly shows the attribute',
    'between 4 and 8',
  ],
  SOC: ['relative_position', 'scale', 'between 2 and 5', 'viewpoint shifts'],
  PR: [
    'interaction',
    'anatomy',
    'structure',
    'common_sense',
    'text_readability',
    'between 3 and 5',
    '"full_video" by default',
  ],
  VMA: ['camera', 'structure', 'rhythm_focus', 'content', 'Single-requirement items'],
  AMA: [
    'sound_effects',
    'music',
    'dialogue',
    'ambience',
    'style_emotion',
    '"not_applicable": true',
    'excluded',
  ],
  AVC: ['semantic_match', 'temporal_sync', 'independently of the prompt'],
};

describe('one versioned prompt file per metric, citing the seed', () => {
  const files: Record<QualityMetric, string> = {
    SVQ: 'static-visual-quality',
    DVQ: 'dynamic-visual-quality',
    AC: 'attribute-consistency',
    SOC: 'spatial-orientation-consistency',
    PR: 'physical-rationality',
    VMA: 'video-modality-adherence',
    AMA: 'audio-modality-adherence',
    AVC: 'av-coordination',
  };
  it.each(QUALITY_METRICS)('%s', (m) => {
    expect(METRIC_PROMPTS[m].metric).toBe(m);
    expect(METRIC_PROMPTS[m].version).toMatch(new RegExp(`^${m.toLowerCase()}-\\d+$`));
    const src = readFileSync(
      new URL(`../../../src/compass/quality/prompts/${files[m]}.ts`, import.meta.url),
      'utf8',
    );
    expect(src).toMatch(/Seed (§E\.[34]|App\. D)/);
  });
});

describe('the checklist-generation prompt (seed §E.3)', () => {
  it.each(QUALITY_METRICS)(
    '%s: categories, item count, scope words, keyframe anchors, the five fields',
    (m) => {
      const p = checklistQuestion(c, 'segment_specific', m, []).prompt;
      for (const part of CHECKLIST_PARTS[m]) expect(p).toContain(part);
      expect(p).toContain('"shot" (inside one shot, or one keyframe-to-keyframe segment');
      expect(p).toContain('"cross_shot"');
      expect(p).toContain('"full_video"');
      expect(p).toMatch(/leave "anchors" empty for an item no keyframe anchors/);
      expect(p).toContain('five fields per item');
      expect(p).toContain('You will NOT see the video and you do not score anything');
    },
  );

  it('the version joins the template and the metric file: a changed metric prompt is another question', () => {
    const a = checklistQuestion(c, 'segment_specific', 'SVQ', []).protocol.version;
    const b = checklistQuestion(c, 'segment_specific', 'DVQ', []).protocol.version;
    expect(a).toBe(`checklist-2+${METRIC_PROMPTS.SVQ.version}`);
    expect(a).not.toBe(b);
  });

  it('an item marked not_applicable is a valid checklist item', () => {
    const s = checklistSchema(['k0'], 'AMA');
    expect(s.safeParse({ items: [item('AMA', 1, { not_applicable: true })] }).success).toBe(true);
  });
});

describe('the grouped judge prompt (seed §E.4)', () => {
  it.each(QUALITY_METRICS)('%s: its rubric section with the five anchors and their meanings', (m) => {
    const p = grouped([m]);
    const rp = METRIC_PROMPTS[m];
    expect(p).toContain(rp.rubric);
    const lines = ['1.0', '0.75', '0.50', '0.25', '0.0'].map((v, i) => `  ${v}: ${rp.anchors[i]}`);
    for (const l of lines) expect(p).toContain(l);
  });

  it('asks for support, timestamped evidence, every item scored; time ranges over frame IDs with the full video', () => {
    const p = grouped(['SVQ', 'DVQ']);
    expect(p).toContain('"support":"partial"');
    expect(p).toMatch(
      /"support" is the verdict the evidence supports: "pass" \(score 1\.0\), "partial" .* or "fail" \(0\.0\)/,
    );
    expect(p).toContain('Score each item on these anchors only: 1.0, 0.75, 0.5, 0.25, 0.0');
    expect(p).toContain('generic judgments without timestamped observations are insufficient');
    expect(p).toContain('score every item unless the evidence is genuinely insufficient');
    expect(p).toContain('never frame numbers');
    const v = grouped(['SVQ'], 'video');
    expect(v).toContain('The full video is attached: cite time ranges over frame IDs.');
    expect(v).not.toContain('frames sampled uniformly');
  });

  it('the audio rubric keeps not_applicable items from inventing an expectation', () => {
    expect(grouped(['AMA'])).toContain(
      'an item marked not_applicable must not prompt an invented audio expectation',
    );
  });
});

describe('the reply: support and not_applicable', () => {
  const ev = [{ t_start_s: 0, t_end_s: 1, observation: 'seen' }];
  it('a support that contradicts the score drops the item; a consistent one is recorded', () => {
    const r = parseMetric(
      'SVQ',
      {
        items: [
          { item_id: 'SVQ-1', score: 1, support: 'fail', evidence: ev },
          { item_id: 'SVQ-2', score: 0.5, support: 'partial', evidence: ev },
        ],
      },
      [item('SVQ', 1), item('SVQ', 2)],
      4,
    );
    expect(r.dropped).toEqual({ support_contradicts_score: 1 });
    expect(r.items).toEqual([{ item_id: 'SVQ-2', score: 0.5, support: 'partial', evidence: ev }]);
    expect(r.score).toBe(0.5);
  });

  it('not_applicable items are neither scored nor missing; all of them make the metric not applicable', () => {
    const some = parseMetric(
      'AMA',
      {
        items: [
          { item_id: 'AMA-1', not_applicable: true },
          { item_id: 'AMA-2', score: 1, evidence: ev },
        ],
      },
      [item('AMA', 1, { not_applicable: true }), item('AMA', 2)],
      4,
    );
    expect(some).toMatchObject({ score: 1, missing_items: 0, dropped: {} });
    const all = parseMetric('AMA', { items: [] }, [item('AMA', 1, { not_applicable: true })], 4);
    expect(all.score).toBeNull();
    expect(all.not_applicable).toMatch(/not_applicable/);
    expect(all.unresolved).toBeUndefined();
  });
});
