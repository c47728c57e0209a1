/** What the emulator "sees": the media layer's photographic statistics of a decoded image. */
import { dhash } from '../../media/hash.js';
import { decodeImage } from '../../media/image.js';
import { type ImageStats, imageStats } from '../../media/image-stats.js';

/** The photographic statistics the emulator's preference weighs. */
export type ScoredFeature = keyof Omit<ImageStats, 'contrast'>;

export type ImageFeatures = Omit<ImageStats, 'contrast'> & {
  /** dHash of the image: equal for repeated (frozen) frames. */
  fingerprint: string;
  /** Mean R, G, B in [0, 1]. */
  rgb: [number, number, number];
};

export async function imageFeatures(bytes: Uint8Array): Promise<ImageFeatures> {
  const img = await decodeImage(bytes, 'emulator image');
  const { contrast: _c, ...rest } = await imageStats(img);
  const sum = [0, 0, 0];
  for (let i = 0; i < img.data.length; i += 3) for (let c = 0; c < 3; c++) sum[c]! += img.data[i + c]!;
  const n = (img.data.length / 3) * 255;
  return { ...rest, fingerprint: dhash(img), rgb: [sum[0]! / n, sum[1]! / n, sum[2]! / n] };
}
