/**
 * The evaluation cache: a warm `compass evaluate` reads a video's answers without decoding it, and
 * writes the same bytes as the cold run; new video bytes (same path, same size, same mtime), a
 * damaged entry or a changed setting are misses — decoded and asked again, never a stale answer.
 * Two mini-set videos, judged and segmented by the emulator over real HTTP.
 */
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LoadedCase, loadCases, type PromptMode, videoPath } from '../../../src/compass/cases/cases.js';
import { leaderboard } from '../../../src/compass/overall/leaderboard.js';
import {
  EVALUATION_CACHE_TABLE,
  type EvaluationCache,
  evaluationCacheIn,
} from '../../../src/compass/quality/eval-cache.js';
import { judgeSegmenter } from '../../../src/compass/quality/segment.js';
import { groupedEntryKey } from '../../../src/compass/quality/video.js';
import { evaluateCompass } from '../../../src/compass/run/evaluate.js';
import { writeEvaluationRun } from '../../../src/compass/run/outputs.js';
import { ScanCache } from '../../../src/compass/scan/cache.js';
import type { VideoEvaluation } from '../../../src/compass/schemas/evaluation.js';
import type { Checklist } from '../../../src/compass/schemas/quality.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ImageEncoder } from '../../../src/judge/images.js';
import { Judge } from '../../../src/judge/judge.js';
import type { JudgeBackend } from '../../../src/judge/types.js';
import { probe } from '../../../src/media/probe.js';
import { openDatabase } from '../../../src/store/sqlite.js';
import type { MiniCompassPaths } from '../../../src/synthetic/mini-compass/build.js';
import { emulatorJudge } from '../../support/emulator.js';
import { sharedMiniCompass } from '../../support/mini-compass.js';
import { tempDir } from '../../support/paths.js';

const MODEL = 'faithful';
const MODES: PromptMode[] = ['minimal'];
const OUTPUTS = [
  'evaluation.jsonl',
  'summary.json',
  'leaderboard.json',
  'response.jsonl',
  'checklists.jsonl',
];

let p: MiniCompassPaths;
let cases: LoadedCase[] = [];

beforeAll(async () => {
  p = await sharedMiniCompass();
  cases = (await loadCases(p.cases)).filter((c) => ['ot-03', 'ms-06'].includes(c.case_id));
});

/**
 * A videos folder of its own with `faithful`'s two videos, each padded by a trailing MP4 `free`
 * box to `size` bytes (so another video can later take its place at the same size).
 */
function ownVideos(dir: string, size: number): string {
  const videos = join(dir, 'videos');
  for (const c of cases) placeVideo(videos, c.case_id, MODEL, size);
  return videos;
}

/** Copy `from`'s video of a case into `faithful`'s place (in place: same inode), padded to `size` bytes with a `free` box. */
function placeVideo(videos: string, caseId: string, from: string, size: number): string {
  const dst = videoPath(videos, MODEL, caseId, 'minimal');
  mkdirSync(join(videos, MODEL), { recursive: true });
  const bytes = readFileSync(videoPath(p.videos, from, caseId, 'minimal'));
  if (size - bytes.length < 8)
    throw new Error(`pad size ${size} too small for ${dst} (${bytes.length} bytes)`);
  const box = Buffer.alloc(size - bytes.length);
  box.writeUInt32BE(box.length, 0);
  box.write('free', 4, 'latin1');
  writeFileSync(dst, Buffer.concat([bytes, box]));
  return dst;
}

interface Run {
  videos: VideoEvaluation[];
  calls: number;
  cached: number;
  hits: number;
  misses: number;
  encoded: number;
  out: string;
}

/** One `compass evaluate` as the CLI runs it: judge cache, scan cache and evaluation cache in `dir`. */
async function evaluateIn(dir: string, videos: string, out: string): Promise<Run> {
  // a loaded machine can take long over a request with ~100 images: no client timeout short enough to hit
  const j = await emulatorJudge({}, { timeoutMs: 600_000 }, join(dir, 'judge-cache.sqlite'));
  const scans = new ScanCache(join(dir, 'scan-cache.sqlite'));
  const evaluationCache = evaluationCacheIn(j.cache) as EvaluationCache;
  const encoder = new ImageEncoder();
  const embedder = createBuiltinEmbedder();
  try {
    const r = await evaluateCompass({
      cases,
      videos,
      models: [MODEL],
      modes: MODES,
      embedder,
      judge: j.judge,
      encoder,
      cache: scans,
      evaluationCache,
      segment: judgeSegmenter(j.judge, encoder, probe, evaluationCache),
    });
    const lb = leaderboard(r.videos, [MODEL], { judge: j.judge.name, embedder: embedder.id, runs: 1 });
    await writeEvaluationRun(out, r, lb, [MODEL], { wall_s: 0, judge: j.judge.stats });
    return {
      videos: r.videos,
      calls: j.judge.stats.calls,
      cached: j.judge.stats.cached,
      hits: evaluationCache.hits,
      misses: evaluationCache.misses,
      encoded: encoder.encoded,
      out,
    };
  } finally {
    scans.close();
    await embedder.close();
    await j.close();
  }
}

const bytesOf = (r: Run) => OUTPUTS.map((f) => readFileSync(join(r.out, f), 'utf8'));
const keyframeImages = () => new Set(cases.flatMap((c) => c.keyframes.map((k) => k.image))).size;
const padTo = () =>
  Math.max(
    ...cases.flatMap((c) =>
      ['faithful', 'blurred'].map((m) => statSync(videoPath(p.videos, m, c.case_id, 'minimal')).size),
    ),
  ) + 64;

describe('the evaluation cache', () => {
  it('a warm run decodes no video, asks nothing and writes byte-identical results; a damaged entry is a miss', async () => {
    const dir = tempDir();
    const videos = ownVideos(dir, padTo());
    const cold = await evaluateIn(dir, videos, join(dir, 'cold'));
    // 2 videos: one segmentation and one grouped entry each, all recorded
    expect(cold).toMatchObject({ hits: 0, misses: 4 });
    expect(cold.calls).toBeGreaterThan(0);

    const warm = await evaluateIn(dir, videos, join(dir, 'warm'));
    expect(warm).toMatchObject({ calls: 0, hits: 4, misses: 0 });
    // every answer from the judge cache: 12 checklists, 2 segmentations, 3 grouped calls per video
    expect(warm.cached).toBe(20);
    // only the checklists' keyframe images were encoded: no video frame was decoded
    expect(warm.encoded).toBe(keyframeImages());
    expect(bytesOf(warm)).toEqual(bytesOf(cold));

    // damaged entries: every one is a miss, decoded and asked again (answers from the judge cache)
    const db = openDatabase(join(dir, 'judge-cache.sqlite'));
    db.prepare(`UPDATE ${EVALUATION_CACHE_TABLE} SET value = ?`).run(
      Buffer.from('{"v": 1, "kind": "grouped", "calls": "not a list"}'),
    );
    db.close();
    const damaged = await evaluateIn(dir, videos, join(dir, 'damaged'));
    expect(damaged).toMatchObject({ calls: 0, hits: 0, misses: 4 });
    expect(damaged.encoded).toBeGreaterThan(keyframeImages());
    expect(bytesOf(damaged)).toEqual(bytesOf(cold));
    // … and replaced
    const again = await evaluateIn(dir, videos, join(dir, 'again'));
    expect(again).toMatchObject({ calls: 0, hits: 4, misses: 0 });
    expect(bytesOf(again)).toEqual(bytesOf(cold));
  });

  it('new bytes at the same path, size and mtime: that video is decoded and asked again, the other is not', async () => {
    const dir = tempDir();
    const size = padTo();
    const videos = ownVideos(dir, size);
    const file = videoPath(videos, MODEL, 'ot-03', 'minimal');
    // a whole-second mtime, so that utimes can put back exactly the same one
    const stamp = new Date('2026-01-02T03:04:05Z');
    utimesSync(file, stamp, stamp);
    const cold = await evaluateIn(dir, videos, join(dir, 'cold'));
    const before = statSync(file, { bigint: true });
    // another video (the blurred one) in its place, same size; the same mtime put back
    placeVideo(videos, 'ot-03', 'blurred', size);
    utimesSync(file, stamp, stamp);
    const after = statSync(file, { bigint: true });
    expect(after.size).toBe(before.size);
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(after.ino).toBe(before.ino);

    const changed = await evaluateIn(dir, videos, join(dir, 'changed'));
    // ot-03: its segmentation and its grouped questions missed; ms-06: both hit
    expect(changed).toMatchObject({ hits: 2, misses: 2 });
    // new frames: new questions (one segmentation, three grouped calls for ot-03's minimal prompt)
    expect(changed.calls).toBe(4);
    const row = (r: Run, id: string) => r.videos.find((v) => v.case_id === id)!;
    expect(row(changed, 'ms-06')).toEqual(row(cold, 'ms-06'));
    expect(row(changed, 'ot-03').quality.metrics.SVQ.score!).toBeLessThan(
      row(cold, 'ot-03').quality.metrics.SVQ.score!,
    );
    // the same rows as a cold evaluation of these bytes with empty caches
    const fresh = tempDir();
    const freshVideos = ownVideos(fresh, size);
    placeVideo(freshVideos, 'ot-03', 'blurred', size);
    const reference = await evaluateIn(fresh, freshVideos, join(fresh, 'out'));
    expect(bytesOf(changed)).toEqual(bytesOf(reference));
  });
});

describe('the evaluation cache key', () => {
  it('changes with every input of the questions, and only with them', async () => {
    const c = cases.find((x) => x.case_id === 'ot-03')!;
    // a judge is keyed by its backend's name, model and identity and its sampling; it is never asked here
    const backend = (max_tokens: number, identity: Record<string, unknown> = {}) => {
      const b: JudgeBackend = {
        name: 'openai',
        model: 'm',
        identity,
        complete: () => Promise.reject(new Error('not asked in this test')),
        close: () => Promise.resolve(),
      };
      return new Judge(b, { sampling: { temperature: 0, max_tokens } });
    };
    const checklist: Checklist = {
      case_id: c.case_id,
      prompt_mode: 'minimal',
      metric: 'SVQ',
      items: [
        { item_id: 'svq1', question: 'Is it sharp?', scope: 'full_video', anchors: [], dimension: 'clarity' },
      ],
    };
    const base = {
      judge: backend(2048),
      encoder: new ImageEncoder(),
      c,
      mode: 'minimal' as const,
      video: videoPath(p.videos, MODEL, c.case_id, 'minimal'),
      checklists: new Map([['SVQ' as const, checklist]]),
      shots: [{ start_s: 0, end_s: 4.5 }],
      options: {},
      run: 0,
    };
    const key = await groupedEntryKey(base);
    // the same inputs (defaults spelt out or not): the same key
    expect(await groupedEntryKey({ ...base, options: { fps: 8, frameWidth: 384, audio: false } })).toBe(key);
    const variants: Partial<typeof base>[] = [
      { video: videoPath(p.videos, 'blurred', c.case_id, 'minimal') },
      { mode: 'segment_specific' as never },
      { run: 1 },
      { options: { fps: 4 } },
      { options: { budget: 16 } },
      { options: { frameWidth: 256 } },
      { options: { audio: true } },
      {
        shots: [
          { start_s: 0, end_s: 2 },
          { start_s: 2, end_s: 4.5 },
        ],
      },
      {
        checklists: new Map([
          ['SVQ' as const, { ...checklist, items: [{ ...checklist.items[0]!, question: 'Sharp?' }] }],
        ]),
      },
      { c: { ...c, story_summary: `${c.story_summary} More.` } },
      {
        c: {
          ...c,
          keyframes: c.keyframes.map((k, i) => (i === 0 ? { ...k, image: c.keyframes[1]!.image } : k)),
        },
      },
      { judge: backend(1024) },
      { judge: backend(2048, { weights: 'other' }) },
      { encoder: new ImageEncoder(512) },
    ];
    const keys = await Promise.all(variants.map((v) => groupedEntryKey({ ...base, ...v })));
    for (const k of keys) expect(k).not.toBe(key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
