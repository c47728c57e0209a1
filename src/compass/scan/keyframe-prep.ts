/**
 * A case's keyframes made like a video's frames, once per run rather than once per video: every
 * model's video of a case (two prompt modes each) meets the same keyframe images, and decoding
 * them (PNG), fitting them to the video, putting them through a frame's chains (media/frame-like.ts)
 * and embedding them costs as much as a tenth of a 10 s video's scan. A prepared set
 * is kept per embedder for the last few (keyframe files × video format) it was asked for; the
 * files are known by their identity and change times (`stat`), so a keyframe rewritten between
 * two scans is prepared again. What comes out is the same either way: the cache saves time only.
 */

import { stat } from 'node:fs/promises';
import type { Embedder } from '../../embed/embedder.js';
import { InternalError } from '../../errors.js';
import { imagesAsFrames } from '../../media/frame-like.js';
import { loadImage, type ResizeFit, resizeImage } from '../../media/image.js';
import { type SsimReference, ssimReference } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import type { VideoInfo } from '../../media/video-info.js';

export interface PreparedKeyframes {
  /** Each keyframe's embedding, made through the frames' own scaling chain. */
  kvecs: Float32Array[];
  /** 601 luma of the pixel-size copy, as a frame's (`FramePair.fullLuma`; PSNR/SSIM). */
  pixels: RawImage[];
  /** Keyframe k's own SSIM statistics (`ssimReference` of `pixels[k]`), made at the first call. */
  reference: (k: number) => SsimReference;
  /** 601 luma at the working size, as a frame's (stage 2); empty without stage 2. */
  luma: RawImage[];
}

export interface KeyframePlan {
  images: readonly string[];
  info: Pick<VideoInfo, 'width' | 'height' | 'color_space' | 'pix_fmt'>;
  fit: ResizeFit;
  /**
   * The pixel size, the embedder's input size and (with stage 2) the working size, 'full' when
   * it is the pixel size (the luma made for the pixel score then serves it).
   */
  full: { width: number; height: number };
  small: { width: number; height: number };
  work: { width: number; height: number } | 'full' | undefined;
}

/**
 * Prepared sets kept per embedder: a case's videos (every model's, both prompt modes) come one
 * after the other in a run (response/models.ts). About 2.4 MB per keyframe at the default pixel size, most
 * of it SSIM statistics.
 */
const KEEP = 2;
const kept = new WeakMap<Embedder, Map<string, Promise<PreparedKeyframes>>>();

/** The files' identities: device, inode, size, modification and change times. */
export async function keyframeFiles(images: readonly string[]): Promise<string> {
  const ids = await Promise.all(
    images.map(async (f) => {
      try {
        const s = await stat(f, { bigint: true });
        return `${f}\0${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
      } catch {
        return `${f}\0?`; // loading reports the error
      }
    }),
  );
  return ids.join('\n');
}

/** Whether a set for these files (at any video format) is kept: then nothing need load early. */
export function holdsFiles(embedder: Embedder, files: string): boolean {
  for (const key of kept.get(embedder)?.keys() ?? []) if (key.startsWith(`${files}\n#`)) return true;
  return false;
}

/**
 * The keyframes prepared for a video (`plan`), from the kept set when there is one; `loaded` are
 * the images already loading, when the caller started them.
 */
export function prepareKeyframes(
  embedder: Embedder,
  files: string,
  plan: KeyframePlan,
  loaded?: Promise<RawImage[]>,
): Promise<PreparedKeyframes> {
  const { info, fit, full, small, work } = plan;
  const key = `${files}\n#${JSON.stringify([info.width, info.height, info.color_space, info.pix_fmt, fit, full, small, work])}`;
  let sets = kept.get(embedder);
  if (!sets) {
    sets = new Map();
    kept.set(embedder, sets);
  }
  const hit = sets.get(key);
  if (hit) {
    // most recently used last
    sets.delete(key);
    sets.set(key, hit);
    return hit;
  }
  const made = prepare(embedder, plan, loaded ?? Promise.all(plan.images.map((f) => loadImage(f))));
  sets.set(key, made);
  // a failure is not kept
  made.catch(() => sets.delete(key));
  while (sets.size > KEEP) sets.delete(sets.keys().next().value!);
  return made;
}

async function prepare(
  embedder: Embedder,
  { info, fit, full, small, work }: KeyframePlan,
  images: Promise<RawImage[]>,
): Promise<PreparedKeyframes> {
  // each keyframe fitted to the video's own size, made a frame of the video and put through the
  // chains a decoded frame takes (media/frame-like.ts): the embedder's copy, the pixel score's luma
  // and stage 2's working luma alike — one path, so that a keyframe cut from the video and its
  // frame come out alike
  const own = await Promise.all(
    (await images).map((img) =>
      img.width === info.width && img.height === info.height
        ? img
        : resizeImage(img, info.width, info.height, fit),
    ),
  );
  const made = await imagesAsFrames(own, info, { full, small, work });
  const pixels = made.map((m) => m.pixels);
  const kvecs = await embedder.embed(made.map((m) => m.small));
  const refs: (SsimReference | undefined)[] = [];
  const reference = (k: number) => {
    const p = pixels[k];
    if (!p) throw new InternalError(`no pixel-size image of keyframe ${k} (${pixels.length} prepared)`);
    refs[k] ??= ssimReference(p);
    return refs[k];
  };
  return { kvecs, pixels, reference, luma: work ? made.map((m) => m.work!) : [] };
}
