/**
 * Images as the judge receives them: JPEG, long side capped (default 768 px), each distinct image
 * encoded once per run (memoised by file path or pixel hash).
 */
import { createHash } from 'node:crypto';
import { encodeImage, loadImage, resizeImage } from '../media/image.js';
import type { RawImage } from '../media/raw.js';
import type { JudgeImage } from './types.js';

export const DEFAULT_MAX_SIDE = 768;

export class ImageEncoder {
  private readonly memo = new Map<string, Promise<JudgeImage>>();
  encoded = 0;
  constructor(
    readonly maxSide = DEFAULT_MAX_SIDE,
    readonly quality = 90,
  ) {}

  /** An image file (memoised by path). */
  fromFile(path: string): Promise<JudgeImage> {
    const key = `file:${path}`;
    let p = this.memo.get(key);
    if (!p) {
      p = loadImage(path).then((img) => this.encode(img));
      this.memo.set(key, p);
      p.catch(() => this.memo.delete(key));
    }
    return p;
  }

  /** Raw pixels (memoised by content). */
  fromRaw(img: RawImage): Promise<JudgeImage> {
    const key = `raw:${createHash('sha256').update(`${img.width}x${img.height}x${img.channels}`).update(img.data).digest('hex')}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.encode(img);
      this.memo.set(key, p);
    }
    return p;
  }

  private async encode(img: RawImage): Promise<JudgeImage> {
    const long = Math.max(img.width, img.height);
    const scaled =
      long > this.maxSide
        ? await resizeImage(
            img,
            Math.round((img.width * this.maxSide) / long),
            Math.round((img.height * this.maxSide) / long),
          )
        : img;
    const bytes = await encodeImage(scaled, { format: 'jpeg', quality: this.quality });
    this.encoded++;
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), mime: 'image/jpeg' };
  }
}
