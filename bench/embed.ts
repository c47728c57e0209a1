/**
 * bench/embed — embedders against the ceiling of the same work in the same run.
 *
 *   /usr/bin/python3 scripts/make-onnx-models.py --bench   (once: writes bench/out/bench-vit.onnx,
 *                                                          a ViT-S-like cost at 224×224)
 *   npx tsx bench/embed.ts
 *
 * (a) a raw onnxruntime `session.run` on ready float tensors (one intra-op thread)
 * (b) kfbench's onnx embedder on 224×224 RGB images (tensor building, run, pooling, L2)
 * at batch 1 and 8; ratio = time(a) / time(b) (target ≥ 0.87, i.e. ≤ 15 % overhead).
 * Also the builtin embedder's images/s, and peak RSS of the process.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { loadOnnxEmbedder, rawOnnxSession } from '../src/embed/onnx.js';
import { resizeImage } from '../src/media/image.js';
import { makeImagePairs } from '../src/synthetic/image-pairs.js';

const ROOT = resolve(import.meta.dirname, '..');
const MODEL = join(ROOT, 'bench', 'out', 'bench-vit.onnx');
const N = 48;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

const pairs = await makeImagePairs('bench', N / 2);
const images = await Promise.all(
  pairs.flatMap((p) => [p.a, p.b]).map((i) => resizeImage(i, 224, 224, 'fill')),
);
const rss = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);

const t0 = performance.now();
const builtin = createBuiltinEmbedder();
for (let r = 0; r < 5; r++) await builtin.embed(images);
const builtinRate = (5 * N) / ((performance.now() - t0) / 1000);
console.log(`| builtin embedder | ${builtinRate.toFixed(0)} images/s | | peak RSS ${rss()} MB |`);

if (!existsSync(MODEL)) {
  console.log('bench/out/bench-vit.onnx is missing: /usr/bin/python3 scripts/make-onnx-models.py --bench');
  process.exit(0);
}
const tensors = images.map((img) => {
  const d = new Float32Array(3 * 224 * 224);
  for (let p = 0; p < 224 * 224; p++)
    for (let c = 0; c < 3; c++) d[c * 224 * 224 + p] = (img.data[p * 3 + c]! / 255 - MEAN[c]!) / STD[c]!;
  return d;
});
console.log('| path | batch | images/s | ratio to raw | peak RSS (MB) |\n|---|---|---|---|---|');
for (const batch of [1, 8]) {
  const raw = await rawOnnxSession(MODEL, 1);
  const emb = await loadOnnxEmbedder(MODEL, { batch });
  // warm both
  await raw.run(tensors[0]!, [1, 3, 224, 224]);
  await emb.embed([images[0]!]);
  const times = { raw: 0, kf: 0 };
  for (let rep = 0; rep < 3; rep++) {
    let t = performance.now();
    for (let s = 0; s < N; s += batch) {
      const n = Math.min(batch, N - s);
      const data = new Float32Array(n * 3 * 224 * 224);
      for (let k = 0; k < n; k++) data.set(tensors[s + k]!, k * 3 * 224 * 224);
      await raw.run(data, [n, 3, 224, 224]);
    }
    times.raw += performance.now() - t;
    t = performance.now();
    await emb.embed(images);
    times.kf += performance.now() - t;
  }
  console.log(
    `| raw session.run | ${batch} | ${((3 * N) / (times.raw / 1000)).toFixed(1)} | 1.00 | ${rss()} |`,
  );
  console.log(
    `| kfbench onnx embedder | ${batch} | ${((3 * N) / (times.kf / 1000)).toFixed(1)} | ${(times.raw / times.kf).toFixed(3)} | ${rss()} |`,
  );
  await raw.release();
  await emb.close();
}
