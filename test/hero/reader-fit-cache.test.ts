/**
 * The local reader is fitted once per inputs: a second run on the same chains and images reads
 * the reader file back (the same bytes, cross-validation as first reported); new chains bytes fit
 * it again.
 */
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetPaths } from '../../src/hero/dataset/layout.js';
import { fitHeroReaderCached } from '../../src/hero/reader/fit-cache.js';
import { sharedMiniHero } from '../support/mini-hero.js';
import { tempDir } from '../support/paths.js';

describe('fitHeroReaderCached', () => {
  it('fits once, reuses the fit for the same inputs, and refits when the chains change', async () => {
    const dir = tempDir('kfbench-reader-fit-');
    const data = join(dir, 'heroframe');
    cpSync((await sharedMiniHero()).data, data, { recursive: true });
    const out = join(dir, 'reader.json');
    const first = await fitHeroReaderCached({ data, out });
    expect(first.cached).toBe(false);
    const bytes = readFileSync(out, 'utf8');
    const second = await fitHeroReaderCached({ data, out });
    expect(second).toEqual({ ...first, cached: true });
    expect(readFileSync(out, 'utf8')).toBe(bytes);
    // another λ is another fit
    expect((await fitHeroReaderCached({ data, out: join(dir, 'r2.json'), lambda: 2 })).cached).toBe(false);
    // the same chains with a trailing blank line: other bytes, fitted again
    appendFileSync(datasetPaths(data).chains, '\n');
    expect((await fitHeroReaderCached({ data, out })).cached).toBe(false);
  });
});
