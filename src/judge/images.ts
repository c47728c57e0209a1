/**
 * Images as the judge receives them: JPEG, long side capped (default 768 px), each distinct image
 * encoded once per run (memoised by file path or pixel hash).
 *
 * With a hash store (the judge cache's `judge_image_hashes`), an image file whose encoding is known
 * from an earlier run is not encoded again to rebuild its questions' keys: it is a deferred image
 * that carries the sha256 only, and is encoded when a question that shows it is asked
 * (`loadJudgeImages`, called by the judge before a backend call) — a warm run encodes nothing.
 */
import { createHash } from 'node:crypto';
import { BackendError } from '../errors.js';
import { encodeJpegWithin, imageLibraryVersion, readImageFileSync } from '../media/image.js';
import type { RawImage } from '../media/raw.js';
import type { JudgeImage } from './types.js';

/** Where the encoded sha256 of an image file is remembered between runs (see JudgeCache). */
export interface ImageHashStore {
  imageHash(source: string): string | undefined;
  rememberImageHash(source: string, sha256: string): void;
}

/** An image known by its sha256 only until a question that shows it is asked. */
class DeferredImage implements JudgeImage {
  readonly mime = 'image/jpeg';
  private data: Buffer | undefined;
  private loading: Promise<void> | undefined;
  constructor(
    readonly sha256: string,
    private readonly source: string,
    private readonly encode: () => Promise<JudgeImage>,
  ) {}

  get bytes(): Buffer {
    if (!this.data) throw new BackendError(`image ${this.source} not encoded yet (loadJudgeImages first)`);
    return this.data;
  }

  load(): Promise<void> {
    this.loading ??= this.encode().then((img) => {
      if (img.sha256 !== this.sha256)
        throw new BackendError(
          `image ${this.source} encodes to ${img.sha256.slice(0, 12)}…, not the ${this.sha256.slice(0, 12)}… the judge cache remembers: remove its judge_image_hashes table`,
        );
      this.data = img.bytes;
    });
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }
}

/** Encode every deferred image among `images` (what a backend call needs before it is made). */
export async function loadJudgeImages(images: readonly JudgeImage[]): Promise<void> {
  const deferred = images.filter((i): i is DeferredImage => i instanceof DeferredImage);
  if (deferred.length) await Promise.all(deferred.map((i) => i.load()));
}

export const DEFAULT_MAX_SIDE = 768;

export class ImageEncoder {
  private readonly memo = new Map<string, Promise<JudgeImage>>();
  encoded = 0;
  private settings: string | undefined;
  constructor(
    readonly maxSide = DEFAULT_MAX_SIDE,
    readonly quality = 90,
    private readonly hashes?: ImageHashStore,
  ) {}

  /** An image file (memoised by path; with a hash store, deferred when its encoding is known). */
  fromFile(path: string): Promise<JudgeImage> {
    const key = `file:${path}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.hashes ? this.fromFileRemembered(path, this.hashes) : this.encodeFile(path);
      this.memo.set(key, p);
      p.catch(() => this.memo.delete(key));
    }
    return p;
  }

  /** Read at once (see readImageFileSync) and encoded; a file that cannot be read rejects, naming it. */
  private async encodeFile(path: string): Promise<JudgeImage> {
    return this.encode(readImageFileSync(path), path);
  }

  private async fromFileRemembered(path: string, hashes: ImageHashStore): Promise<JudgeImage> {
    let bytes: Buffer;
    try {
      bytes = readImageFileSync(path);
    } catch {
      return this.encodeFile(path); // the image layer says what is wrong with the file
    }
    // the file's content and everything that turns it into the bytes sent
    this.settings ??= `kfbench/judge-image/v1\n${imageLibraryVersion()}\n${this.maxSide}\n${this.quality}\n`;
    const source = createHash('sha256').update(this.settings).update(bytes).digest('hex');
    const known = hashes.imageHash(source);
    if (known) return new DeferredImage(known, path, () => this.encodeFile(path));
    const img = await this.encode(bytes, path);
    hashes.rememberImageHash(source, img.sha256);
    return img;
  }

  /** Raw pixels (memoised by content). */
  fromRaw(img: RawImage): Promise<JudgeImage> {
    const key = `raw:${createHash('sha256').update(`${img.width}x${img.height}x${img.channels}`).update(img.data).digest('hex')}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.encode(img, 'raw image');
      this.memo.set(key, p);
    }
    return p;
  }

  /** The JPEG sent: within maxSide, at the encoder's quality (one pipeline from file to JPEG where it can). */
  private async encode(img: RawImage | Buffer, name: string): Promise<JudgeImage> {
    const bytes = await encodeJpegWithin(img, this.maxSide, this.quality, name);
    this.encoded++;
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), mime: 'image/jpeg' };
  }
}
