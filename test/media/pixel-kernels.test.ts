/**
 * The pixel loops in WebAssembly (src/media/wasm/pixels.c via pixel-kernels.ts) compute what the
 * plain JavaScript loops they replaced compute, bit for bit (test/support/pixels-plain.ts): the
 * SSIM pass (reference statistics and the map's sum, on widths that are and are not a multiple of
 * the module's four-column step; noise, flat fields, gradients, an image against itself), the
 * squared-difference sum (PSNR, luma MSE) and the shot detector's features. And the committed
 * module is built from the committed source.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqDiffSum } from '../../src/media/pixel-kernels.js';
import { psnr, ssim, ssimReference } from '../../src/media/quality.js';
import type { RawImage } from '../../src/media/raw.js';
import { frameFeatures } from '../../src/media/shot-features.js';
import { SOURCE_SHA256 } from '../../src/media/wasm/pixels-module.js';
import { lumaMse } from '../../src/media/window.js';
import { ROOT } from '../support/paths.js';
import {
  plainHistogram,
  plainMeanColour,
  plainSqDiffSum,
  plainSsimPass,
  plainThumbnail,
} from '../support/pixels-plain.js';

const SIGMA = 1.5;

function kernel(sigma: number): Float64Array {
  const k = new Float64Array(11);
  let sum = 0;
  for (let i = -5; i <= 5; i++) {
    k[i + 5] = Math.exp((-0.5 * i * i) / (sigma * sigma));
    sum += k[i + 5]!;
  }
  for (let i = 0; i < 11; i++) k[i] = k[i]! / sum;
  return k;
}

/** A grey image: seeded noise of amplitude `noise` over a gradient (or a flat field). */
function image(w: number, h: number, seed: number, noise: number, gradient = true): RawImage {
  const data = new Uint8Array(w * h);
  let s = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const base = gradient ? ((i % w) * 200) / w + (Math.floor(i / w) * 50) / h : 128;
    data[i] = Math.max(0, Math.min(255, Math.round(base + (((s >>> 16) & 255) - 128) * noise)));
  }
  return { width: w, height: h, channels: 1, data };
}

/** The plain loops' mean SSIM of a against b, and b's statistics. */
function plain(a: RawImage, b: RawImage) {
  const { width: w, height: h } = a;
  const n = (w - 10) * (h - 10);
  const keep = { my: new Float64Array(n), eyy: new Float64Array(n) };
  const k = kernel(SIGMA);
  plainSsimPass(b.data, w, h, k, undefined, keep);
  return { ssim: plainSsimPass(a.data, w, h, k, { image: b, ...keep }) / n, ...keep };
}

const same = (x: Float64Array, y: Float64Array) =>
  x.length === y.length && x.every((v, i) => Object.is(v, y[i]));

describe('pixel loops in WebAssembly: SSIM', () => {
  const sizes: [number, number][] = [
    [11, 11],
    [12, 13],
    [17, 11],
    [64, 48],
    [301, 77],
    [512, 288],
  ];
  for (const [w, h] of sizes)
    it(`equals the plain loops bit for bit at ${w}×${h}`, () => {
      const pairs: [RawImage, RawImage][] = [
        [image(w, h, 1, 1), image(w, h, 2, 1)],
        [image(w, h, 3, 0.1), image(w, h, 3, 0.12)],
        [image(w, h, 4, 0, false), image(w, h, 5, 0.5, false)],
        [image(w, h, 6, 0.3), image(w, h, 6, 0.3)],
      ];
      for (const [a, b] of pairs) {
        const want = plain(a, b);
        const ref = ssimReference(b, SIGMA);
        expect(same(ref.my, want.my)).toBe(true);
        expect(same(ref.eyy, want.eyy)).toBe(true);
        expect(Object.is(ssim(a, ref, SIGMA), want.ssim)).toBe(true);
        // and without a reference made beforehand, and after comparisons at another size
        expect(Object.is(ssim(a, b, SIGMA), want.ssim)).toBe(true);
      }
      const twin = image(w, h, 9, 0.7);
      expect(ssim(twin, twin)).toBe(1);
    });

  it('an image much wider than any before (the memory grows while a reference is made)', () => {
    for (const [w, h] of [
      [3000, 12],
      [6001, 11],
    ] as const) {
      const a = image(w, h, 11, 0.6);
      const b = image(w, h, 12, 0.6);
      const want = plain(a, b);
      const ref = ssimReference(b, SIGMA);
      expect(same(ref.my, want.my) && same(ref.eyy, want.eyy)).toBe(true);
      expect(Object.is(ssim(a, ref, SIGMA), want.ssim)).toBe(true);
    }
  });

  it('alternating references and sizes give each comparison its own reference', () => {
    const a = image(40, 30, 1, 0.4);
    const b = image(40, 30, 2, 0.4);
    const c = image(33, 21, 3, 0.4);
    const rb = ssimReference(b);
    const ra = ssimReference(a);
    const rc = ssimReference(c);
    const want = [plain(a, b).ssim, plain(b, a).ssim, plain(image(33, 21, 4, 0.4), c).ssim];
    for (let round = 0; round < 2; round++) {
      expect(Object.is(ssim(a, rb), want[0])).toBe(true);
      expect(Object.is(ssim(image(33, 21, 4, 0.4), rc), want[2])).toBe(true);
      expect(Object.is(ssim(b, ra), want[1])).toBe(true);
    }
  });

  it('the committed module was built from the committed source (scripts/build-wasm.sh)', () => {
    const source = readFileSync(join(ROOT, 'src/media/wasm/pixels.c'));
    expect(createHash('sha256').update(source).digest('hex')).toBe(SOURCE_SHA256);
  });
});

/** Seeded bytes. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = (s >>> 16) & 255;
  }
  return out;
}

describe('pixel loops in WebAssembly: squared differences', () => {
  it('sum exactly what a loop over doubles sums, at any length', () => {
    for (const n of [0, 1, 15, 16, 17, 4096, 32768 * 2 + 5, 600_000]) {
      const a = bytes(n, n + 1);
      const b = bytes(n, n + 2);
      expect(sqDiffSum(a, b)).toBe(plainSqDiffSum(a, b));
    }
    // the largest differences over more samples than a 32-bit lane holds
    const n = 1 << 20;
    expect(sqDiffSum(new Uint8Array(n).fill(255), new Uint8Array(n))).toBe(n * 255 * 255);
    const a = bytes(512 * 288, 7);
    const b = bytes(512 * 288, 8);
    expect(lumaMse(a, b)).toBe(plainSqDiffSum(a, b) / a.length);
    const img = (data: Uint8Array) => ({ width: 512, height: 288, channels: 1 as const, data });
    expect(psnr(img(a), img(b))).toBe(10 * Math.log10((255 * 255) / (plainSqDiffSum(a, b) / a.length)));
    expect(psnr(img(a), img(a))).toBe(Number.POSITIVE_INFINITY);
    // arrays of two lengths are kfbench's own fault: an internal error, not a sum over the shorter
    expect(() => sqDiffSum(a, b.subarray(1))).toThrow(/INTERNAL|expected/);
  });
});

describe("pixel loops in WebAssembly: the shot detector's features", () => {
  it("histogram, thumbnail and mean colour are the plain loops' at any size, for noise, flat fields and extremes", () => {
    const images: RawImage[] = [];
    for (const [w, h] of [
      [64, 64],
      [37, 21],
      [1, 1],
      [24, 14],
      [23, 13],
      [320, 180],
    ] as const) {
      images.push({ width: w, height: h, channels: 3, data: bytes(3 * w * h, w + h) });
      for (const v of [0, 255, 128])
        images.push({ width: w, height: h, channels: 3, data: new Uint8Array(3 * w * h).fill(v) });
    }
    // more than 65,535 pixels in one bin: the 16-bit counts wrap as a Uint16Array's do
    images.push({ width: 300, height: 300, channels: 3, data: new Uint8Array(3 * 300 * 300) });
    // a grey frame is not what the shot detector reads: an internal error, not its bytes read as RGB
    expect(() => frameFeatures({ width: 8, height: 8, channels: 1, data: new Uint8Array(64) })).toThrow(
      /RGB/,
    );
    for (const img of images) {
      const f = frameFeatures(img);
      expect(Buffer.from(f.hist.buffer).equals(Buffer.from(plainHistogram(img).buffer))).toBe(true);
      expect(Buffer.from(f.thumb).equals(Buffer.from(plainThumbnail(img)))).toBe(true);
      const mean = plainMeanColour(img);
      expect(f.mean.every((v, i) => Object.is(v, mean[i]))).toBe(true);
    }
  });
});
