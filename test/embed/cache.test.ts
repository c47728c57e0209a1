import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { withEmbeddingCache } from '../../src/embed/cache.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { loadImage } from '../../src/media/image.js';
import { media, tempDir } from '../support/paths.js';

describe('embedding cache (a real SQLite file)', () => {
  it('re-embedding is served from the cache, across processes-worth of handles', async () => {
    const file = join(tempDir(), 'embed.sqlite');
    const imgs = await Promise.all(['base.png', 'coffee.png', 'mandel.png'].map((n) => loadImage(media(n))));
    let calls = 0;
    const counting = (): Embedder => {
      const inner = createBuiltinEmbedder();
      return {
        ...inner,
        embed: async (xs) => {
          calls += xs.length;
          return inner.embed(xs);
        },
      };
    };
    const first = withEmbeddingCache(counting(), file);
    const v1 = await first.embed(imgs);
    expect(first.stats).toEqual({ hits: 0, misses: 3 });
    await first.close();
    const second = withEmbeddingCache(counting(), file);
    const v2 = await second.embed([imgs[2]!, imgs[0]!, imgs[1]!]);
    expect(second.stats).toEqual({ hits: 3, misses: 0 });
    expect(calls).toBe(3);
    expect(Array.from(v2[0]!)).toEqual(Array.from(v1[2]!));
    await second.close();
  });

  it('a different embedder version or preprocessing misses', async () => {
    const file = join(tempDir(), 'embed.sqlite');
    const img = await loadImage(media('base.png'));
    const a = withEmbeddingCache(createBuiltinEmbedder(), file);
    await a.embed([img]);
    await a.close();
    const other = withEmbeddingCache({ ...createBuiltinEmbedder(), version: 'other' }, file);
    await other.embed([img]);
    expect(other.stats).toEqual({ hits: 0, misses: 1 });
    await other.close();
    const cfg = withEmbeddingCache({ ...createBuiltinEmbedder(), config: { size: 32 } }, file);
    await cfg.embed([img]);
    expect(cfg.stats.misses).toBe(1);
    await cfg.close();
  });
});
