/**
 * Deterministic labelled image pairs for calibrating and testing embedders: label 1 = the same
 * content under shot-like perturbations (shift, zoom, brightness, blur, noise, JPEG), label 0 =
 * unrelated content (other photographs or procedural scenes, or far-apart crops of one photo).
 * Seed "calibration" calibrates the builtin embedder; tests grade it on other seeds.
 */
import { decodeImage, encodeImage, loadImage, resizeImage } from '../media/image.js';
import { cropRaw, type RawImage } from '../media/raw.js';
import { createRng, type Rng } from '../stats/rng.js';
import { photoPath } from './assets.js';

const PAIR_W = 192;
const PAIR_H = 108;
const PHOTOS = ['astronaut.png', 'chelsea.png', 'coffee.png', 'rocket.jpg'];

export interface ImagePair {
  a: RawImage;
  b: RawImage;
  label: 0 | 1;
  what: string;
}

function colour(rng: Rng): [number, number, number] {
  return [rng.int(256), rng.int(256), rng.int(256)];
}

/** A procedural scene: a two-colour gradient and a few shapes. */
export function proceduralScene(rng: Rng, w = PAIR_W, h = PAIR_H): RawImage {
  const data = new Uint8Array(w * h * 3);
  const c0 = colour(rng);
  const c1 = colour(rng);
  const vertical = rng.next() < 0.5;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = vertical ? y / h : x / w;
      for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = Math.round(c0[c]! * (1 - t) + c1[c]! * t);
    }
  }
  const shapes = 3 + rng.int(4);
  for (let s = 0; s < shapes; s++) {
    const col = colour(rng);
    const cx = rng.next() * w;
    const cy = rng.next() * h;
    const rx = 8 + rng.next() * w * 0.25;
    const ry = 8 + rng.next() * h * 0.3;
    const circle = rng.next() < 0.5;
    for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(h, cy + ry); y++) {
      for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(w, cx + rx); x++) {
        if (circle && ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
        data.set(col, (y * w + x) * 3);
      }
    }
  }
  return { width: w, height: h, channels: 3, data };
}

async function photoCrop(
  photo: RawImage,
  rng: Rng,
  at?: { x: number; y: number; frac: number },
): Promise<{ img: RawImage; x: number; y: number; frac: number }> {
  const frac = at?.frac ?? 0.35 + rng.next() * 0.35;
  const cw = Math.round(photo.width * frac);
  const ch = Math.min(photo.height, Math.round((cw * 9) / 16));
  const x = at?.x ?? rng.next() * (photo.width - cw);
  const y = at?.y ?? rng.next() * (photo.height - ch);
  const img = await resizeImage(cropRaw(photo, x, y, cw, ch), PAIR_W, PAIR_H, 'fill');
  return { img, x, y, frac };
}

export function boxBlur(img: RawImage, passes: number): RawImage {
  let cur = img.data;
  const { width: w, height: h } = img;
  for (let p = 0; p < passes; p++) {
    const out = new Uint8Array(cur.length);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < 3; c++) {
          let s = 0;
          let n = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              const yy = y + dy;
              const xx = x + dx;
              if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
              s += cur[(yy * w + xx) * 3 + c]!;
              n++;
            }
          }
          out[(y * w + x) * 3 + c] = Math.round(s / n);
        }
      }
    }
    cur = out;
  }
  return { ...img, data: cur };
}

/** One shot-like perturbation of an image. */
async function perturb(img: RawImage, rng: Rng): Promise<{ img: RawImage; what: string }> {
  const k = rng.int(6);
  switch (k) {
    case 0: {
      const dx = Math.round((rng.next() * 2 - 1) * 0.08 * img.width);
      const dy = Math.round((rng.next() * 2 - 1) * 0.08 * img.height);
      const c = cropRaw(
        img,
        Math.max(0, dx),
        Math.max(0, dy),
        img.width - Math.abs(dx),
        img.height - Math.abs(dy),
      );
      return { img: await resizeImage(c, img.width, img.height, 'fill'), what: 'shift' };
    }
    case 1: {
      const z = 1 + rng.next() * 0.12;
      const cw = img.width / z;
      const ch = img.height / z;
      const c = cropRaw(img, (img.width - cw) * rng.next(), (img.height - ch) * rng.next(), cw, ch);
      return { img: await resizeImage(c, img.width, img.height, 'fill'), what: 'zoom' };
    }
    case 2: {
      const f = 0.85 + rng.next() * 0.3;
      return {
        img: { ...img, data: img.data.map((v) => Math.min(255, Math.round(v * f))) },
        what: 'brightness',
      };
    }
    case 3:
      return { img: boxBlur(img, 1 + rng.int(2)), what: 'blur' };
    case 4: {
      const s = 4 + rng.next() * 8;
      return {
        img: {
          ...img,
          data: img.data.map((v) =>
            Math.min(255, Math.max(0, Math.round(v + (rng.next() * 2 - 1) * s * 1.7))),
          ),
        },
        what: 'noise',
      };
    }
    default: {
      const q = 25 + rng.int(50);
      return {
        img: await decodeImage(await encodeImage(img, { format: 'jpeg', quality: q }), 'jpeg-roundtrip'),
        what: `jpeg${q}`,
      };
    }
  }
}

/** `n` pairs, half positive and half negative, deterministic for a seed. */
export async function makeImagePairs(seed: string, n: number): Promise<ImagePair[]> {
  const rng = createRng(seed);
  const photos = await Promise.all(PHOTOS.map((p) => loadImage(photoPath(p))));
  const source = async () =>
    rng.next() < 0.5 ? (await photoCrop(photos[rng.int(photos.length)]!, rng)).img : proceduralScene(rng);
  const out: ImagePair[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      const a = await source();
      let b = a;
      const whats: string[] = [];
      for (let t = 0, m = 1 + rng.int(2); t < m; t++) {
        const p = await perturb(b, rng);
        b = p.img;
        whats.push(p.what);
      }
      out.push({ a, b, label: 1, what: whats.join('+') });
    } else if (rng.next() < 0.3) {
      const photo = photos[rng.int(photos.length)]!;
      const first = await photoCrop(photo, rng, { x: 0, y: rng.next() * photo.height * 0.3, frac: 0.4 });
      const second = await photoCrop(photo, rng, {
        x: photo.width * 0.6,
        y: rng.next() * photo.height * 0.3,
        frac: 0.4,
      });
      out.push({ a: first.img, b: second.img, label: 0, what: 'far crops of one photo' });
    } else {
      out.push({ a: await source(), b: await source(), label: 0, what: 'unrelated' });
    }
  }
  return out;
}
