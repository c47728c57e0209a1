/**
 * Photographic statistics of an image, each in [0, 1]: sharpness (mean |Laplacian| of luma),
 * colourfulness (Hasler & Süsstrunk 2003), centredness (contrast of the central third against the
 * border), brightness (mean luma) and contrast (luma standard deviation). Computed on a small copy
 * (96 px wide) — the photographic proxies that selection methods and the VLM emulator use.
 */
import { resizeImage } from './image.js';
import type { RawImage } from './raw.js';

export interface ImageStats {
  sharpness: number;
  colourfulness: number;
  centredness: number;
  brightness: number;
  contrast: number;
}

const STATS_WIDTH = 96;

export async function imageStats(full: RawImage): Promise<ImageStats> {
  const w = STATS_WIDTH;
  const h = Math.max(8, Math.round((full.height * w) / full.width));
  const img = full.width === w && full.height === h ? full : await resizeImage(full, w, h, 'fill');
  return imageStatsOf(img);
}

/** The statistics of an image at its own size (RGB). */
export function imageStatsOf(img: RawImage): ImageStats {
  const { width: w, height: h, data: d } = img;
  const n = w * h;
  const L = new Float64Array(n);
  let rgS = 0;
  let rgQ = 0;
  let ybS = 0;
  let ybQ = 0;
  for (let i = 0; i < n; i++) {
    const r = d[i * 3]!;
    const g = d[i * 3 + 1]!;
    const b = d[i * 3 + 2]!;
    L[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    const rg = r - g;
    const yb = 0.5 * (r + g) - b;
    rgS += rg;
    rgQ += rg * rg;
    ybS += yb;
    ybQ += yb * yb;
  }
  const sd = (s: number, q: number) => Math.sqrt(Math.max(0, q / n - (s / n) ** 2));
  const colour =
    Math.sqrt(sd(rgS, rgQ) ** 2 + sd(ybS, ybQ) ** 2) + 0.3 * Math.sqrt((rgS / n) ** 2 + (ybS / n) ** 2);
  let lap = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const k = y * w + x;
      lap += Math.abs(4 * L[k]! - L[k - 1]! - L[k + 1]! - L[k - w]! - L[k + w]!);
    }
  }
  lap /= Math.max(1, (w - 2) * (h - 2));
  const region = (inside: boolean) => {
    let s = 0;
    let q = 0;
    let m = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const c = x >= w / 3 && x < (2 * w) / 3 && y >= h / 3 && y < (2 * h) / 3;
        if (c !== inside) continue;
        s += L[y * w + x]!;
        q += L[y * w + x]! ** 2;
        m++;
      }
    }
    return Math.sqrt(Math.max(0, q / m - (s / m) ** 2));
  };
  let mean = 0;
  let sq = 0;
  for (const v of L) {
    mean += v;
    sq += v * v;
  }
  mean /= n;
  return {
    sharpness: Math.min(1, lap / 40),
    colourfulness: Math.min(1, colour / 100),
    centredness: Math.min(1, Math.max(0, 0.5 + (region(true) - region(false)) / 64)),
    brightness: mean / 255,
    contrast: Math.sqrt(Math.max(0, sq / n - mean * mean)) / 128,
  };
}
