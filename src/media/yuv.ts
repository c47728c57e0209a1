/**
 * Planar YUV (4:2:0 or 4:4:4, limited range) to RGB with swscale's coefficient table for the
 * stream's colour matrix (BT.601 when the file does not say, as swscale assumes), luma scaled by
 * 255/219, each 4:2:0 chroma sample used for its 2×2 block as swscale's 8-bit converter does, and
 * the exact result rounded to nearest. ffmpeg's own `rgb24` comes out about one level darker
 * (its lookup tables truncate): test/media/yuv.test.ts holds the two within 4 levels per channel
 * and 601 luma within 3 on 8-bit 4:2:0 video.
 *
 * Why: a stacked frame in yuv420p is half the bytes of rgb24 and ffmpeg skips a colour conversion
 * per frame, so a reader that needs RGB for only a few frames converts just those here.
 */
import { type YuvTables, yuvConvert } from './pixel-kernels.js';
import type { RawImage } from './raw.js';

/** The colour matrices swscale knows (`sws_getCoefficients`), by ffprobe's `color_space` name. */
export type YuvMatrix = 'bt601' | 'bt709' | 'fcc' | 'smpte240m' | 'bt2020';

/** swscale's table: [crv, cbu, cgu, cgv] in 16.16 fixed point, for limited-range chroma. */
const COEFFS: Record<YuvMatrix, readonly [number, number, number, number]> = {
  bt601: [104597, 132201, 25675, 53279],
  bt709: [117489, 138438, 13975, 34925],
  fcc: [104448, 132798, 24759, 53109],
  smpte240m: [117579, 136230, 16907, 35559],
  bt2020: [110013, 140363, 12277, 42626],
};

/** The matrix swscale applies for a stream's `color_space` (unknown and unspecified: BT.601). */
export function yuvMatrix(colorSpace: string | undefined): YuvMatrix {
  switch (colorSpace) {
    case 'bt709':
      return 'bt709';
    case 'fcc':
      return 'fcc';
    case 'smpte240m':
      return 'smpte240m';
    case 'bt2020nc':
    case 'bt2020c':
      return 'bt2020';
    default:
      return 'bt601';
  }
}

/** A planar frame: Y plane `width`×`height`, then U and V at 1/`sub` of each side (rounded up). */
export interface PlanarYuv {
  width: number;
  height: number;
  /** 2 for 4:2:0, 1 for 4:4:4. */
  sub: 1 | 2;
  data: Uint8Array;
}

/** Bytes of one planar frame. */
export function planarBytes(width: number, height: number, sub: 1 | 2): number {
  const cw = Math.ceil(width / sub);
  const ch = Math.ceil(height / sub);
  return width * height + 2 * cw * ch;
}

/** Per-matrix lookup tables: luma and the four chroma terms for every 8-bit code. */
const tables = new Map<YuvMatrix, YuvTables>();

/** The tables of a matrix (made once): what `yuvConvert` reads. */
export function yuvTables(matrix: YuvMatrix): YuvTables {
  let t = tables.get(matrix);
  if (t) return t;
  const [crv, cbu, cgu, cgv] = COEFFS[matrix].map((c) => c / 65536) as [number, number, number, number];
  t = {
    y: new Float64Array(256),
    rv: new Float64Array(256),
    gu: new Float64Array(256),
    gv: new Float64Array(256),
    bu: new Float64Array(256),
  };
  for (let i = 0; i < 256; i++) {
    t.y[i] = ((i - 16) * 255) / 219;
    t.rv[i] = crv * (i - 128);
    t.gu[i] = -cgu * (i - 128);
    t.gv[i] = -cgv * (i - 128);
    t.bu[i] = cbu * (i - 128);
  }
  tables.set(matrix, t);
  return t;
}

/**
 * The w×h rectangle at (0, `top`) of a planar frame as RGB (rounded to nearest, clamped). `top`
 * must be a multiple of `sub` (the rectangle starts on a chroma row). The pixel loop runs in
 * WebAssembly (`yuvConvert`): R = Y + rv[v], G = (Y + gu[u]) + gv[v], B = Y + bu[u] with this
 * file's tables, rounded and clamped as a Uint8ClampedArray stores them.
 */
export function yuvToRgb(frame: PlanarYuv, top: number, w: number, h: number, matrix: YuvMatrix): RawImage {
  return { width: w, height: h, channels: 3, data: yuvConvert(frame, top, w, h, yuvTables(matrix), false) };
}

/**
 * ITU-R 601 luma (`luma601`) of the RGB `yuvToRgb` gives for the same rectangle, without the RGB
 * image, in one pass. What PSNR/SSIM measure of a decoded frame.
 */
export function yuvToLuma601(
  frame: PlanarYuv,
  top: number,
  w: number,
  h: number,
  matrix: YuvMatrix,
): RawImage {
  return { width: w, height: h, channels: 1, data: yuvConvert(frame, top, w, h, yuvTables(matrix), true) };
}
