/**
 * A warm `compass evaluate` reads each video's bytes once: the scan cache's key, the judge
 * segmentation's entry and the grouped questions' entries share one hash per file and run (it
 * used to be read three times). Counted by wrapping the one sha256-of-a-file function.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type LoadedCase, loadCases, videoPath } from '../../../src/compass/cases/cases.js';
import { type EvaluationCache, evaluationCacheIn } from '../../../src/compass/quality/eval-cache.js';
import { judgeSegmenter } from '../../../src/compass/quality/segment.js';
import { evaluateCompass } from '../../../src/compass/run/evaluate.js';
import { ScanCache } from '../../../src/compass/scan/cache.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { ImageEncoder } from '../../../src/judge/images.js';
import { probe } from '../../../src/media/probe.js';
import type { MiniCompassPaths } from '../../../src/synthetic/mini-compass/build.js';
import { emulatorJudge } from '../../support/emulator.js';
import { sharedMiniCompass } from '../../support/mini-compass.js';
import { tempDir } from '../../support/paths.js';

const reads = vi.hoisted(() => new Map<string, number>());
vi.mock('../../../src/store/canonical.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../src/store/canonical.js')>();
  return {
    ...m,
    sha256File: (path: string) => {
      reads.set(path, (reads.get(path) ?? 0) + 1);
      return m.sha256File(path);
    },
  };
});

let p: MiniCompassPaths;
let cases: LoadedCase[] = [];
beforeAll(async () => {
  p = await sharedMiniCompass();
  cases = (await loadCases(p.cases)).filter((c) => c.case_id === 'ms-06');
});

async function evaluateIn(dir: string): Promise<{ hits: number; calls: number }> {
  const j = await emulatorJudge({}, { timeoutMs: 600_000 }, join(dir, 'judge-cache.sqlite'));
  const scans = new ScanCache(join(dir, 'scan-cache.sqlite'));
  const evaluationCache = evaluationCacheIn(j.cache) as EvaluationCache;
  const encoder = new ImageEncoder();
  const embedder = createBuiltinEmbedder();
  try {
    await evaluateCompass({
      cases,
      videos: p.videos,
      models: ['faithful'],
      modes: ['minimal'],
      embedder,
      judge: j.judge,
      encoder,
      cache: scans,
      evaluationCache,
      segment: judgeSegmenter(j.judge, encoder, probe, evaluationCache),
    });
    return { hits: evaluationCache.hits, calls: j.judge.stats.calls };
  } finally {
    scans.close();
    await embedder.close();
    await j.close();
  }
}

describe('a warm compass evaluate', () => {
  it('hashes the video and each keyframe image once', async () => {
    const dir = tempDir('kfbench-eval-hashes-');
    await evaluateIn(dir); // cold
    reads.clear();
    const warm = await evaluateIn(dir);
    // warm indeed: every answer from the caches, the segmentation's and the questions' entries hit
    expect(warm.calls).toBe(0);
    expect(warm.hits).toBeGreaterThanOrEqual(2);
    const video = videoPath(p.videos, 'faithful', 'ms-06', 'minimal');
    expect(reads.get(video)).toBe(1);
    for (const k of cases[0]!.keyframes) expect(reads.get(k.image)).toBe(1);
  });
});
