/** What the emulator "sees": the media layer's photographic statistics of a decoded image. */
import { decodeImage } from '../../media/image.js';
import { type ImageStats, imageStats } from '../../media/image-stats.js';

export type ImageFeatures = Omit<ImageStats, 'contrast'>;

export async function imageFeatures(bytes: Uint8Array): Promise<ImageFeatures> {
  const { contrast: _c, ...rest } = await imageStats(await decodeImage(bytes, 'emulator image'));
  return rest;
}
