/** Colour histograms of track frames (RGB, 4 bins per channel = 64), for the thumbnail and hecate-like methods. */
import type { RawImage } from '../../media/raw.js';

export function colourHistogram(img: RawImage): Float64Array {
  const h = new Float64Array(64);
  const d = img.data;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++)
    h[((d[i * 3]! >> 6) << 4) | ((d[i * 3 + 1]! >> 6) << 2) | (d[i * 3 + 2]! >> 6)]! += 1 / n;
  return h;
}

export function l1(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s;
}
