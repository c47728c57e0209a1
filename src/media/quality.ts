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

function lumaFloat(img: RawImage): Float64Array {
  const l = luma601(img).data;
  const out = new Float64Array(l.length);
  for (let i = 0; i < l.length; i++) out[i] = l[i]!;
  return out;
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
 * Gaussian filter evaluated only where the whole window fits ("valid"), first along rows
 * (axis 0, vertical) then along columns, as scipy's separable filter does.
 */
function filterValid(src: Float64Array, w: number, h: number, k: Float64Array): Float64Array {
  const oh = h - 2 * RADIUS;
  const ow = w - 2 * RADIUS;
  const tmp = new Float64Array(oh * w);
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let t = 0; t < k.length; t++) acc += k[t]! * src[(y + t) * w + x]!;
      tmp[y * w + x] = acc;
    }
  }
  const out = new Float64Array(oh * ow);
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let acc = 0;
      for (let t = 0; t < k.length; t++) acc += k[t]! * tmp[y * w + x + t]!;
      out[y * ow + x] = acc;
    }
  }
  return out;
}

/** Mean SSIM of two equal-size images (at least 11×11). */
export function ssim(a: RawImage, b: RawImage, sigma = 1.5): number {
  assertSameSize(a, b);
  const { width: w, height: h } = a;
  if (w < 2 * RADIUS + 1 || h < 2 * RADIUS + 1)
    throw new Error(`SSIM needs images of at least 11×11, got ${w}×${h}`);
  const x = lumaFloat(a);
  const y = lumaFloat(b);
  const n = x.length;
  const xx = new Float64Array(n);
  const yy = new Float64Array(n);
  const xy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xx[i] = x[i]! * x[i]!;
    yy[i] = y[i]! * y[i]!;
    xy[i] = x[i]! * y[i]!;
  }
  const k = gaussianKernel(sigma);
  const ux = filterValid(x, w, h, k);
  const uy = filterValid(y, w, h, k);
  const uxx = filterValid(xx, w, h, k);
  const uyy = filterValid(yy, w, h, k);
  const uxy = filterValid(xy, w, h, k);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let i = 0; i < ux.length; i++) {
    const mx = ux[i]!;
    const my = uy[i]!;
    const vx = uxx[i]! - mx * mx;
    const vy = uyy[i]! - my * my;
    const vxy = uxy[i]! - mx * my;
    sum += ((2 * mx * my + C1) * (2 * vxy + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
  }
  return sum / ux.length;
}

function assertSameSize(a: RawImage, b: RawImage): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`images differ in size: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  }
}

/** PSNR + SSIM; the caller resizes the second image to the first beforehand (see `compareImages`). */
export function compareRaw(a: RawImage, b: RawImage): ImageComparison {
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
