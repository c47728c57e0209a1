/**
 * A screenshot compared with a committed one, tolerantly: both as grey at half size (sharp's area
 * reduction smooths anti-aliasing), the same size, and at most `maxShare` of their pixels differing
 * by more than `threshold` grey levels. Robust on another machine with the same Debian Chromium and
 * fonts-dejavu-core (the reference pages draw only DejaVu text, ffmpeg-made images and our SVG);
 * a moved, clipped, overlapping or rescaled box changes far more than 2 % of the pixels.
 * KFBENCH_UPDATE_SCREENSHOTS=1 writes the reference instead (then look at it before committing).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { ROOT } from './paths.js';

export const SCREEN_REFERENCES = join(ROOT, 'test', 'fixtures', 'viewer-screens');

export interface ScreenComparison {
  reference: string;
  /** Share of pixels differing by more than the threshold; null when the sizes differ. */
  share: number | null;
  size: string;
  referenceSize: string;
  updated: boolean;
}

async function grey(png: Buffer): Promise<{ data: Buffer; width: number; height: number; png: Buffer }> {
  const meta = await sharp(png).metadata();
  const small = sharp(png)
    .greyscale()
    .resize(Math.max(1, Math.round(meta.width! / 2)), Math.max(1, Math.round(meta.height! / 2)), {
      kernel: 'cubic',
    });
  const { data, info } = await small.clone().raw().toBuffer({ resolveWithObject: true });
  return {
    data,
    width: info.width,
    height: info.height,
    png: await small.png({ compressionLevel: 9 }).toBuffer(),
  };
}

export async function compareScreenshot(
  name: string,
  png: Buffer,
  o: { threshold?: number; maxShare?: number; artifacts?: string } = {},
): Promise<ScreenComparison & { ok: boolean }> {
  const reference = join(SCREEN_REFERENCES, `${name}.png`);
  const actual = await grey(png);
  if (o.artifacts) {
    mkdirSync(o.artifacts, { recursive: true });
    writeFileSync(join(o.artifacts, `${name}.png`), png);
  }
  if (process.env.KFBENCH_UPDATE_SCREENSHOTS === '1' || !existsSync(reference)) {
    if (process.env.KFBENCH_UPDATE_SCREENSHOTS !== '1')
      return { reference, share: null, size: '', referenceSize: 'missing', updated: false, ok: false };
    mkdirSync(dirname(reference), { recursive: true });
    writeFileSync(reference, actual.png);
    const size = `${actual.width}×${actual.height}`;
    return { reference, share: 0, size, referenceSize: size, updated: true, ok: true };
  }
  const { data, info } = await sharp(reference).greyscale().raw().toBuffer({ resolveWithObject: true });
  const size = `${actual.width}×${actual.height}`;
  const referenceSize = `${info.width}×${info.height}`;
  if (size !== referenceSize)
    return { reference, share: null, size, referenceSize, updated: false, ok: false };
  const threshold = o.threshold ?? 48;
  let differ = 0;
  for (let i = 0; i < data.length; i++) if (Math.abs(data[i]! - actual.data[i]!) > threshold) differ++;
  const share = differ / data.length;
  return { reference, share, size, referenceSize, updated: false, ok: share <= (o.maxShare ?? 0.02) };
}
