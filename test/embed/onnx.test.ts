import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embed/embedder.js';
import { loadOnnxEmbedder } from '../../src/embed/onnx.js';
import { createEmbedder } from '../../src/embed/registry.js';
import { loadImage } from '../../src/media/image.js';
import { ROOT, tempDir } from '../support/paths.js';

const FIX = join(ROOT, 'test', 'fixtures', 'embed');
const MODEL = join(FIX, 'tiny-vit.onnx');
interface Ref {
  image: string;
  cls: number[];
  mean: number[];
  pooled: number[];
}
const refs = (JSON.parse(readFileSync(join(FIX, 'references.json'), 'utf8')) as { images: Ref[] }).images;

function normalise(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('ONNX embedder on a real model file, against numpy (scripts/make-onnx-models.py)', () => {
  const open: Embedder[] = [];
  afterAll(async () => {
    for (const e of open) await e.close();
  });

  it.each([
    ['cls', undefined],
    ['mean', { pooling: 'mean' as const }],
    ['pooled', { output: 'pooler_output', pooling: 'pooled' as const }],
  ])('pooling %s, batched and one by one (1e-5)', async (pooling, overrides) => {
    const images = await Promise.all(refs.map((r) => loadImage(join(FIX, r.image))));
    for (const batch of [1, 3, 8]) {
      const e = await loadOnnxEmbedder(MODEL, overrides ? { overrides, batch } : { batch });
      open.push(e);
      const got = await e.embed(images);
      for (const [k, r] of refs.entries()) {
        const want = normalise(r[pooling as 'cls' | 'mean' | 'pooled']);
        const v = Array.from(got[k]!);
        for (let j = 0; j < want.length; j++) expect(Math.abs(v[j]! - want[j]!)).toBeLessThan(1e-5);
      }
    }
  });

  it('has an id, a version from the file bytes, and its preprocessing in config', async () => {
    const e = await createEmbedder(`onnx:${MODEL}`);
    open.push(e);
    expect(e.id).toBe('onnx:tiny-vit');
    expect(e.version).toMatch(/^[0-9a-f]{16}$/);
    expect(e.config).toMatchObject({
      input_size: [32, 32],
      resize: 'squash',
      layout: 'NCHW',
      pooling: 'cls',
    });
    expect(e.defaultThreshold).toBeUndefined();
  });

  it('resizes other sizes (shorter side + centre crop) and keeps vectors unit-length', async () => {
    const e = await loadOnnxEmbedder(MODEL, { overrides: { resize: 'shorter_side_center_crop' } });
    open.push(e);
    const [v] = await e.embed([await loadImage(join(ROOT, 'test', 'fixtures', 'media', 'base.png'))]);
    expect(Math.hypot(...Array.from(v!))).toBeCloseTo(1, 5);
  });

  it.each([
    ['a missing file', () => loadOnnxEmbedder(join(FIX, 'absent.onnx')), /absent\.onnx: no such model file/],
    [
      'a file that is not a model',
      () => loadOnnxEmbedder(join(FIX, 'not-a-model.onnx'), { overrides: { input_size: 32 } }),
      /not-a-model\.onnx: not a loadable ONNX model/,
    ],
    [
      'an input shape that does not fit',
      () => loadOnnxEmbedder(MODEL, { overrides: { input_size: 64 } }),
      /tiny-vit\.onnx: model input "pixel_values" has shape \[batch, 3, 32, 32\] but the preprocessing gives \[N, 3, 64, 64\]/,
    ],
    [
      'an unknown output',
      () => loadOnnxEmbedder(MODEL, { overrides: { output: 'logits' } }),
      /has no output "logits"/,
    ],
  ])('%s is bad input with the reason', async (_, load, msg) => {
    await expect(load()).rejects.toThrow(msg);
  });

  it('a model without a preprocessing file says what to write', async () => {
    const dir = tempDir();
    copyFileSync(MODEL, join(dir, 'm.onnx'));
    await expect(loadOnnxEmbedder(join(dir, 'm.onnx'))).rejects.toThrow(
      /no m\.json or preprocess\.json beside the model/,
    );
    writeFileSync(join(dir, 'preprocess.json'), JSON.stringify({ input_size: 32 }));
    const e = await loadOnnxEmbedder(join(dir, 'm.onnx'));
    open.push(e);
    expect(e.config).toMatchObject({ input_size: [32, 32] });
  });
});
