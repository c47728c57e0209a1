/**
 * dHash (difference hash), bit-compatible with Python's `imagehash.dhash(img)` (hash_size 8):
 * PIL greyscale, PIL Lanczos resize to 9×8, bit r·8+c = px[r][c+1] > px[r][c], first bit most
 * significant, as 16 hex digits.
 */

import { BadInputError } from '../errors.js';
import { loadImage } from './image.js';
import { pilLanczosGrey } from './pil-resample.js';
import { luma601, type RawImage } from './raw.js';

export function dhash(img: RawImage): string {
  const small = pilLanczosGrey(luma601(img), 9, 8);
  const px = small.data;
  let hex = '';
  for (let r = 0; r < 8; r++) {
    let byte = 0;
    for (let c = 0; c < 8; c++) {
      byte = (byte << 1) | (px[r * 9 + c + 1]! > px[r * 9 + c]! ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const POPCOUNT4 = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/** Number of differing bits between two hex hashes of equal length. */
export function hamming(a: string, b: string): number {
  if (a.length !== b.length) throw new BadInputError(`hashes differ in length: ${a.length} vs ${b.length}`);
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    const x = Number.parseInt(a[i]!, 16) ^ Number.parseInt(b[i]!, 16);
    if (Number.isNaN(x)) throw new BadInputError(`not a hex hash: ${a} / ${b}`);
    d += POPCOUNT4[x]!;
  }
  return d;
}

/** dHash of an image file. */
export async function dhashFile(file: string): Promise<string> {
  return dhash(await loadImage(file));
}

/** `dhashFile` of each file, in order, with its path (`media dhash`). */
export async function dhashFiles(files: readonly string[]): Promise<{ path: string; dhash: string }[]> {
  const out: { path: string; dhash: string }[] = [];
  for (const path of files) out.push({ path, dhash: await dhashFile(path) });
  return out;
}
