/**
 * Image files the judge's encoder cannot use: a missing file and one that is not an image are bad
 * input naming the file, with or without the judge cache's image hashes, and not remembered as
 * failures (the file put right is encoded on the next ask).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { JudgeCache } from '../../src/judge/cache.js';
import { ImageEncoder } from '../../src/judge/images.js';
import { media, tempDir } from '../support/paths.js';

describe('image files the judge cannot use', () => {
  it.each([
    ['without', false],
    ['with', true],
  ])('%s a hash store: bad input naming the file, then encoded once it is there', async (_, remembered) => {
    const dir = tempDir('image-files-');
    const cache = remembered ? new JudgeCache(join(dir, 'cache.sqlite')) : undefined;
    const enc = new ImageEncoder(64, undefined, cache);
    try {
      const file = join(dir, 'a.jpg');
      const missing = await enc.fromFile(file).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(BadInputError);
      expect((missing as Error).message).toMatch(/a\.jpg: no such file/);
      copyFileSync(media('not-an-image.jpg'), file);
      await expect(enc.fromFile(file)).rejects.toThrow(/a\.jpg: not a readable image/);
      copyFileSync(media('base.jpg'), file);
      const img = await enc.fromFile(file);
      expect(img.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      expect(enc.encoded).toBe(1);
    } finally {
      cache?.close();
    }
  });
});
