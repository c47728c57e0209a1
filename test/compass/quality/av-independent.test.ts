/**
 * Issue 54 item 3. "Audio-Visual Coordination judges intrinsic audio–video semantic and temporal
 * agreement independently of the prompt" (seed App. D): AVC's checklist is not generated from the
 * case (no judge call; the same fixed items for every case and prompt mode), and its grouped-judge
 * question shows the video and its sound only — no prompt, story summary, keyframes or requested
 * structure — so two cases that differ only in what they ask get the same AVC question.
 */
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../../src/compass/cases/cases.js';
import { generateChecklist } from '../../../src/compass/quality/checklist.js';
import { evidenceText } from '../../../src/compass/quality/evidence.js';
import { groupedQuestion } from '../../../src/compass/quality/grouped.js';
import { checklistPlan, videoPlan } from '../../../src/compass/quality/plan.js';
import { DEFAULT_QUALITY_OPTIONS } from '../../../src/compass/quality/video.js';
import { ImageEncoder } from '../../../src/judge/images.js';
import { Judge } from '../../../src/judge/judge.js';
import type { JudgeBackend } from '../../../src/judge/types.js';

const kf = (i: number) => ({
  kf_id: `k${i}`,
  image: `/nowhere/k${i}.png`,
  shot_index: i,
  shot_position: 'representative' as const,
});
const base: LoadedCase = {
  case_id: 'c1',
  domain: 'daily',
  structure: 'multi_shot',
  duration_s: 12,
  keyframes: [kf(0), kf(1), kf(2)],
  prompts: {
    minimal: 'A short story in three shots.',
    segment_specific: 'Shot 1: a heron lands, wings loud. Shot 2: gulls scream. Shot 3: silence.',
  },
  story_summary: 'A heron lands on the pier and steals a fish.',
  conditioning: 'image_list',
  source: { file: 'cases.jsonl', line: 1 },
  audio: { requested: true },
} as LoadedCase;
/** The same video asked for something else entirely: a one-take with no audio requested. */
const other: LoadedCase = {
  ...base,
  case_id: 'c2',
  structure: 'one_take',
  prompts: {
    minimal: 'A slow pan over a desert.',
    segment_specific: 'One take: the camera pans over dunes.',
  },
  story_summary: 'Nothing happens in the desert.',
  keyframes: [kf(0), kf(1)],
  audio: undefined,
} as LoadedCase;

const shots = [
  { start_s: 0, end_s: 4 },
  { start_s: 4, end_s: 12 },
] as never;
const avc = [
  { item_id: 'AVC-1', question: 'q', scope: 'full_video' as const, anchors: [], dimension: 'semantic_match' },
];

function avQuestion(c: LoadedCase, mode: 'minimal' | 'segment_specific') {
  return groupedQuestion({
    c,
    mode,
    metrics: ['AVC'],
    checklists: new Map([['AVC', avc]]),
    frames: [],
    keyframes: [{ data: 'x', mime: 'image/jpeg' } as never],
    duration_s: 12,
    evidence: evidenceText(c, shots),
    avEvidence: evidenceText(c, shots, [], false),
    budgetNote: ' at 8 fps',
  });
}

describe('AV Coordination independently of the prompt (App. D; issue 54 item 3)', () => {
  it("AVC's judge question shows neither the prompt, the story, the keyframes nor the requested structure", () => {
    const q = avQuestion(base, 'segment_specific');
    for (const text of [base.prompts.segment_specific, base.prompts.minimal, base.story_summary, 'requested'])
      expect(q.prompt).not.toContain(text);
    expect(q.images).toHaveLength(0);
    expect(q.labels.some((l) => l.startsWith('k'))).toBe(false);
    expect(q.prompt).toContain('- shots detected: 2: [0.00, 4.00) s, [4.00, 12.00) s');
    // the same video, whatever the case asked and in either mode: the same question
    for (const [c, mode] of [
      [base, 'minimal'],
      [other, 'minimal'],
      [other, 'segment_specific'],
    ] as const)
      expect(avQuestion(c, mode).prompt).toBe(q.prompt);
  });

  it('the other groups still see the request', () => {
    const q = groupedQuestion({
      c: base,
      mode: 'segment_specific',
      metrics: ['VMA', 'AMA'],
      checklists: new Map([['VMA', avc]]),
      frames: [],
      keyframes: [],
      duration_s: 12,
      evidence: evidenceText(base, shots),
      budgetNote: ' at 8 fps',
    });
    expect(q.prompt).toContain(base.prompts.segment_specific);
    expect(q.prompt).toContain('3 shots requested');
  });

  it("AVC's checklist is fixed: no judge call, the same items for every case and mode; the dry run counts no AVC checklist call", async () => {
    let calls = 0;
    const backend: JudgeBackend = {
      name: 'counting',
      model: 'm',
      identity: {},
      complete: () => {
        calls++;
        return Promise.resolve({
          text: '{"items":[]}',
          usage: { prompt_tokens: 0, completion_tokens: 0 },
          latency_ms: 0,
          retries: 0,
        });
      },
      close: () => Promise.resolve(),
    };
    const judge = new Judge(backend);
    const enc = new ImageEncoder(64);
    const lists = await Promise.all(
      [base, other].flatMap((c) =>
        (['minimal', 'segment_specific'] as const).map((m) => generateChecklist(judge, enc, c, m, 'AVC')),
      ),
    );
    expect(calls).toBe(0);
    for (const l of lists) {
      expect(l.items.length).toBeGreaterThanOrEqual(3);
      expect(l.items).toEqual(lists[0]!.items);
      expect(l.unresolved).toBeUndefined();
    }
    const heard = { audio: true };
    const kinds = checklistPlan(base, 'segment_specific', heard, 100).map((p) => p.what.split(' ').at(-1));
    expect(kinds).toContain('AMA');
    expect(kinds).not.toContain('AVC');
    const av = videoPlan(
      base,
      'segment_specific',
      { label: 'm/c1', duration_s: 12, width: 640, height: 360 },
      { ...DEFAULT_QUALITY_OPTIONS, audio: true },
      768,
    ).find((p) => p.what.endsWith('av_coordination'))!;
    expect(av.images).toBe(av.frames);
  });
});
