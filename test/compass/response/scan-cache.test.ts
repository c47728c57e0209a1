/** The scan cache: keys from the resolved options, and a damaged entry is a miss, never a crash or a wrong scan. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedScan, ScanCache, scanKey } from '../../../src/compass/scan/cache.js';
import { DEFAULT_SCAN_OPTIONS } from '../../../src/compass/scan/options.js';
import { createBuiltinEmbedder } from '../../../src/embed/builtin.js';
import { DEFAULT_SHOT_OPTIONS } from '../../../src/media/shot-options.js';
import { KvTable } from '../../../src/store/sqlite-tables.js';
import { media, tempDir } from '../../support/paths.js';

const input = { video: media('shots.mp4'), keyframes: [{ kf_id: 'k1', image: media('base.png') }] };

describe('the scan cache key', () => {
  it('is the same whether the defaults are left out or spelt out, and changes with any option', async () => {
    const e = createBuiltinEmbedder();
    const bare = await scanKey(input, e, {}, {});
    expect(await scanKey(input, e, DEFAULT_SCAN_OPTIONS, DEFAULT_SHOT_OPTIONS)).toBe(bare);
    // a caller passing the default explicitly gets the same key as one relying on it
    expect(await scanKey(input, e, {}, { cutThreshold: DEFAULT_SHOT_OPTIONS.cutThreshold })).toBe(bare);
    expect(await scanKey(input, e, {}, { cutThreshold: DEFAULT_SHOT_OPTIONS.cutThreshold + 0.1 })).not.toBe(
      bare,
    );
    expect(await scanKey(input, e, { fpsCap: DEFAULT_SCAN_OPTIONS.fpsCap / 2 }, {})).not.toBe(bare);
    // how the scan is made (decoder threads, early start) gives the same frames: the same key
    expect(await scanKey(input, e, { decodeThreads: 3, earlyStart: false }, {})).toBe(bare);
  });
});

describe('a damaged cache entry', () => {
  it('is a miss: the video is scanned again and the entry replaced', async () => {
    const e = createBuiltinEmbedder();
    const file = join(tempDir(), 'scans.sqlite');
    const cache = new ScanCache(file);
    try {
      const first = await cachedScan(input, e, {}, {}, cache);
      expect(first.cached).toBe(false);
      expect((await cachedScan(input, e, {}, {}, cache)).cached).toBe(true);
      const key = await scanKey(input, e, {}, {});
      const table = new KvTable(cache.db, 'compass_scans');
      for (const junk of ['{"sims": "not a scan"}', 'not json at all']) {
        table.put(key, Buffer.from(junk));
        expect(cache.get(key)).toBeUndefined();
        const again = await cachedScan(input, e, {}, {}, cache);
        expect(again.cached).toBe(false);
        expect(again.scan).toEqual(first.scan);
        expect(cache.get(key)).toEqual(first.scan);
      }
    } finally {
      cache.close();
    }
  });
});
