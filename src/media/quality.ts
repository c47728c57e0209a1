/**
 * PSNR and SSIM on ITU-R 601 luma computed from raw RGB (PIL's fixed-point formula).
 * SSIM follows Wang et al. 2004 as scikit-image's
 * `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)`
 * computes it: Gaussian-filtered local statistics (11 taps, radius 5), C1 = (0.01·255)²,
 * C2 = (0.03·255)², mean of the SSIM map after cropping 5 pixels from every border.
 */
import { BadInputError, KfbenchError } from '../errors.js';
import { loadImage, resizeImage } from './image.js';
import { luma601, type RawImage } from './raw.js';

export interface ImageComparison {
  /** null when the images are identical (PSNR is infinite). */
  psnr_db: number | null;
  identical: boolean;
  ssim: number;
}

/** PSNR in dB (data range 255) of two equal-size images; Infinity when identical. */
export function psnr(a: RawImage, b: RawImage): number {
  assertSameSize(a, b);
  const x = luma601(a).data;
  const y = luma601(b).data;
  let se = 0;
  for (let i = 0; i < x.length; i++) {
    const d = x[i]! - y[i]!;
    se += d * d;
  }
  if (se === 0) return Number.POSITIVE_INFINITY;
  const mse = se / x.length;
  return 10 * Math.log10((255 * 255) / mse);
}

const RADIUS = 5;

function gaussianKernel(sigma: number): Float64Array {
  const k = new Float64Array(2 * RADIUS + 1);
  let sum = 0;
  for (let i = -RADIUS; i <= RADIUS; i++) {
    const w = Math.exp((-0.5 * i * i) / (sigma * sigma));
    k[i + RADIUS] = w;
    sum += w;
  }
  for (let i = 0; i < k.length; i++) k[i] = k[i]! / sum;
  return k;
}

/**
 * Mean SSIM of two equal-size images (at least 11×11). `b` may be an `ssimReference` made once
 * for many comparisons with the same image (its own statistics are then not computed again).
 *
 * b's own statistics (μy, E[y²]) come from its reference (made here when b is an image); then
 * one fused pass: for each output row, a's (μx, E[x²]) and the cross term E[xy] are
 * Gaussian-filtered along the column (axis 0) into row buffers, then along the row, and the SSIM
 * map value is summed at once — scipy's separable order, "valid" region only (the 5-pixel border
 * that scikit-image crops), symmetric taps folded. No full-size intermediates beside the reference.
 */
export function ssim(a: RawImage, b: RawImage | SsimReference, sigma = 1.5): number {
  if (!('my' in b)) assertSameSize(a, b);
  const ref = 'my' in b ? b : ssimReference(b, sigma);
  assertSameSize(a, ref.image);
  if (ref.sigma !== sigma) throw new KfbenchError('INTERNAL', 'an SSIM reference of another sigma');
  const { width: w, height: h } = a;
  // 8-bit luma read as is: every value converts to double exactly, so no float copy is needed
  return ssimOf(luma601(a).data, w, h, gaussianKernel(sigma), ref);
}

/**
 * An image's own SSIM statistics — its Gaussian-filtered mean and mean square over the valid
 * region — for comparing many images with it (`ssim(a, ref)`, `compareRaw(a, b, ref)`). `ssim`
 * without a reference makes one, so the result is the same either way, bit for bit.
 * 16 bytes per pixel.
 */
export interface SsimReference {
  image: RawImage;
  sigma: number;
  my: Float64Array;
  eyy: Float64Array;
}

export function ssimReference(b: RawImage, sigma = 1.5): SsimReference {
  const { width: w, height: h } = b;
  if (w < 2 * RADIUS + 1 || h < 2 * RADIUS + 1)
    throw new BadInputError(`SSIM needs images of at least 11×11, got ${w}×${h}`);
  const image = luma601(b);
  const n = (h - 2 * RADIUS) * (w - 2 * RADIUS);
  const ref = { image, sigma, my: new Float64Array(n), eyy: new Float64Array(n) };
  ssimOf(image.data, w, h, gaussianKernel(sigma), undefined, ref);
  return ref;
}

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
 * of the plain loops.
 */
function ssimOf(
  x: Uint8Array,
  w: number,
  h: number,
  k: Float64Array,
  ref: SsimReference | undefined,
  keep?: SsimReference,
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
  return sum / (oh * ow);
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

function assertSameSize(a: RawImage, b: RawImage): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new BadInputError(`images differ in size: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  }
}

/**
 * PSNR + SSIM; the caller resizes the second image to the first beforehand (see `compareImages`).
 * `ref`: `ssimReference(b)`, when b is compared with many images.
 */
export function compareRaw(a: RawImage, b: RawImage, ref?: SsimReference): ImageComparison {
  // luma once for both measures (luma601 hands a grey image back as is)
  a = luma601(a);
  b = luma601(b);
  const p = psnr(a, b);
  const identical = p === Number.POSITIVE_INFINITY;
  return { psnr_db: identical ? null : p, identical, ssim: ssim(a, ref ?? b) };
}

/**
 * Compare two image files: both decoded to RGB, the second resized to the first's size (libvips
 * Lanczos3) when they differ, then PSNR and SSIM on 601 luma.
 */
export async function compareImageFiles(fileA: string, fileB: string): Promise<ImageComparison> {
  const a = await loadImage(fileA);
  let b = await loadImage(fileB);
  if (b.width !== a.width || b.height !== a.height) b = await resizeImage(b, a.width, a.height, 'fill');
  if (a.width < 11 || a.height < 11)
    throw new BadInputError('SSIM needs an image of at least 11×11 pixels', { file: fileA });
  return compareRaw(a, b);
}
