import { describe, expect, it } from 'vitest';
import { loadImage } from '../../src/media/image.js';
import { compareImageFiles, psnr, ssim } from '../../src/media/quality.js';
import { media } from '../support/paths.js';
import { mediaReferences } from '../support/references.js';

const refs = mediaReferences();

describe('PSNR and SSIM against scikit-image and ffmpeg (scripts/media-references.py)', () => {
  it.each(refs.compare.map((r) => [`${r.a} vs ${r.b}`, r] as const))('%s', async (_, r) => {
    const got = await compareImageFiles(media(r.a), media(r.b));
    expect(got.identical).toBe(r.identical);
    if (r.psnr_db === null) {
      expect(got.psnr_db).toBeNull();
    } else {
      expect(Math.abs(got.psnr_db! - r.psnr_db)).toBeLessThan(0.01);
      expect(Math.abs(got.psnr_db! - r.ffmpeg_psnr_db!)).toBeLessThan(0.01);
    }
    // the issue allows 0.002; implemented as SPEC §1 describes it agrees to ~1e-12
    expect(Math.abs(got.ssim - r.ssim)).toBeLessThan(1e-9);
  });

  it('identical images: infinite PSNR, SSIM 1', async () => {
    const a = await loadImage(media('mandel.png'));
    expect(psnr(a, a)).toBe(Number.POSITIVE_INFINITY);
    expect(ssim(a, a)).toBeCloseTo(1, 12);
  });

  it('resizes the second image to the first when sizes differ', async () => {
    const r = await compareImageFiles(media('base.png'), media('coffee.png'));
    expect(r.identical).toBe(false);
    expect(r.ssim).toBeLessThan(0.5);
  });

  it('a missing image is bad input naming the file', async () => {
    await expect(compareImageFiles(media('base.png'), media('nope.png'))).rejects.toThrow(
      /nope\.png: no such file/,
    );
  });
});
