/**
 * The mini Compass set's labelled keyframe/frame pairs (`pairs.jsonl`, for `embed calibrate`): two
 * per keyframe, every image there, and separable — the builtin embedder puts a clean margin
 * between the drifted rendition of a keyframe (label 1) and that of its neighbour (label 0).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrateEmbedder } from '../../src/embed/with-embedder.js';
import { sharedMiniCompass, TEST_CASES } from '../support/mini-compass.js';

describe('mini Compass pairs.jsonl', () => {
  it('two labelled pairs per keyframe, every image present, cleanly separated by the builtin embedder', async () => {
    const p = await sharedMiniCompass();
    const lines = readFileSync(p.pairs, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { a: string; b: string; label: 0 | 1 });
    const keyframes = TEST_CASES.reduce((s, c) => s + c.n, 0);
    expect(lines.filter((l) => l.label === 1)).toHaveLength(keyframes);
    expect(lines.filter((l) => l.label === 0)).toHaveLength(keyframes);
    for (const l of lines) {
      expect(existsSync(join(p.root, l.a)), l.a).toBe(true);
      expect(existsSync(join(p.root, l.b)), l.b).toBe(true);
    }
    const { report } = await calibrateEmbedder({ spec: 'builtin' }, p.pairs);
    expect(report.margin).toBeGreaterThan(0);
    expect(report.eer).toBe(0);
  });
});
