/**
 * The photographic statistics of an image (`imageStatsOf`, at its own size) against numpy on
 * OpenCV's decode of the same PNGs (scripts/image-stats-references.py →
 * test/fixtures/media/image-stats.json). Tolerance 1e-9: the same formulas in double precision,
 * summed in another order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadImage } from '../../src/media/image.js';
import { imageStatsOf } from '../../src/media/image-stats.js';
import { ROOT } from '../support/paths.js';

const MEDIA = join(ROOT, 'test', 'fixtures', 'media');
const REF = JSON.parse(readFileSync(join(MEDIA, 'image-stats.json'), 'utf8')) as {
  images: Record<string, Record<string, number>>;
};

describe('image statistics against numpy', () => {
  for (const [name, want] of Object.entries(REF.images))
    it(name, async () => {
      const got = imageStatsOf(await loadImage(join(MEDIA, name)));
      for (const [k, v] of Object.entries(want)) expect(got[k as keyof typeof got], k).toBeCloseTo(v, 9);
    });
});
