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
 * One fused pass: for each output row, the five local statistics (μx, μy, E[x²], E[y²], E[xy])
 * are Gaussian-filtered along the column (axis 0) into five row buffers, then along the row, and
 * the SSIM map value is summed at once — scipy's separable order, "valid" region only (the
 * 5-pixel border that scikit-image crops), symmetric taps folded. No full-size intermediates.
 */
export function ssim(a: RawImage, b: RawImage | SsimReference, sigma = 1.5): number {
  const ref = 'my' in b ? b : undefined;
  const bi = ref ? ref.image : (b as RawImage);
  assertSameSize(a, bi);
  if (ref && ref.sigma !== sigma) throw new KfbenchError('INTERNAL', 'an SSIM reference of another sigma');
  const { width: w, height: h } = a;
  if (w < 2 * RADIUS + 1 || h < 2 * RADIUS + 1)
    throw new BadInputError(`SSIM needs images of at least 11×11, got ${w}×${h}`);
  // 8-bit luma read as is: every value converts to double exactly, so no float copy is needed
  return ssimOf(luma601(a).data, luma601(bi).data, w, h, gaussianKernel(sigma), ref);
}

/**
 * An image's own SSIM statistics — its Gaussian-filtered mean and mean square over the valid
 * region — for comparing many images with it (`ssim(a, ref)`, `compareRaw(a, b, ref)`): computed
 * as `ssim` computes them, so the result is bit for bit the same. 16 bytes per pixel.
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
  // the image against itself, its statistics kept on the way
  ssimOf(image.data, image.data, w, h, gaussianKernel(sigma), undefined, ref);
  return ref;
}

/** The kernel's taps from the centre out (RADIUS = 5). */
function taps(k: Float64Array): [number, number, number, number, number, number] {
  return [k[RADIUS]!, k[RADIUS + 1]!, k[RADIUS + 2]!, k[RADIUS + 3]!, k[RADIUS + 4]!, k[RADIUS + 5]!];
}

/**
 * The SSIM pass on two luma planes. The taps are locals and the tap loops unrolled: the same
 * operations in the same order as a loop over t = 1…5, so the sums are bit for bit those of the
 * plain loops; with `ref`, y's own statistics are read from it instead (computed alike); with
 * `keep`, they are written to it.
 */
function ssimOf(
  x: Uint8Array,
  y: Uint8Array,
  w: number,
  h: number,
  k: Float64Array,
  ref: SsimReference | undefined,
  keep?: SsimReference,
): number {
  const [kc, k1, k2, k3, k4, k5] = taps(k);
  const oh = h - 2 * RADIUS;
  const ow = w - 2 * RADIUS;
  const vx = new Float64Array(w);
  const vy = new Float64Array(w);
  const vxx = new Float64Array(w);
  const vyy = new Float64Array(w);
  const vxy = new Float64Array(w);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let r = 0; r < oh; r++) {
    const mid = (r + RADIUS) * w;
    for (let c = 0; c < w; c++) {
      const i = mid + c;
      const xm = x[i]!;
      const ym = y[i]!;
      const xu1 = x[i - w]!;
      const xd1 = x[i + w]!;
      const yu1 = y[i - w]!;
      const yd1 = y[i + w]!;
      const xu2 = x[i - 2 * w]!;
      const xd2 = x[i + 2 * w]!;
      const yu2 = y[i - 2 * w]!;
      const yd2 = y[i + 2 * w]!;
      const xu3 = x[i - 3 * w]!;
      const xd3 = x[i + 3 * w]!;
      const yu3 = y[i - 3 * w]!;
      const yd3 = y[i + 3 * w]!;
      const xu4 = x[i - 4 * w]!;
      const xd4 = x[i + 4 * w]!;
      const yu4 = y[i - 4 * w]!;
      const yd4 = y[i + 4 * w]!;
      const xu5 = x[i - 5 * w]!;
      const xd5 = x[i + 5 * w]!;
      const yu5 = y[i - 5 * w]!;
      const yd5 = y[i + 5 * w]!;
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
      vxy[c] =
        kc * xm * ym +
        k1 * (xu1 * yu1 + xd1 * yd1) +
        k2 * (xu2 * yu2 + xd2 * yd2) +
        k3 * (xu3 * yu3 + xd3 * yd3) +
        k4 * (xu4 * yu4 + xd4 * yd4) +
        k5 * (xu5 * yu5 + xd5 * yd5);
      if (ref) continue;
      vy[c] =
        kc * ym +
        k1 * (yu1 + yd1) +
        k2 * (yu2 + yd2) +
        k3 * (yu3 + yd3) +
        k4 * (yu4 + yd4) +
        k5 * (yu5 + yd5);
      vyy[c] =
        kc * ym * ym +
        k1 * (yu1 * yu1 + yd1 * yd1) +
        k2 * (yu2 * yu2 + yd2 * yd2) +
        k3 * (yu3 * yu3 + yd3 * yd3) +
        k4 * (yu4 * yu4 + yd4 * yd4) +
        k5 * (yu5 * yu5 + yd5 * yd5);
    }
    const o = r * ow - RADIUS;
    for (let c = RADIUS; c < ow + RADIUS; c++) {
      const mx = row(vx, c, kc, k1, k2, k3, k4, k5);
      const my = ref ? ref.my[o + c]! : row(vy, c, kc, k1, k2, k3, k4, k5);
      const exx = row(vxx, c, kc, k1, k2, k3, k4, k5);
      const eyy = ref ? ref.eyy[o + c]! : row(vyy, c, kc, k1, k2, k3, k4, k5);
      const exy = row(vxy, c, kc, k1, k2, k3, k4, k5);
      if (keep) {
        keep.my[o + c] = my;
        keep.eyy[o + c] = eyy;
      }
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
