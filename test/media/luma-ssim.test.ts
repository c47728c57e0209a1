/**
 * The scan's shortcuts on the way to PSNR/SSIM (issue 33) give what the plain path gives, bit for
 * bit: a decoded frame's 601 luma straight from its planar YUV (`FramePair.fullLuma`) is
 * `luma601(full())`, and SSIM against an `ssimReference` is `ssim` against the image itself.
 */
import { describe, expect, it } from 'vitest';
import { streamFramePairs } from '../../src/media/pairs.js';
import { probe } from '../../src/media/probe.js';
import { compareRaw, ssim, ssimReference } from '../../src/media/quality.js';
import { luma601 } from '../../src/media/raw.js';
import { media } from '../support/paths.js';

describe('luma and SSIM shortcuts', () => {
  it('fullLuma is luma601 of the RGB frame, and SSIM against a reference is SSIM against the image', async () => {
    const info = await probe(media('staged/pan-2997.mp4'));
    const pairs = [];
    for await (const p of streamFramePairs(
      info,
      { kind: 'indices', indices: [0, 40, 41, 89] },
      { width: 64, height: 64 },
      { pixelSize: 300 },
    ))
      pairs.push(p);
    expect(pairs).toHaveLength(4);
    const lumas = pairs.map((p) => p.fullLuma());
    for (const [i, p] of pairs.entries())
      expect(Buffer.from(lumas[i]!.data).equals(Buffer.from(luma601(p.full()).data))).toBe(true);
    const ref = ssimReference(lumas[1]!);
    for (const [i, p] of pairs.entries()) {
      const plain = compareRaw(p.full(), lumas[1]!);
      expect(Object.is(ssim(lumas[i]!, ref), plain.ssim)).toBe(true);
      expect(compareRaw(p.fullLuma(), lumas[1]!, ref)).toEqual(plain);
    }
    // a reference is not an image of another size, nor of another sigma
    expect(() => ssim(lumas[0]!, ssimReference(lumas[1]!, 0.5))).toThrow(/sigma/);
  });
});
