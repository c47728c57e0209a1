/**
 * The size of a plain image read from its header: an 8-bit JPEG (grey or three-component) or an
 * 8-bit PNG (grey, RGB or palette) without transparency. Anything else — alpha, 16 bits, CMYK,
 * another format, a header that does not parse — is `undefined`: the caller takes the general path
 * (`encodeJpegWithin` in image.ts decodes such files to RGB first).
 */

export interface PlainImageHeader {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The header of a plain JPEG or PNG (see the file's comment), or undefined. */
export function plainImageHeader(b: Uint8Array): PlainImageHeader | undefined {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegHeader(b);
  if (b.length > 33 && PNG_SIGNATURE.every((v, i) => b[i] === v)) return pngHeader(b);
  return undefined;
}

const u16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const ascii = (b: Uint8Array, i: number, s: string) => [...s].every((c, k) => b[i + k] === c.charCodeAt(0));

/** Frame headers: SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegHeader(b: Uint8Array): PlainImageHeader | undefined {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return undefined;
    const m = b[i + 1]!;
    if (m === 0xff) {
      i++; // fill byte
      continue;
    }
    if (m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      i += 2; // no length
      continue;
    }
    if (m === 0xd9 || m === 0xda) return undefined; // end of image or scan before any frame header
    const len = u16(b, i + 2);
    if (len < 2 || i + 2 + len > b.length) return undefined;
    if (isSof(m)) {
      if (len < 8) return undefined;
      const precision = b[i + 4]!;
      const height = u16(b, i + 5);
      const width = u16(b, i + 7);
      const components = b[i + 9]!;
      if (precision !== 8 || !width || !height || (components !== 1 && components !== 3)) return undefined;
      return { format: 'jpeg', width, height };
    }
    i += 2 + len;
  }
  return undefined;
}

function pngHeader(b: Uint8Array): PlainImageHeader | undefined {
  if (u32(b, 8) !== 13 || !ascii(b, 12, 'IHDR')) return undefined;
  const width = u32(b, 16);
  const height = u32(b, 20);
  const depth = b[24]!;
  const colour = b[25]!;
  // grey and RGB at 8 bits, palette at any depth (decoded to 8-bit RGB); no alpha types (4, 6)
  const plain = ((colour === 0 || colour === 2) && depth === 8) || colour === 3;
  if (!plain || !width || !height || width > 0x7fffffff || height > 0x7fffffff) return undefined;
  // the chunks before the image data: a transparency chunk gives an alpha channel
  let i = 33;
  while (i + 8 <= b.length) {
    const len = u32(b, i);
    if (ascii(b, i + 4, 'IDAT')) return { format: 'png', width, height };
    if (ascii(b, i + 4, 'tRNS')) return undefined;
    i += 12 + len;
  }
  return undefined;
}
