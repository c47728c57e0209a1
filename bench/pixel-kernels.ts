/**
 * bench/pixel-kernels — each WebAssembly pixel loop (src/media/pixel-kernels.ts, as quality.ts,
 * window.ts and shot-features.ts call it) against the plain JavaScript loop it replaced
 * (test/support/pixels-plain.ts), on the same inputs in the same run, alternating: milliseconds a
 * call (median of the rounds) and the ratio plain / WebAssembly, after checking that both give the
 * same bytes. Inputs are noise (the worst case for the branches of a clamp) at the Compass scan's
 * sizes: 512×288 frames, 64×64 copies.
 *   npx tsx bench/pixel-kernels.ts [--rounds 7]
 */

import { ssim, ssimReference } from '../src/media/quality.js';
import type { RawImage } from '../src/media/raw.js';
import { frameFeatures } from '../src/media/shot-features.js';
import { lumaMse } from '../src/media/window.js';
import {
  plainHistogram,
  plainMeanColour,
  plainSqDiffSum,
  plainSsimPass,
  plainThumbnail,
} from '../test/support/pixels-plain.js';

const i = process.argv.indexOf('--rounds');
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 7;

function noise(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let k = 0; k < n; k++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[k] = (s >>> 16) & 255;
  }
  return out;
}

const grey = (w: number, h: number, seed: number): RawImage => ({
  width: w,
  height: h,
  channels: 1,
  data: noise(w * h, seed),
});

const taps = (() => {
  const k = new Float64Array(11);
  let sum = 0;
  for (let t = -5; t <= 5; t++) {
    k[t + 5] = Math.exp((-0.5 * t * t) / (1.5 * 1.5));
    sum += k[t + 5]!;
  }
  return k.map((v) => v / sum);
})();

const a = grey(512, 288, 1);
const b = grey(512, 288, 2);
const ref = ssimReference(b);
const n = 502 * 278;
const keep = { my: new Float64Array(n), eyy: new Float64Array(n) };
plainSsimPass(b.data, 512, 288, taps, undefined, keep);
const rgb: RawImage = { width: 64, height: 64, channels: 3, data: noise(64 * 64 * 3, 5) };

interface Case {
  name: string;
  calls: number;
  wasm: () => unknown;
  plain: () => unknown;
  same: () => boolean;
}
const eq = (x: Uint8Array, y: Uint8Array) => Buffer.from(x).equals(Buffer.from(y));
const cases: Case[] = [
  {
    name: 'SSIM 512×288 against a reference',
    calls: 24,
    wasm: () => ssim(a, ref),
    plain: () => plainSsimPass(a.data, 512, 288, taps, { image: b, ...keep }) / n,
    same: () => Object.is(ssim(a, ref), plainSsimPass(a.data, 512, 288, taps, { image: b, ...keep }) / n),
  },
  {
    name: 'luma MSE 512×288',
    calls: 200,
    wasm: () => lumaMse(a.data, b.data),
    plain: () => plainSqDiffSum(a.data, b.data) / a.data.length,
    same: () => lumaMse(a.data, b.data) === plainSqDiffSum(a.data, b.data) / a.data.length,
  },
  {
    name: 'shot features of a 64×64 RGB copy',
    calls: 240,
    wasm: () => frameFeatures(rgb),
    plain: () => [plainHistogram(rgb), plainThumbnail(rgb), plainMeanColour(rgb)],
    same: () => {
      const f = frameFeatures(rgb);
      return (
        eq(new Uint8Array(f.hist.buffer), new Uint8Array(plainHistogram(rgb).buffer)) &&
        eq(f.thumb, plainThumbnail(rgb))
      );
    },
  },
];

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const time = (f: () => unknown, calls: number) => {
  const t = performance.now();
  for (let c = 0; c < calls; c++) f();
  return (performance.now() - t) / calls;
};

console.log('| loop | plain JS ms | WebAssembly ms | ratio | same bytes |\n|---|---:|---:|---:|---|');
for (const c of cases) {
  const same = c.same();
  // warm both (JIT and wasm tier-up), then alternate
  time(c.wasm, c.calls);
  time(c.plain, c.calls);
  const w: number[] = [];
  const p: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    p.push(time(c.plain, c.calls));
    w.push(time(c.wasm, c.calls));
  }
  console.log(
    `| ${c.name} | ${median(p).toFixed(3)} | ${median(w).toFixed(3)} | ${(median(p) / median(w)).toFixed(1)} | ${same ? 'yes' : 'NO'} |`,
  );
  if (!same) process.exitCode = 1;
}
console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
