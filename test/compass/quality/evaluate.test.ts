/**
 * Compass evaluate against the VLM emulator over real HTTP, on rendered mini videos. These prove
 * the plumbing — the emulator was written to notice these faults; what a real judge notices is
 * measured with a real judge.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedCase, loadCases } from '../../../src/compass/cases/cases.js';
import { leaderboard } from '../../../src/compass/overall/leaderboard.js';
import { judgeSegmenter } from '../../../src/compass/quality/segment.js';
import { budgetCheck, type EvaluateResult, evaluateCompass } from '../../../src/compass/run/evaluate.js';
import { ScanCache } from '../../../src/compass/scan/cache.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ImageEncoder } from '../../../src/judge/images.js';
import { probe } from '../../../src/media/probe.js';
import type { FaultPlan } from '../../../src/synthetic/emulator/faults.js';
import type { MiniCompassPaths } from '../../../src/synthetic/mini-compass/build.js';
import { emulatorJudge } from '../../support/emulator.js';
import { sharedMiniCompass } from '../../support/mini-compass.js';
import { tempDir } from '../../support/paths.js';

let p: MiniCompassPaths;
let cases: LoadedCase[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  p = await sharedMiniCompass();
  cases = (await loadCases(p.cases)).filter((c) => ['ot-03', 'ms-06'].includes(c.case_id));
});
afterAll(async () => {
  for (const c of closers) await c();
});

async function run(
  models: string[],
  faults?: FaultPlan,
  cachePath?: string,
  extra: { runs?: number; maxCalls?: number; concurrency?: number } = {},
  segmentWithJudge = false,
): Promise<{ r: EvaluateResult; calls: number; peak: number }> {
  const j = await emulatorJudge(
    { ...(faults ? { faults } : {}), latencyMs: 5 },
    extra.concurrency ? { concurrency: extra.concurrency } : {},
    cachePath,
  );
  closers.push(() => j.close());
  // a re-run with the same judge cache also reuses the scans (what the CLI does with --out)
  const scans = cachePath ? new ScanCache(`${cachePath}.scans`) : undefined;
  closers.push(async () => scans?.close());
  const r = await evaluateCompass({
    cases,
    videos: p.videos,
    models,
    modes: ['minimal', 'segment_specific'],
    embedder: createBuiltinEmbedder(),
    judge: j.judge,
    encoder: new ImageEncoder(384),
    // plumbing tests: the opt-in budget keeps them cheap (8 fps over whole videos: faults.test.ts)
    quality: { budget: 48 },
    cache: scans,
    ...(segmentWithJudge ? { segment: judgeSegmenter(j.judge, new ImageEncoder(384), probe) } : {}),
    ...extra,
  });
  return { r, calls: j.judge.stats.calls, peak: j.emu.peakInFlight };
}

describe('compass evaluate with the emulator', () => {
  let clean: EvaluateResult;
  let cleanPeak = 0;
  let cache = '';

  it('writes checklists for every applicable metric, judges every video, and a re-run asks nothing', async () => {
    cache = join(tempDir(), 'judge.sqlite');
    const first = await run(['faithful', 'flash'], undefined, cache);
    clean = first.r;
    cleanPeak = first.peak;
    expect(first.calls).toBeGreaterThan(0);
    // ot-03 asks no audio: 6 metrics per mode; ms-06 asks audio, but the judge takes none → AMA/AVC not asked
    expect(clean.checklists).toHaveLength(2 * 2 * 6);
    for (const cl of clean.checklists) {
      expect(cl.unresolved).toBeUndefined();
      expect(cl.items.length).toBeGreaterThanOrEqual(3);
    }
    expect(clean.videos).toHaveLength(2 * 2 * 2);
    const again = await run(['faithful', 'flash'], undefined, cache);
    expect(again.calls).toBe(0);
    expect(JSON.stringify(again.r.videos)).toBe(JSON.stringify(clean.videos));
  });

  it('calls run concurrently across cases, modes and videos, with the same results, in the same order, as one at a time', async () => {
    // the first run kept several calls in flight at once (16 allowed), never more than allowed
    expect(cleanPeak).toBeGreaterThan(1);
    expect(cleanPeak).toBeLessThanOrEqual(16);
    const sequential = await run(['flash'], undefined, undefined, { concurrency: 1 });
    expect(sequential.peak).toBe(1);
    expect(JSON.stringify(sequential.r.checklists)).toBe(JSON.stringify(clean.checklists));
    expect(JSON.stringify(sequential.r.videos)).toBe(
      JSON.stringify(clean.videos.filter((v) => v.model === 'flash')),
    );
  });

  it('statuses: AMA not judged for minimal prompts, audio metrics never zero-filled without a measurement', () => {
    for (const v of clean.videos) {
      const m = v.quality.metrics;
      if (v.case_id === 'ot-03') expect(m.AMA.status).toBe('not_applicable');
      if (v.prompt_mode === 'minimal') expect(m.AMA.status).toBe('not_applicable');
      // AVC applies whatever the prompt asks (App. D); without an audio judge it is not measured,
      // whatever the file holds (the mini videos have no audio track: the same as a silent one)
      expect(m.AVC).toMatchObject({
        status: 'not_measured',
        score: null,
        reason: expect.stringMatching(/audio/),
      });
      for (const k of ['SVQ', 'DVQ', 'AC', 'SOC', 'PR', 'VMA'] as const) expect(m[k].status).toBe('scored');
    }
  });

  it('a one-frame flash is a cut the one-take case did not ask for: VMA drops there and only there; keyframe metrics untouched', () => {
    const get = (model: string, id: string, mode = 'minimal') =>
      clean.videos.find((v) => v.model === model && v.case_id === id && v.prompt_mode === mode)!;
    expect(get('faithful', 'ot-03').quality.metrics.VMA.score).toBe(1);
    expect(get('flash', 'ot-03').quality.metrics.VMA.score!).toBeLessThan(1);
    expect(get('flash', 'ms-06').quality.metrics.VMA.score).toBe(1); // flash at a shot's first frame: no new shot
    for (const v of clean.videos) {
      const row = clean.response.rows.find(
        (r) => r.model === v.model && r.case_id === v.case_id && r.prompt_mode === v.prompt_mode,
      )!;
      expect(v.response.metrics).toEqual(row.metrics);
    }
    const lb = leaderboard(clean.videos, ['faithful', 'flash'], {
      judge: 'emulator',
      embedder: 'builtin',
      runs: 1,
    });
    expect(lb.models.map((m) => m.model)).toEqual(['faithful', 'flash']);
    expect(Object.keys(lb.by)).toEqual(['keyframes', 'structure', 'prompt_mode', 'conditioning']);
  });

  it('malformed replies are dropped item by item and the recomputed means are exact', async () => {
    const { r } = await run(['faithful'], { rate: 1, kinds: ['bad-items'], seed: 3 });
    for (const v of r.videos) {
      const svq = v.quality.metrics.SVQ;
      expect(svq.dropped).toEqual({ score_off_scale: 1, unknown_item: 1, time_out_of_range: 1 });
      expect(svq.score).toBe(svq.items!.reduce((s, i) => s + i.score, 0) / svq.items!.length);
      expect(v.quality.metrics.DVQ).toMatchObject({
        status: 'unresolved',
        reason: 'the reply has no result for DVQ',
      });
      expect(v.quality.groups.visual_quality.incomplete).toEqual(['DVQ']);
    }
  });

  it('a judge that answers prose to everything: every quality metric unresolved with its reason, no crash', async () => {
    const { r } = await run(['faithful'], { rate: 1, kinds: ['prose'] });
    expect(r.checklists.every((c) => c.unresolved && c.items.length === 0)).toBe(true);
    for (const v of r.videos) {
      expect(v.quality.metrics.SVQ).toMatchObject({
        status: 'unresolved',
        reason: expect.stringMatching(/^no checklist for SVQ/),
      });
      // without an audio judge AMA is not measured (ms-06 included), so adherence has nothing scored
      expect(v.overall.missing).toEqual([
        'visual_quality',
        'spatiotemporal_coherence',
        'instruction_adherence',
      ]);
      const kt = v.response.groups.keyframe_fidelity + v.response.groups.temporal_organization;
      expect(v.overall.score).toBeCloseTo(kt / 2, 12);
    }
  });

  it('--runs 2: each run asked and cached apart; the leaderboard reports mean ± sd over runs', async () => {
    const cachePath = join(tempDir(), 'runs.sqlite');
    const one = await run(['faithful'], undefined, cachePath);
    const two = await run(['faithful'], undefined, cachePath, { runs: 2 });
    // run 1 comes from the cache; run 2's grouped questions are new (3 per video), checklists are shared
    expect(two.calls).toBe(one.r.videos.length * 3);
    expect(two.r.videos.map((v) => v.run)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    const lb = leaderboard(two.r.videos, ['faithful'], { judge: 'emulator', embedder: 'builtin', runs: 2 });
    expect(lb.models[0]).toMatchObject({ runs: 2, overall_sd: 0 }); // a deterministic judge agrees with itself
  });

  it('--max-calls: no more calls than the budget, checklists included; what it did not reach is named; a re-run with room finishes', async () => {
    const cachePath = join(tempDir(), 'budget.sqlite');
    // 24 checklist calls + 3 per video (4 videos) = 36 for the whole run; 26 ends inside a video
    const first = await run(['faithful'], undefined, cachePath, { maxCalls: 26 });
    expect(first.calls).toBe(26);
    expect(first.r.skipped.length).toBeGreaterThan(0);
    expect(first.r.videos.length + first.r.skipped.length).toBe(4);
    expect(() => budgetCheck(first.r)).toThrow(/not judged: the call budget ran out/);
    const second = await run(['faithful'], undefined, cachePath);
    expect(second.r.skipped).toEqual([]);
    expect(second.r.videos).toHaveLength(4);
    expect(second.r.checklists).toHaveLength(24);
    expect(second.calls).toBe(36 - 26); // nothing asked twice
  });

  it('--max-calls counts the judge segmenter too: it stops there, names what it did not reach, and a re-run finishes', async () => {
    const whole = await run(['faithful'], undefined, join(tempDir(), 'segment-whole.sqlite'), {}, true);
    const cachePath = join(tempDir(), 'segment-budget.sqlite');
    // segmentation comes first, in the scan (one question per distinct video); a budget of 1 ends there
    const first = await run(['faithful'], undefined, cachePath, { maxCalls: 1 }, true);
    expect(first.calls).toBe(1);
    expect(first.r.response.skipped.length).toBeGreaterThan(0);
    expect(first.r.response.rows.length + first.r.response.skipped.length).toBe(4);
    expect(first.r.response.rows.every((r) => r.segmenter === 'judge')).toBe(true);
    expect(first.r.skipped).toEqual(expect.arrayContaining(first.r.response.skipped));
    expect(first.r.videos).toHaveLength(0); // nothing of the budget left for checklists
    expect(() => budgetCheck(first.r)).toThrow(/not judged: the call budget ran out/);
    const second = await run(['faithful'], undefined, cachePath, {}, true);
    expect(second.r.skipped).toEqual([]);
    expect(second.r.videos).toHaveLength(4);
    expect(second.calls).toBe(whole.calls - first.calls); // nothing asked twice
    expect(second.r.videos).toEqual(whole.r.videos);
  });
});
