/**
 * Calibrates the builtin embedder's default threshold: the equal-error threshold on the pairs of
 * `makeImagePairs("calibration", 400)`. Prints it (to be written into src/embed/builtin.ts as
 * BUILTIN_THRESHOLD) and the rates on another seed for information.
 *   npx tsx scripts/calibrate-builtin.ts
 */

import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { cosine } from '../src/embed/embedder.js';
import { equalErrorRate, ratesAt } from '../src/stats/eer.js';
import { makeImagePairs } from '../src/synthetic/image-pairs.js';

const emb = createBuiltinEmbedder();
async function scored(seed: string, n: number) {
  const pairs = await makeImagePairs(seed, n);
  const out = [];
  for (const p of pairs) {
    const [a, b] = await emb.embed([p.a, p.b]);
    out.push({ score: cosine(a!, b!), label: p.label, what: p.what });
  }
  return out;
}
const cal = await scored('calibration', 400);
const e = equalErrorRate(cal);
console.log(`calibration: EER ${e.eer.toFixed(4)} at threshold ${e.threshold.toFixed(4)}`);
const t = Math.round(e.threshold * 100) / 100;
const other = await scored('check', 200);
console.log(`rounded threshold ${t}: calibration`, ratesAt(cal, t), 'other seed', ratesAt(other, t));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  'mean cos positives',
  mean(cal.filter((s) => s.label === 1).map((s) => s.score)).toFixed(3),
  'negatives',
  mean(cal.filter((s) => s.label === 0).map((s) => s.score)).toFixed(3),
);
for (const w of ['blur', 'noise', 'jpeg', 'shift', 'zoom', 'brightness', 'far crops', 'unrelated']) {
  const xs = cal.filter((s) => s.what.includes(w)).map((s) => s.score);
  if (xs.length)
    console.log(
      w.padEnd(12),
      'n',
      xs.length,
      'min',
      Math.min(...xs).toFixed(3),
      'mean',
      mean(xs).toFixed(3),
      'max',
      Math.max(...xs).toFixed(3),
    );
}
