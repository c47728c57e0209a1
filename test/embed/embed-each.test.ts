/**
 * One vector an image, checked (src/embed/embedder.ts `embedEach`, `embedOne`, `embedTwo`): an
 * embedder that gives fewer or more vectors than images is a BackendError naming it, where the
 * callers (the local reader, calibration, `similarity`) used to read an undefined vector.
 */
import { describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { type Embedder, embedEach, embedOne, embedTwo } from '../../src/embed/embedder.js';
import { loadImage } from '../../src/media/image.js';
import { media } from '../support/paths.js';

/** The builtin embedder with its output cut to `keep` vectors (a broken model or backend). */
function dropping(keep: number): Embedder {
  const real = createBuiltinEmbedder();
  return {
    ...real,
    id: 'dropping',
    inputSize: (w, h) => real.inputSize(w, h),
    embed: async (images) => (await real.embed(images)).slice(0, keep),
  };
}

describe('one vector an image', () => {
  it('passes the vectors of a sound embedder through', async () => {
    const a = await loadImage(media('base.png'));
    const b = await loadImage(media('shift.png'));
    const e = createBuiltinEmbedder();
    const [va, vb] = await embedTwo(e, a, b);
    expect([...va]).toEqual([...(await embedOne(e, a))]);
    expect([...vb]).toEqual([...(await e.embed([b]))[0]!]);
    expect(await embedEach(e, [a, b, a])).toHaveLength(3);
  });

  it('names an embedder that gives fewer vectors than images', async () => {
    const a = await loadImage(media('base.png'));
    await expect(embedTwo(dropping(1), a, a)).rejects.toMatchObject({
      name: 'BackendError',
      message: 'embedder dropping gave 1 vectors for 2 images',
    });
    await expect(embedOne(dropping(0), a)).rejects.toThrow('embedder dropping gave 0 vectors for 1 images');
  });
});
