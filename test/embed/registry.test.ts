/** Embedders made again from their spec (a worker thread's copy), and the cores shared between copies. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { createEmbedder, embedderFromSpec, shareSpec } from '../../src/embed/registry.js';
import { loadImage } from '../../src/media/image.js';
import { ROOT } from '../support/paths.js';

const FIX = join(ROOT, 'test', 'fixtures', 'embed');

describe('Embedder.spec', () => {
  it('makes the same embedder again: builtin, and onnx:PATH with its options', async () => {
    const images = await Promise.all([0, 1].map((i) => loadImage(join(FIX, `img${i}.png`))));
    const builtin = createBuiltinEmbedder();
    expect(builtin.spec).toEqual({ name: 'builtin' });
    const opts = { threads: 1, batch: 3, overrides: { pooling: 'mean' as const } };
    const onnx = await createEmbedder(`onnx:${join(FIX, 'tiny-vit.onnx')}`, opts);
    try {
      expect(onnx.spec).toEqual({ name: `onnx:${join(FIX, 'tiny-vit.onnx')}`, options: opts });
      expect(structuredClone(onnx.spec)).toEqual(onnx.spec); // it crosses to a worker thread
      for (const e of [builtin, onnx]) {
        const copy = await embedderFromSpec(structuredClone(e.spec!));
        try {
          expect({ id: copy.id, version: copy.version, config: copy.config }).toEqual({
            id: e.id,
            version: e.version,
            config: e.config,
          });
          expect(await copy.embed(images)).toEqual(await e.embed(images));
        } finally {
          await copy.close();
        }
      }
    } finally {
      await onnx.close();
    }
  });

  it('shareSpec: copies of an ONNX session without set threads split the cores; anything else is kept', () => {
    const onnx = { name: 'onnx:m.onnx', options: { batch: 4 } };
    expect(shareSpec(onnx, 2, 8)).toEqual({ name: 'onnx:m.onnx', options: { batch: 4, threads: 4 } });
    expect(shareSpec(onnx, 3, 8).options?.threads).toBe(2);
    expect(shareSpec(onnx, 4, 2).options?.threads).toBe(1); // at least one each
    expect(shareSpec({ name: 'onnx:m.onnx' }, 2, 2).options?.threads).toBe(1);
    const set = { name: 'onnx:m.onnx', options: { threads: 3 } };
    expect(shareSpec(set, 2, 8)).toBe(set); // the user's --threads: every copy takes that many
    expect(shareSpec({ name: 'builtin' }, 2, 8)).toEqual({ name: 'builtin' });
  });
});
