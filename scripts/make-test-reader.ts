/**
 * Writes test/fixtures/judge/reader.json: a local reader (builtin features) fitted on the media
 * fixture images ordered by the VLM emulator's fixed preference rule, so that README examples and
 * tests can use `--judge local:…` with no server.   npx tsx scripts/make-test-reader.ts
 */
import { join, resolve } from 'node:path';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { ImageEncoder } from '../src/judge/images.js';
import { fitLocalReader, writeReaderFile } from '../src/judge/local.js';
import { decodeImage, loadImage } from '../src/media/image.js';
import { imageFeatures } from '../src/synthetic/emulator/features.js';
import { BASE_WEIGHTS, heroScore } from '../src/synthetic/emulator/rubric.js';

const ROOT = resolve(import.meta.dirname, '..');
const names = [
  'astronaut.png',
  'base.png',
  'blur.png',
  'coffee.png',
  'mandel.png',
  'noise.png',
  'shift.png',
  'testsrc.png',
];
const enc = new ImageEncoder();
const emb = createBuiltinEmbedder();
const rows = [];
for (const n of names) {
  const j = await enc.fromRaw(await loadImage(join(ROOT, 'test', 'fixtures', 'media', n)));
  const [phi] = await emb.embed([await decodeImage(j.bytes, n)]);
  rows.push({ n, phi: phi!, score: heroScore(await imageFeatures(j.bytes), BASE_WEIGHTS) });
}
rows.sort((a, b) => b.score - a.score);
const pairs = [];
for (let i = 0; i < rows.length; i++)
  for (let k = i + 1; k < rows.length; k++)
    pairs.push({ a: rows[i]!.phi, b: rows[k]!.phi, winner: 'a' as const });
const reader = fitLocalReader(pairs, emb, 0.05, {
  on: 'test/fixtures/media images ordered by the emulator rule',
  order: rows.map((r) => r.n),
});
await writeReaderFile(join(ROOT, 'test', 'fixtures', 'judge', 'reader.json'), reader);
console.log('order', rows.map((r) => `${r.n}:${r.score.toFixed(3)}`).join(' '));
