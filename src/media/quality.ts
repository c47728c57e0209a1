/**
 * PSNR and SSIM on ITU-R 601 luma computed from raw RGB (PIL's fixed-point formula).
 * SSIM follows Wang et al. 2004 as scikit-image's
 * `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255)`
 * computes it: Gaussian-filtered local statistics (11 taps, radius 5), C1 = (0.01·255)²,
 * C2 = (0.03·255)², mean of the SSIM map after cropping 5 pixels from every border.
 */
import { BadInputError } from '../errors.js';
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
 * Mean SSIM of two equal-size images (at least 11×11).
 *
 * One fused pass: for each output row, the five local statistics (μx, μy, E[x²], E[y²], E[xy])
 * are Gaussian-filtered along the column (axis 0) into five row buffers, then along the row, and
 * the SSIM map value is summed at once — scipy's separable order, "valid" region only (the
 * 5-pixel border that scikit-image crops), symmetric taps folded. No full-size intermediates.
 */
export function ssim(a: RawImage, b: RawImage, sigma = 1.5): number {
  assertSameSize(a, b);
  const { width: w, height: h } = a;
  if (w < 2 * RADIUS + 1 || h < 2 * RADIUS + 1)
    throw new BadInputError(`SSIM needs images of at least 11×11, got ${w}×${h}`);
  // 8-bit luma read as is: every value converts to double exactly, so no float copy is needed
  const x = luma601(a).data;
  const y = luma601(b).data;
  const k = gaussianKernel(sigma);
  const oh = h - 2 * RADIUS;
  const ow = w - 2 * RADIUS;
  const vx = new Float64Array(w);
  const vy = new Float64Array(w);
  const vxx = new Float64Array(w);
  const vyy = new Float64Array(w);
  const vxy = new Float64Array(w);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  const kc = k[RADIUS]!;
  let sum = 0;
  for (let r = 0; r < oh; r++) {
    const mid = (r + RADIUS) * w;
    for (let c = 0; c < w; c++) {
      const xm = x[mid + c]!;
      const ym = y[mid + c]!;
      let sx = kc * xm;
      let sy = kc * ym;
      let sxx = kc * xm * xm;
      let syy = kc * ym * ym;
      let sxy = kc * xm * ym;
      for (let t = 1; t <= RADIUS; t++) {
        const kt = k[RADIUS + t]!;
        const up = mid - t * w + c;
        const dn = mid + t * w + c;
        const x1 = x[up]!;
        const x2 = x[dn]!;
        const y1 = y[up]!;
        const y2 = y[dn]!;
        sx += kt * (x1 + x2);
        sy += kt * (y1 + y2);
        sxx += kt * (x1 * x1 + x2 * x2);
        syy += kt * (y1 * y1 + y2 * y2);
        sxy += kt * (x1 * y1 + x2 * y2);
      }
      vx[c] = sx;
      vy[c] = sy;
      vxx[c] = sxx;
      vyy[c] = syy;
      vxy[c] = sxy;
    }
    for (let c = RADIUS; c < ow + RADIUS; c++) {
      let mx = kc * vx[c]!;
      let my = kc * vy[c]!;
      let exx = kc * vxx[c]!;
      let eyy = kc * vyy[c]!;
      let exy = kc * vxy[c]!;
      for (let t = 1; t <= RADIUS; t++) {
        const kt = k[RADIUS + t]!;
        mx += kt * (vx[c - t]! + vx[c + t]!);
        my += kt * (vy[c - t]! + vy[c + t]!);
        exx += kt * (vxx[c - t]! + vxx[c + t]!);
        eyy += kt * (vyy[c - t]! + vyy[c + t]!);
        exy += kt * (vxy[c - t]! + vxy[c + t]!);
      }
      const varx = exx - mx * mx;
      const vary = eyy - my * my;
      const cov = exy - mx * my;
      sum += ((2 * mx * my + C1) * (2 * cov + C2)) / ((mx * mx + my * my + C1) * (varx + vary + C2));
    }
  }
  return sum / (oh * ow);
}

function assertSameSize(a: RawImage, b: RawImage): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new BadInputError(`images differ in size: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  }
}

/** PSNR + SSIM; the caller resizes the second image to the first beforehand (see `compareImages`). */
export function compareRaw(a: RawImage, b: RawImage): ImageComparison {
  // luma once for both measures (luma601 hands a grey image back as is)
  a = luma601(a);
  b = luma601(b);
  const p = psnr(a, b);
  const identical = p === Number.POSITIVE_INFINITY;
  return { psnr_db: identical ? null : p, identical, ssim: ssim(a, b) };
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
