/**
 * The JPEG a judge is sent, in one pipeline from the file: byte for byte what decoding to RGB,
 * resizing and encoding give, for the images that path takes (plain JPEG and PNG, grey, with a colour
 * profile or an Exif orientation, smaller than the limit or far larger), and the other images
 * (alpha, 16 bits, palette with transparency) left to those steps.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodeImage,
  encodeImage,
  encodeJpegWithin,
  jpegWithinInOnePipeline,
  plainImageSize,
  resizeImage,
  sizeWithin,
} from '../../src/media/image.js';
import type { RawImage } from '../../src/media/raw.js';
import { media, tempDir } from '../support/paths.js';

/** The three steps the judge's encoder took before (and takes for the images the pipeline leaves). */
async function steps(bytes: Uint8Array, maxSide: number, quality: number): Promise<Buffer> {
  const img = await decodeImage(bytes, 'steps');
  const to = sizeWithin(img.width, img.height, maxSide);
  return encodeImage(to ? await resizeImage(img, to.width, to.height) : img, { format: 'jpeg', quality });
}

/** Smooth gradients with a little texture, `channels` interleaved samples per pixel. */
function samples(width: number, height: number, channels: number, seed: number): Uint8Array {
  const d = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < channels; c++)
        d[(y * width + x) * channels + c] =
          (Math.sin(x * 0.05 * (c + 1) + seed) * 60 +
            Math.cos(y * 0.07 + c * seed) * 60 +
            128 +
            ((x * y + seed * 31 + c * 7) % 23)) &
          255;
  return d;
}

const raw = (width: number, height: number, channels: 1 | 3, seed: number): RawImage => ({
  width,
  height,
  channels,
  data: samples(width, height, channels, seed),
});

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG (colour type 0, 2, 3, 4 or 6) of `pixels`, rows unfiltered; `before`: chunks before the data. */
function png(
  width: number,
  height: number,
  colour: number,
  depth: number,
  pixels: Uint8Array,
  before: Buffer[] = [],
): Buffer {
  const stride = pixels.length / height;
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++)
    rows.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colour, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...before,
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** A JPEG with an Exif segment saying "rotate 90° clockwise" (orientation 6) after its SOI. */
function withOrientation6(jpeg: Buffer): Buffer {
  const tiff = Buffer.from([
    ...[0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08], // big-endian TIFF, IFD at 8
    ...[0x00, 0x01], // one entry
    ...[0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00], // Orientation = 6
    ...[0x00, 0x00, 0x00, 0x00], // no next IFD
  ]);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

const palette = (n: number) => Uint8Array.from({ length: n * 3 }, (_, i) => (i * 37) & 255);
const indices = (w: number, h: number, n: number) =>
  Uint8Array.from({ length: w * h }, (_, i) => (i * 7 + (i >> 5)) % n);

/** Plain images: [name, bytes, maxSide]. The limits make some fit already and some shrink ≥ 4×. */
async function plainImages(): Promise<[string, Buffer, number][]> {
  const rgb = raw(400, 226, 3, 1);
  const grey = raw(301, 173, 1, 2);
  const small = raw(96, 54, 3, 3);
  const jpeg = await encodeImage(rgb, { format: 'jpeg', quality: 85 });
  return [
    ['RGB JPEG, shrunk 2.6×', jpeg, 153],
    ['RGB JPEG, shrunk 6.25× (libjpeg could shrink on load)', jpeg, 64],
    ['RGB JPEG, smaller than the limit (not enlarged)', await encodeImage(small, { format: 'jpeg' }), 768],
    ['RGB JPEG at the limit', jpeg, 400],
    ['Exif-rotated JPEG (orientation 6: not applied on either path)', withOrientation6(jpeg), 100],
    ['grey JPEG', await encodeImage(grey, { format: 'jpeg', quality: 80 }), 128],
    ['grey JPEG, smaller than the limit', await encodeImage(grey, { format: 'jpeg' }), 768],
    ['RGB PNG', await encodeImage(rgb, { format: 'png' }), 201],
    ['grey PNG', await encodeImage(grey, { format: 'png' }), 97],
    ['palette PNG', png(120, 80, 3, 8, indices(120, 80, 50), [chunk('PLTE', palette(50))]), 64],
    ['JPEG with an ICC profile', readFileSync(media('base.jpg')), 200],
    ['JPEG with an ICC profile, smaller than the limit', readFileSync(media('astronaut.jpg')), 768],
    ['PNG with an ICC profile', readFileSync(media('astronaut.png')), 333],
  ];
}

/** Images the pipeline leaves to the steps. */
function otherImages(): [string, Buffer][] {
  return [
    ['RGBA PNG', png(90, 61, 6, 8, samples(90, 61, 4, 4))],
    ['grey + alpha PNG', png(90, 61, 4, 8, samples(90, 61, 2, 5))],
    ['16-bit RGB PNG', png(90, 61, 2, 16, samples(90, 61, 6, 6))],
    ['16-bit grey PNG', png(90, 61, 0, 16, samples(90, 61, 2, 7))],
    [
      'palette PNG with transparency',
      png(90, 61, 3, 8, indices(90, 61, 20), [
        chunk('PLTE', palette(20)),
        chunk(
          'tRNS',
          Uint8Array.from({ length: 20 }, (_, i) => i * 12),
        ),
      ]),
    ],
  ];
}

describe('the judge JPEG in one pipeline', () => {
  it('gives the bytes of decode, resize and encode for plain JPEG and PNG files', async () => {
    for (const [name, bytes, maxSide] of await plainImages()) {
      const header = await plainImageSize(bytes);
      const img = await decodeImage(bytes, name);
      expect(header, name).toMatchObject({ width: img.width, height: img.height });
      const once = await jpegWithinInOnePipeline(bytes, maxSide, 90);
      expect(once, name).toBeInstanceOf(Buffer);
      expect(once!.equals(await steps(bytes, maxSide, 90)), name).toBe(true);
      expect((await encodeJpegWithin(bytes, maxSide, 90, name)).equals(once!), name).toBe(true);
    }
  });

  it('keeps the quality asked for', async () => {
    const bytes = await encodeImage(raw(200, 120, 3, 8), { format: 'jpeg' });
    const q60 = await encodeJpegWithin(bytes, 100, 60, 'q60');
    expect(q60.equals(await steps(bytes, 100, 60))).toBe(true);
    expect(q60.equals(await encodeJpegWithin(bytes, 100, 90, 'q90'))).toBe(false);
  });

  it('leaves alpha, 16 bits and transparency to the steps, with their bytes', async () => {
    for (const [name, bytes] of otherImages()) {
      expect(await plainImageSize(bytes), name).toBeUndefined();
      expect(await jpegWithinInOnePipeline(bytes, 48, 90), name).toBeUndefined();
      expect((await encodeJpegWithin(bytes, 48, 90, name)).equals(await steps(bytes, 48, 90)), name).toBe(
        true,
      );
    }
  });

  it('encodes raw pixels as resizing and encoding them does', async () => {
    for (const [img, maxSide] of [
      [raw(400, 226, 3, 9), 150],
      [raw(301, 173, 1, 10), 64],
      [raw(96, 54, 3, 11), 768],
    ] as const) {
      const to = sizeWithin(img.width, img.height, maxSide);
      const want = await encodeImage(to ? await resizeImage(img, to.width, to.height) : img, {
        format: 'jpeg',
        quality: 90,
      });
      expect((await encodeJpegWithin(img, maxSide, 90, 'raw')).equals(want)).toBe(true);
    }
  });

  it('says what is wrong with a file that is not a readable image', async () => {
    for (const f of ['truncated.jpg', 'not-an-image.jpg']) {
      const bytes = readFileSync(media(f));
      expect(await jpegWithinInOnePipeline(bytes, 64, 90)).toBeUndefined();
      await expect(encodeJpegWithin(bytes, 64, 90, f)).rejects.toThrow(/not a readable image/);
    }
  });
});

describe('plain image headers', () => {
  it('reads the size of JPEG and PNG files and refuses what is not plain', async () => {
    expect(await plainImageSize(readFileSync(media('base.jpg')))).toEqual({ width: 320, height: 213 });
    expect(await plainImageSize(readFileSync(media('coffee.png')))).toEqual({ width: 480, height: 320 });
    expect(await plainImageSize(readFileSync(media('not-an-image.jpg')))).toBeUndefined();
    const jpeg = await encodeImage(raw(40, 30, 3, 12), { format: 'jpeg' });
    expect(await plainImageSize(jpeg.subarray(0, 20))).toBeUndefined(); // cut before the frame header
    const cmyk = Buffer.from(jpeg);
    const sof = cmyk.indexOf(Buffer.from([0xff, 0xc0]));
    cmyk[sof + 9] = 4; // four components (CMYK or YCCK)
    expect(await plainImageSize(cmyk)).toBeUndefined();
    // grey below 8 bits a sample is not plain (the steps decode it)
    expect(await plainImageSize(png(16, 8, 0, 4, new Uint8Array(64)))).toBeUndefined();
  });
});

describe('a hostile image to the judge path', () => {
  it('a 15000×15000 plain PNG is sized from its header and refused at the pixel limit, in bounded memory', () => {
    // palette at 1 bit a pixel: a plain image (the one pipeline's kind) of 28 MB of rows, 1.4 GB decoded
    const w = 15000;
    const rows = new Uint8Array(w * Math.ceil(w / 8));
    const file = join(tempDir(), 'huge.png');
    writeFileSync(file, png(w, w, 3, 1, rows, [chunk('PLTE', palette(2))]));
    const image = resolve(import.meta.dirname, '../../src/media/image.ts');
    const script = join(tempDir(), 'judge-image.mts');
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';
       import { encodeJpegWithin, plainImageSize } from ${JSON.stringify(image)};
       const bytes = readFileSync(process.argv[2]);
       const size = await plainImageSize(bytes);
       let error = null;
       try { await encodeJpegWithin(bytes, 768, 90, process.argv[2]); } catch (e) { error = e.message; }
       console.log(JSON.stringify({ size, error, max_rss_mb: process.resourceUsage().maxRSS / 1024 }));`,
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, file], {
      cwd: resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(out.size).toEqual({ width: w, height: w });
    expect(out.error).toBe(
      `${file}: image of 15000×15000 pixels is past the 64,000,000-pixel limit (raise it with KFBENCH_MAX_IMAGE_PIXELS)`,
    );
    // the file's 28 MB read whole, the header parsed by libvips: never the 225 MB of pixels
    expect(out.max_rss_mb).toBeLessThan(250);
  });
});
