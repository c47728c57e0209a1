/**
 * PSNR and SSIM on ITU-R 601 luma computed from raw RGB (PIL's fixed-point formula).
 * SSIM follows Wang et al. 2004 as scikit-image's
 * `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)`
 * computes it: Gaussian-filtered local statistics (11 taps, radius 5), C1 = (0.01·255)²,
 * C2 = (0.03·255)², mean of the SSIM map after cropping 5 pixels from every border.
 */
import { BadInputError, InternalError } from '../errors.js';
import { loadImage, resizeImage } from './image.js';
import { sqDiffSum, ssimMapSum, ssimStatistics } from './pixel-kernels.js';
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
  // the squared differences summed exactly (pixel-kernels.ts), as a plain loop over doubles sums them
  const se = sqDiffSum(x, luma601(b).data);
  if (se === 0) return Number.POSITIVE_INFINITY;
  const mse = se / x.length;
  return 10 * Math.log10((255 * 255) / mse);
}

const RADIUS = 5;

const kernels = new Map<number, Float64Array>();

/** The normalised Gaussian kernel's taps from the centre out (6 values), once per sigma. */
function gaussianTaps(sigma: number): Float64Array {
  let taps = kernels.get(sigma);
  if (taps) return taps;
  const k = new Float64Array(2 * RADIUS + 1);
  let sum = 0;
  for (let i = -RADIUS; i <= RADIUS; i++) {
    const w = Math.exp((-0.5 * i * i) / (sigma * sigma));
    k[i + RADIUS] = w;
    sum += w;
  }
  for (let i = 0; i < k.length; i++) k[i] = k[i]! / sum;
  taps = k.slice(RADIUS);
  kernels.set(sigma, taps);
  return taps;
}

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

/**
 * Mean SSIM of two equal-size images (at least 11×11). `b` may be an `ssimReference` made once
 * for many comparisons with the same image (its own statistics are then not computed again).
 *
 * b's own statistics (μy, E[y²]) come from its reference (made here when b is an image); then
 * one fused pass: for each output row, a's (μx, E[x²]) and the cross term E[xy] are
 * Gaussian-filtered along the column (axis 0) into row buffers, then along the row, and the SSIM
 * map value is summed at once — scipy's separable order, "valid" region only (the 5-pixel border
 * that scikit-image crops), symmetric taps folded. No full-size intermediates beside the reference.
 * The pass runs in WebAssembly (`pixel-kernels.ts`), bit for bit what plain loops compute.
 */
export function ssim(a: RawImage, b: RawImage | SsimReference, sigma = 1.5): number {
  if (!('my' in b)) assertSameSize(a, b);
  const ref = 'my' in b ? b : ssimReference(b, sigma);
  assertSameSize(a, ref.image);
  if (ref.sigma !== sigma) throw new InternalError('an SSIM reference of another sigma');
  const { width: w, height: h } = a;
  const n = (h - 2 * RADIUS) * (w - 2 * RADIUS);
  return ssimMapSum(luma601(a).data, ref.image.data, ref, w, h, gaussianTaps(sigma), C1, C2) / n;
}

/**
 * An image's own SSIM statistics — its Gaussian-filtered mean and mean square over the valid
 * region — for comparing many images with it (`ssim(a, ref)`, `compareRaw(a, b, ref)`). `ssim`
 * without a reference makes one, so the result is the same either way, bit for bit.
 * 16 bytes per pixel. Not to be changed once made (nor the image it was made of): the pixel
 * kernels keep a copy of the last reference used.
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
  return { image, sigma, ...ssimStatistics(image.data, w, h, gaussianTaps(sigma)) };
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
