/** Raw interleaved 8-bit pixels, row-major. The media layer's common currency. */
export interface RawImage {
  width: number;
  height: number;
  /** 1 = grey, 3 = RGB. */
  channels: 1 | 3;
  data: Uint8Array;
}

/**
 * ITU-R 601 luma as PIL computes it for mode "L":
 * L = (19595·R + 38470·G + 7471·B + 32768) >> 16. Grey input is returned as is.
 */
export function luma601(img: RawImage): RawImage {
  if (img.channels === 1) return img;
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  const d = img.data;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    out[i] = (19595 * d[j]! + 38470 * d[j + 1]! + 7471 * d[j + 2]! + 32768) >>> 16;
  }
  return { width: img.width, height: img.height, channels: 1, data: out };
}

/** Crop a rectangle (clamped to the image). */
export function cropRaw(img: RawImage, left: number, top: number, width: number, height: number): RawImage {
  const x0 = Math.max(0, Math.min(img.width, Math.round(left)));
  const y0 = Math.max(0, Math.min(img.height, Math.round(top)));
  const w = Math.max(0, Math.min(img.width - x0, Math.round(width)));
  const h = Math.max(0, Math.min(img.height - y0, Math.round(height)));
  const c = img.channels;
  const out = new Uint8Array(w * h * c);
  for (let y = 0; y < h; y++) {
    const src = ((y0 + y) * img.width + x0) * c;
    out.set(img.data.subarray(src, src + w * c), y * w * c);
  }
  return { width: w, height: h, channels: c, data: out };
}
