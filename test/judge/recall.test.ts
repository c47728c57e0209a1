/**
 * `Judge.recall`: answers read again by their cache keys (`Verdict.key`) without the questions —
 * all of them, counted as cache hits, or none (nothing counted) when one is missing.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairAnswer } from '../../src/judge/pairwise.js';
import { emulatorJudge } from '../support/emulator.js';
import { askMany, imagePool, question } from '../support/judge-questions.js';
import { tempDir } from '../support/paths.js';

describe('Judge.recall', () => {
  it('returns every cached answer by key as a cache hit, or nothing when one key is not cached', async () => {
    const s = await emulatorJudge({}, {}, join(tempDir('recall-'), 'cache.sqlite'));
    try {
      const asked = await askMany(s.judge, 3);
      // a verdict's key is its question's cache key
      const images = await imagePool();
      expect(asked.map((v) => v.key)).toEqual([0, 1, 2].map((i) => s.judge.keyOf(question(i, images))));
      const calls = s.judge.stats.calls;
      const wanted = asked.map((v) => ({ key: v.key, schema: PairAnswer }));
      const got = s.judge.recall(wanted)!;
      expect(got.map((v) => v.answer)).toEqual(asked.map((v) => v.answer));
      expect(got.every((v) => v.cached && v.calls === 0)).toBe(true);
      expect(got.map((v) => v.key)).toEqual(asked.map((v) => v.key));
      expect(s.judge.stats).toMatchObject({ calls, cached: 3 });
      // one key the cache lacks: nothing returned, nothing counted, nothing asked
      expect(s.judge.recall([...wanted, { key: 'f'.repeat(64), schema: PairAnswer }])).toBeUndefined();
      expect(s.judge.stats).toMatchObject({ calls, cached: 3 });
    } finally {
      await s.close();
    }
  });
});
