/**
 * The mini Compass image pool: procedural scenes and crops of the shipped photographs, chosen
 * greedily so that no two are alike for the builtin embedder (cosine below `DISTINCT`) and every
 * two differ in colour distribution enough for a hard cut between them to be seen. Deterministic.
 */
import { createBuiltinEmbedder } from '../../embed/builtin.js';
import { cosine } from '../../embed/embedder.js';
import { InternalError } from '../../errors.js';
import { loadImage, resizeImage } from '../../media/image.js';
import { cropRaw, type RawImage } from '../../media/raw.js';
import { createRng } from '../../stats/rng.js';
import { photoPath } from '../assets.js';
import { boxBlur, proceduralScene } from '../image-pairs.js';

export const MINI_W = 320;
export const MINI_H = 180;
/** Largest builtin cosine allowed between two pool images (its threshold is 0.76). */
const DISTINCT = 0.45;
/** Smallest colour-histogram distance between two pool images (the shot detector cuts at 0.3). */
const MIN_HIST = 0.45;
const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'rocket.jpg'];

function histogram(img: RawImage): Float64Array {
  const h = new Float64Array(48);
  const n = img.width * img.height;
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) h[c * 16 + (img.data[i * 3 + c]! >> 4)]! += 1 / (3 * n);
  return h;
}

function histDistance(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / 2;
}

/**
 * Fine stripes over a procedural scene (±14 levels, period `period` px, angle `angle`): like the
 * texture of a real surface, it gives every part of the image edges to describe, so an embedder's
 * texture features are not left to codec noise in flat areas.
 */
function textured(img: RawImage, angle: number, period: number): RawImage {
  const fx = Math.cos(angle) / period;
  const fy = Math.sin(angle) / period;
  const data = new Uint8Array(img.data.length);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const t = Math.round(14 * Math.sin(2 * Math.PI * (x * fx + y * fy)));
      for (let c = 0; c < 3; c++) {
        const i = (y * img.width + x) * 3 + c;
        data[i] = Math.min(255, Math.max(0, img.data[i]! + t));
      }
    }
  }
  return { ...img, data };
}

/** `count` mutually distinct images, 320×180. */
export async function imagePool(count: number, seed = 'mini-compass'): Promise<RawImage[]> {
  const rng = createRng(seed);
  const photos = await Promise.all(PHOTOS.map((p) => loadImage(photoPath(p))));
  const embedder = createBuiltinEmbedder();
  const chosen: { img: RawImage; vec: Float32Array; hist: Float64Array }[] = [];
  for (let tries = 0; chosen.length < count; tries++) {
    if (tries > 4000) throw new InternalError(`could not find ${count} distinct images`);
    let img: RawImage;
    if (tries % 3 === 2) {
      const photo = photos[rng.int(photos.length)]!;
      const frac = 0.3 + rng.next() * 0.4;
      const cw = Math.round(photo.width * frac);
      const ch = Math.min(photo.height, Math.round((cw * 9) / 16));
      img = await resizeImage(
        cropRaw(photo, rng.next() * (photo.width - cw), rng.next() * (photo.height - ch), cw, ch),
        MINI_W,
        MINI_H,
        'fill',
      );
    } else {
      img = textured(proceduralScene(rng, MINI_W, MINI_H), rng.next() * Math.PI, 3 + rng.next() * 4);
    }
    const [vec] = await embedder.embed([img]);
    const hist = histogram(img);
    if (chosen.every((c) => cosine(c.vec, vec!) < DISTINCT && histDistance(c.hist, hist) >= MIN_HIST))
      chosen.push({ img, vec: vec!, hist });
  }
  return chosen.map((c) => c.img);
}

/**
 * The `drift` fault: the keyframe re-rendered loosely — a warm colour cast, a blur and fine luma
 * grain. Still recognisably the keyframe (the builtin embedder matches it),
 * but not its pixels (PSNR ≈ 25 dB, SSIM ≈ 0.5 on the mini set).
 */
export function driftImage(img: RawImage): RawImage {
  const rng = createRng('mini-compass/drift');
  const { width: w, height: h } = img;
  const gain = [1.06, 1, 0.92];
  const cast = new Uint8Array(img.data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = (y * w + x) * 3;
      for (let c = 0; c < 3; c++)
        cast[(y * w + x) * 3 + c] = Math.min(
          255,
          Math.round(img.data[src + c]! * gain[c]! + (c === 0 ? 6 : 0)),
        );
    }
  }
  const blurred = boxBlur({ ...img, data: cast }, 1);
  const out = new Uint8Array(blurred.data.length);
  for (let i = 0; i < out.length; i += 3) {
    const e = (rng.next() * 2 - 1) * 8;
    for (let c = 0; c < 3; c++) out[i + c] = Math.min(255, Math.max(0, Math.round(blurred.data[i + c]! + e)));
  }
  return { ...img, data: out };
}
