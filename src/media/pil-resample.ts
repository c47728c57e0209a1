/**
 * PIL's Lanczos ("ANTIALIAS") resample for 8-bit grey images, reproduced exactly so that our
 * dHash agrees bit for bit with Python's `imagehash.dhash` (libvips' resize differs).
 *
 * Separable, horizontal pass first; each pass rounds to 8 bits. For an axis of `inSize` →
 * `outSize`: scale = in/out, fs = max(scale, 1), support = 3·fs; output pixel i has
 * center = (i + 0.5)·scale and taps x ∈ [trunc(center − support + 0.5), trunc(center + support + 0.5))
 * clamped to [0, in), weights lanczos3((x − center + 0.5)/fs) normalised to sum 1, then converted
 * to fixed point with 22 fractional bits (rounded half away from zero); a pixel is
 * (2^21 + Σ w·p) >> 22 clamped to 0–255.
 */

import { UsageError } from '../errors.js';
import type { RawImage } from './raw.js';

const PRECISION_BITS = 22;
const ONE = 2 ** PRECISION_BITS;
const HALF = 2 ** (PRECISION_BITS - 1);

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = x * Math.PI;
  return Math.sin(px) / px;
}

function lanczos3(x: number): number {
  return x >= -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0;
}

interface AxisCoefficients {
  /** First input index for each output pixel. */
  start: Int32Array;
  /** Number of taps for each output pixel. */
  count: Int32Array;
  /** Fixed-point weights, `ksize` per output pixel. */
  weights: Int32Array;
  ksize: number;
}

function coefficients(inSize: number, outSize: number): AxisCoefficients {
  const scale = inSize / outSize;
  const fs = Math.max(scale, 1);
  const support = 3 * fs;
  const ksize = Math.ceil(support) * 2 + 1;
  const start = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Int32Array(outSize * ksize);
  const tmp = new Float64Array(ksize);
  for (let i = 0; i < outSize; i++) {
    const center = (i + 0.5) * scale;
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    let sum = 0;
    for (let x = 0; x < xmax; x++) {
      const w = lanczos3((x + xmin - center + 0.5) / fs);
      tmp[x] = w;
      sum += w;
    }
    for (let x = 0; x < xmax; x++) {
      const w = sum !== 0 ? tmp[x]! / sum : tmp[x]!;
      // C's (int)(±0.5 + w·2^22): round half away from zero.
      weights[i * ksize + x] = w < 0 ? Math.trunc(-0.5 + w * ONE) : Math.trunc(0.5 + w * ONE);
    }
    start[i] = xmin;
    count[i] = xmax;
  }
  return { start, count, weights, ksize };
}

function clip8(acc: number): number {
  const v = Math.floor(acc / ONE);
  return Math.min(255, Math.max(0, v));
}

/** Resize a grey image to `outW`×`outH` exactly as PIL's `Image.resize(…, LANCZOS)` does for mode L. */
export function pilLanczosGrey(img: RawImage, outW: number, outH: number): RawImage {
  if (img.channels !== 1) throw new UsageError('pilLanczosGrey needs a grey image');
  const { width: inW, height: inH } = img;
  let cur = img.data;
  let curW = inW;
  if (outW !== inW) {
    const c = coefficients(inW, outW);
    const out = new Uint8Array(outW * inH);
    for (let y = 0; y < inH; y++) {
      const row = y * inW;
      for (let i = 0; i < outW; i++) {
        let acc = HALF;
        const s = c.start[i]!;
        const n = c.count[i]!;
        const k = i * c.ksize;
        for (let x = 0; x < n; x++) acc += cur[row + s + x]! * c.weights[k + x]!;
        out[y * outW + i] = clip8(acc);
      }
    }
    cur = out;
    curW = outW;
  }
  if (outH !== inH) {
    const c = coefficients(inH, outH);
    const out = new Uint8Array(curW * outH);
    for (let j = 0; j < outH; j++) {
      const s = c.start[j]!;
      const n = c.count[j]!;
      const k = j * c.ksize;
      for (let x = 0; x < curW; x++) {
        let acc = HALF;
        for (let y = 0; y < n; y++) acc += cur[(s + y) * curW + x]! * c.weights[k + y]!;
        out[j * curW + x] = clip8(acc);
      }
    }
    cur = out;
  }
  return { width: outW, height: outH, channels: 1, data: cur };
}
