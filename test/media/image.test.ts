import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { decodeImage, encodeImage, loadImage } from '../../src/media/image.js';
import { pilLanczosGrey } from '../../src/media/pil-resample.js';
import { cropRaw, luma601, type RawImage } from '../../src/media/raw.js';
import { media } from '../support/paths.js';

describe('601 luma (PIL "L")', () => {
  it('uses (19595 R + 38470 G + 7471 B + 32768) >> 16', () => {
    const img: RawImage = {
      width: 4,
      height: 1,
      channels: 3,
      data: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 200, 100, 50]),
    };
    // PIL: Image.frombytes("RGB", (4, 1), …).convert("L") gives [76, 150, 29, 124]
    expect(Array.from(luma601(img).data)).toEqual([76, 150, 29, 124]);
  });
});

describe('image files', () => {
  it('decodes PNG and JPEG to RGB', async () => {
    const png = await loadImage(media('base.png'));
    expect(png).toMatchObject({ width: 320, height: 213, channels: 3 });
    const jpg = await loadImage(media('base.jpg'));
    expect(jpg).toMatchObject({ width: 320, height: 213, channels: 3 });
  });

  it.each([
    ['truncated.jpg', /truncated\.jpg: not a readable image/],
    ['not-an-image.jpg', /not-an-image\.jpg: not a readable image/],
    ['absent.jpg', /absent\.jpg: no such file/],
  ])('%s is bad input naming the file, in one line', async (name, msg) => {
    const err = await loadImage(media(name)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toMatch(msg);
    expect((err as Error).message).not.toContain('\n');
  });

  it('PNG round trip is lossless; crop takes the right pixels', async () => {
    const img = await loadImage(media('mandel.png'));
    const back = await decodeImage(await encodeImage(img, { format: 'png' }), 'roundtrip.png');
    expect(Buffer.from(back.data).equals(Buffer.from(img.data))).toBe(true);
    const c = cropRaw(img, 10, 20, 5, 3);
    expect(c).toMatchObject({ width: 5, height: 3 });
    expect(Array.from(c.data.subarray(0, 3))).toEqual(
      Array.from(img.data.subarray((20 * img.width + 10) * 3, (20 * img.width + 10) * 3 + 3)),
    );
  });
});

describe('PIL Lanczos resample', () => {
  it('keeps a flat image flat and a same-size image unchanged', () => {
    const flat: RawImage = { width: 50, height: 40, channels: 1, data: new Uint8Array(2000).fill(77) };
    expect(Array.from(pilLanczosGrey(flat, 9, 8).data)).toEqual(new Array(72).fill(77));
    const ramp: RawImage = {
      width: 9,
      height: 8,
      channels: 1,
      data: Uint8Array.from({ length: 72 }, (_, i) => i * 3),
    };
    expect(pilLanczosGrey(ramp, 9, 8).data).toEqual(ramp.data);
  });
});
