/**
 * What the quality judge is asked, as published (seed appendices C and E): checklist sizes per
 * metric, the story summary in both prompt modes, 8 fps over the whole video.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadedCase } from '../../../src/compass/cases/cases.js';
import {
  CHECKLIST_SIZES,
  checklistQuestion,
  checklistSchema,
  generateChecklist,
} from '../../../src/compass/quality/checklist.js';
import { groupedQuestion } from '../../../src/compass/quality/grouped.js';
import { judgeFrames, qualityTimes, sentRate } from '../../../src/compass/quality/judge-frames.js';
import { imageTokens, videoPlan } from '../../../src/compass/quality/plan.js';
import { DEFAULT_QUALITY_OPTIONS } from '../../../src/compass/quality/video.js';
import { ImageEncoder } from '../../../src/judge/images.js';
import { Judge } from '../../../src/judge/judge.js';
import type { JudgeBackend } from '../../../src/judge/types.js';
import { ffmpegRun } from '../../../src/media/ffmpeg.js';
import { probe } from '../../../src/media/probe.js';
import { tempDir } from '../../support/paths.js';

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
  source: { file: 'cases.jsonl', line: 1 },
};
const item = (i: number) => ({
  item_id: `X-${i}`,
  question: 'q',
  scope: 'full_video' as const,
  anchors: ['k0'],
  dimension: 'd',
});
const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => item(i + 1)) });

describe('checklist sizes per metric (seed E.3)', () => {
  it('the published sizes are preferences: any non-empty list is accepted, an empty one is not', () => {
    const ok = (m: keyof typeof CHECKLIST_SIZES, n: number) =>
      checklistSchema(['k0'], m).safeParse(items(n)).success;
    expect(ok('SOC', 2)).toBe(true);
    expect(ok('SOC', 6)).toBe(true); // above "prefer 2–5": kept (and flagged by generateChecklist)
    expect(ok('SVQ', 7)).toBe(true); // above "favor 3–6"
    expect(ok('AC', 3)).toBe(true); // below "prefer 4–8"
    expect(ok('VMA', 1)).toBe(true);
    for (const m of Object.keys(CHECKLIST_SIZES) as (keyof typeof CHECKLIST_SIZES)[])
      expect(ok(m, 0)).toBe(false);
  });

  it('a list outside the preferred size is kept and flagged after one question; in range is not flagged; an empty one is unresolved', async () => {
    const reply = (n: number) => {
      const calls: number[] = [];
      const backend: JudgeBackend = {
        name: 'scripted',
        model: 'm',
        identity: { n },
        complete: () => {
          calls.push(1);
          return Promise.resolve({
            text: JSON.stringify({ items: items(n).items.map((x) => ({ ...x, anchors: [] })) }),
            usage: { prompt_tokens: 0, completion_tokens: 0 },
            latency_ms: 0,
            retries: 0,
          });
        },
        close: () => Promise.resolve(),
      };
      return { judge: new Judge(backend), calls };
    };
    const lc = { ...c, keyframes: [] } as unknown as Parameters<typeof generateChecklist>[2];
    const seven = reply(7);
    const svq = await generateChecklist(seven.judge, new ImageEncoder(), lc, 'segment_specific', 'SVQ');
    expect(svq.items).toHaveLength(7);
    expect(svq.outside_preferred_size).toBe(true);
    expect(svq.unresolved).toBeUndefined();
    expect(seven.calls).toHaveLength(1); // not re-asked
    const four = await generateChecklist(reply(4).judge, new ImageEncoder(), lc, 'segment_specific', 'SVQ');
    expect(four.outside_preferred_size).toBeUndefined();
    const none = reply(0);
    const empty = await generateChecklist(none.judge, new ImageEncoder(), lc, 'segment_specific', 'SVQ');
    expect(empty.items).toEqual([]);
    expect(empty.unresolved).toBeDefined();
    expect(none.calls).toHaveLength(2); // an empty list is re-asked once, then unresolved
  });

  it('the checklist prompt asks for that range', () => {
    const q = checklistQuestion(c, 'segment_specific', 'SOC', []);
    expect(q.prompt).toContain('between 2 and 5 atomic items');
    expect(q.schema.safeParse(items(2)).success).toBe(true);
  });
});

describe('minimal prompts see the story summary (seed E.3, E.4)', () => {
  it('checklist generation, both modes', () => {
    for (const mode of ['minimal', 'segment_specific'] as const)
      expect(checklistQuestion(c, mode, 'VMA', []).prompt).toContain(c.story_summary);
    expect(checklistQuestion(c, 'minimal', 'VMA', []).prompt).toMatch(
      /only expectations inferable from the keyframes or the story summary count/,
    );
  });

  it('the grouped judge, both modes', () => {
    for (const mode of ['minimal', 'segment_specific'] as const) {
      const q = groupedQuestion({
        c,
        mode,
        metrics: ['VMA'],
        checklists: new Map([['VMA', [item(1)]]]),
        frames: [],
        keyframes: [],
        duration_s: 12,
        evidence: '- shots detected: 3',
        budgetNote: ' at 8 fps',
      });
      expect(q.prompt).toContain(`Story summary: ${c.story_summary}`);
      if (mode === 'minimal')
        expect(q.prompt).toMatch(/only expectations inferable from the keyframes or the story summary count/);
    }
  });
});

describe('8 fps over the whole video (seed C)', () => {
  it('a 30 s video gets 240 frames by default; a budget is opt-in and reports its rate', () => {
    const d = qualityTimes(30, DEFAULT_QUALITY_OPTIONS);
    expect(d.times).toHaveLength(240);
    expect(d.capped).toBe(false);
    expect(d.times[239]).toBeCloseTo(29.9375, 9);
    const b = qualityTimes(30, { fps: 8, budget: 48 });
    expect(b).toMatchObject({ capped: true, effective_fps: 1.6 });
    expect(b.times).toHaveLength(48);
    expect(qualityTimes(5, { fps: 8, budget: 48 })).toMatchObject({ capped: false, effective_fps: 8 });
  });

  it('a video with fewer frames than 8 per second sends each frame once, and says the rate it has', async () => {
    const video = join(tempDir('kfbench-4fps-'), 'four.mp4');
    await ffmpegRun(
      ['-f', 'lavfi', '-i', 'testsrc2=s=96x64:r=4:d=3', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', video],
      video,
    );
    const info = await probe(video);
    const { times, effective_fps } = qualityTimes(info.duration_s, DEFAULT_QUALITY_OPTIONS);
    expect(times).toHaveLength(24);
    const frames = await judgeFrames(info, new ImageEncoder(96), times, 96);
    expect(frames).toHaveLength(12);
    expect(sentRate(frames.length, times.length, info.duration_s, effective_fps)).toBeCloseTo(4, 9);
    expect(sentRate(24, 24, 3, 8)).toBe(8); // every time a frame of its own: the plan's rate
  });

  it('the dry-run plan counts frames, images and tokens per grouped call', () => {
    const calls = videoPlan(
      c,
      'segment_specific',
      { label: 'm/c1', duration_s: 12, width: 640, height: 360 },
      { ...DEFAULT_QUALITY_OPTIONS },
      768,
    );
    // no audio requested: visual, coherence and adherence
    expect(calls.map((x) => x.what)).toEqual([
      'm/c1 visual_quality',
      'm/c1 spatiotemporal_coherence',
      'm/c1 instruction_adherence',
    ]);
    for (const x of calls) {
      expect(x.frames).toBe(96);
      expect(x.images).toBe(99);
      // 96 frames of 384×216 (14·8 patches) and 3 keyframes of 640×360 (23·13 patches) at least
      expect(x.tokens).toBeGreaterThan(96 * 112 + 3 * 299);
    }
    expect(imageTokens(1536, 864, 768)).toBe(28 * 16);
  });
});
