/**
 * Pixel loops as plain JavaScript — what src/media computed before they moved to WebAssembly
 * (src/media/wasm/pixels.c, src/media/pixel-kernels.ts) — kept as the test oracles the module's
 * results must equal bit for bit (test/media/pixel-kernels.test.ts). Not used by kfbench.
 */
import type { RawImage } from '../../src/media/raw.js';

/** Σ (a[i] − b[i])², summed in a double as quality.ts's PSNR did. */
export function plainSqDiffSum(a: Uint8Array, b: Uint8Array): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    se += d * d;
  }
  return se;
}

const RADIUS = 5;

/** The kernel's taps from the centre out (RADIUS = 5). */
function taps(k: Float64Array): [number, number, number, number, number, number] {
  return [k[RADIUS]!, k[RADIUS + 1]!, k[RADIUS + 2]!, k[RADIUS + 3]!, k[RADIUS + 4]!, k[RADIUS + 5]!];
}

/**
 * The SSIM pass of the luma plane x against y's statistics `ref` (y = `ref.image`): x's own
 * statistics and the cross term are computed here. Without `ref`, x's own statistics (μ, E[x²])
 * are written to `keep` instead — the same operations, so a reference holds bit for bit what a
 * pass computing both sides at once would. The taps are locals and the tap loops unrolled: the
 * same operations in the same order as a loop over t = 1…5, so the sums are bit for bit those
 * of the plain loops. Returns the map's sum (0 with `keep`).
 */
export function plainSsimPass(
  x: Uint8Array,
  w: number,
  h: number,
  k: Float64Array,
  ref: { image: { data: Uint8Array }; my: Float64Array; eyy: Float64Array } | undefined,
  keep?: { my: Float64Array; eyy: Float64Array },
): number {
  const [kc, k1, k2, k3, k4, k5] = taps(k);
  const y = ref ? ref.image.data : x;
  const oh = h - 2 * RADIUS;
  const ow = w - 2 * RADIUS;
  const vx = new Float64Array(w);
  const vxx = new Float64Array(w);
  const vxy = new Float64Array(w);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let r = 0; r < oh; r++) {
    const mid = (r + RADIUS) * w;
    for (let c = 0; c < w; c++) {
      const i = mid + c;
      const xm = x[i]!;
      const xu1 = x[i - w]!;
      const xd1 = x[i + w]!;
      const xu2 = x[i - 2 * w]!;
      const xd2 = x[i + 2 * w]!;
      const xu3 = x[i - 3 * w]!;
      const xd3 = x[i + 3 * w]!;
      const xu4 = x[i - 4 * w]!;
      const xd4 = x[i + 4 * w]!;
      const xu5 = x[i - 5 * w]!;
      const xd5 = x[i + 5 * w]!;
      vx[c] =
        kc * xm +
        k1 * (xu1 + xd1) +
        k2 * (xu2 + xd2) +
        k3 * (xu3 + xd3) +
        k4 * (xu4 + xd4) +
        k5 * (xu5 + xd5);
      vxx[c] =
        kc * xm * xm +
        k1 * (xu1 * xu1 + xd1 * xd1) +
        k2 * (xu2 * xu2 + xd2 * xd2) +
        k3 * (xu3 * xu3 + xd3 * xd3) +
        k4 * (xu4 * xu4 + xd4 * xd4) +
        k5 * (xu5 * xu5 + xd5 * xd5);
      if (!ref) continue;
      vxy[c] =
        kc * xm * y[i]! +
        k1 * (xu1 * y[i - w]! + xd1 * y[i + w]!) +
        k2 * (xu2 * y[i - 2 * w]! + xd2 * y[i + 2 * w]!) +
        k3 * (xu3 * y[i - 3 * w]! + xd3 * y[i + 3 * w]!) +
        k4 * (xu4 * y[i - 4 * w]! + xd4 * y[i + 4 * w]!) +
        k5 * (xu5 * y[i - 5 * w]! + xd5 * y[i + 5 * w]!);
    }
    const o = r * ow - RADIUS;
    for (let c = RADIUS; c < ow + RADIUS; c++) {
      const mx = row(vx, c, kc, k1, k2, k3, k4, k5);
      const exx = row(vxx, c, kc, k1, k2, k3, k4, k5);
      if (!ref) {
        keep!.my[o + c] = mx;
        keep!.eyy[o + c] = exx;
        continue;
      }
      const my = ref.my[o + c]!;
      const eyy = ref.eyy[o + c]!;
      const exy = row(vxy, c, kc, k1, k2, k3, k4, k5);
      const varx = exx - mx * mx;
      const vary = eyy - my * my;
      const cov = exy - mx * my;
      sum += ((2 * mx * my + C1) * (2 * cov + C2)) / ((mx * mx + my * my + C1) * (varx + vary + C2));
    }
  }
  return sum;
}

/** One row tap of the separable filter at column c (taps folded, t = 1…5 in order). */
function row(
  v: Float64Array,
  c: number,
  kc: number,
  k1: number,
  k2: number,
  k3: number,
  k4: number,
  k5: number,
) {
  return (
    kc * v[c]! +
    k1 * (v[c - 1]! + v[c + 1]!) +
    k2 * (v[c - 2]! + v[c + 2]!) +
    k3 * (v[c - 3]! + v[c + 3]!) +
    k4 * (v[c - 4]! + v[c + 4]!) +
    k5 * (v[c - 5]! + v[c + 5]!)
  );
}

/** The shot detector's features as plain loops (shot-features.ts before `frameFeatures`). */
const BINS = 32;
const THUMB_W = 24;
const THUMB_H = 14;

export function plainHistogram(img: RawImage): Uint16Array {
  const h = new Uint16Array(BINS * 3);
  const d = img.data;
  const n = img.width * img.height;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = d[j]!;
    const g = d[j + 1]!;
    const b = d[j + 2]!;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
    const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
    h[Math.min(BINS - 1, (y * BINS) >> 8)]! += 1;
    h[BINS + Math.min(BINS - 1, Math.max(0, (cb * BINS) >> 8))]! += 1;
    h[2 * BINS + Math.min(BINS - 1, Math.max(0, (cr * BINS) >> 8))]! += 1;
  }
  return h;
}

export function plainThumbnail(img: RawImage): Uint8Array {
  const acc = new Float64Array(THUMB_W * THUMB_H);
  const cnt = new Float64Array(THUMB_W * THUMB_H);
  const d = img.data;
  for (let y = 0; y < img.height; y++) {
    const ty = Math.min(THUMB_H - 1, Math.floor((y * THUMB_H) / img.height));
    for (let x = 0; x < img.width; x++) {
      const tx = Math.min(THUMB_W - 1, Math.floor((x * THUMB_W) / img.width));
      const j = (y * img.width + x) * 3;
      acc[ty * THUMB_W + tx]! += 0.299 * d[j]! + 0.587 * d[j + 1]! + 0.114 * d[j + 2]!;
      cnt[ty * THUMB_W + tx]! += 1;
    }
  }
  const out = new Uint8Array(acc.length);
  for (let k = 0; k < out.length; k++) out[k] = Math.round(acc[k]! / Math.max(1, cnt[k]!));
  return out;
}

/** Mean Y, Cb, Cr of a frame. */
export function plainMeanColour(img: RawImage): number[] {
  let r = 0;
  let g = 0;
  let b = 0;
  const d = img.data;
  const n = img.width * img.height;
  for (let j = 0; j < 3 * n; j += 3) {
    r += d[j]!;
    g += d[j + 1]!;
    b += d[j + 2]!;
  }
  r /= n;
  g /= n;
  b /= n;
  return [
    0.299 * r + 0.587 * g + 0.114 * b,
    128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
    128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
  ];
}
