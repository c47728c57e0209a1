/**
 * The only file that imports sharp. Decoding always yields sRGB 8-bit RGB (alpha dropped) so
 * that greyscale is computed by our own 601 formula, not by libvips' colour-managed one.
 */
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import type { Metadata } from 'sharp';
import { BackendError, BadInputError } from '../errors.js';
import { loadNative } from '../native.js';
import { readCappedFile } from '../store/limits.js';
import type { RawImage } from './raw.js';

let sharpModule: typeof Sharp | undefined;

/** sharp, loaded on first use: a missing or broken build is one backend error naming it (exit 4). */
function sharp(): typeof Sharp {
  if (!sharpModule) {
    sharpModule = loadNative('sharp', () => createRequire(import.meta.url)('sharp') as typeof Sharp);
    sharpModule.cache(false);
    sharpModule.concurrency(1);
  }
  return sharpModule;
}

/** The image library's versions (sharp and libvips): a cache of encoded images keys on them. */
export function imageLibraryVersion(): string {
  const { versions } = sharp();
  return `sharp ${versions.sharp}, libvips ${versions.vips}`;
}

function describe(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split('\n')[0]!.replace(/^Input (file|buffer) /, '');
}

/**
 * Largest image file read (256 MiB): a 16-bit 8K TIFF is about 200 MB; a keyframe or still is a
 * few MB.
 */
export const MAX_IMAGE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Most pixels an image may have to be decoded (64 megapixels, e.g. 8192×8192; 8K UHD is 33):
 * checked by sharp from the file's header before any pixel is decoded, so a 15000×15000 keyframe
 * is bad input naming the file, not 1.4 GB of memory. `KFBENCH_MAX_IMAGE_PIXELS` raises it.
 */
export const DEFAULT_MAX_IMAGE_PIXELS = 64_000_000;

/** The pixel limit: `KFBENCH_MAX_IMAGE_PIXELS` when set (a positive whole number), else the default. */
function maxImagePixels(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.KFBENCH_MAX_IMAGE_PIXELS;
  if (v === undefined || v === '') return DEFAULT_MAX_IMAGE_PIXELS;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new BadInputError(`KFBENCH_MAX_IMAGE_PIXELS must be a positive whole number of pixels, not "${v}"`);
  return n;
}

/**
 * An image file's bytes; a file that cannot be read, is not a regular file or is past
 * `MAX_IMAGE_FILE_BYTES` is bad input naming it.
 */
async function readImageFile(file: string): Promise<Buffer> {
  return readImageFileSync(file);
}

/**
 * `readImageFile` at once, on this thread: for the judge's images, read one at a time before an
 * encode that costs a hundred times more, where the four thread-pool round trips of an asynchronous
 * read (open, stat, read, close) cost eight times the CPU of the read itself.
 */
export function readImageFileSync(file: string): Buffer {
  return readCappedFile(file, { max: MAX_IMAGE_FILE_BYTES, what: 'image files' });
}

/** Decode an image file (JPEG, PNG, WebP …) to RGB pixels. Unreadable or truncated files are bad input. */
export async function loadImage(file: string): Promise<RawImage> {
  return decodeImage(await readImageFile(file), file);
}

/** Decode image bytes; `name` is used in errors. */
export async function decodeImage(bytes: Uint8Array, name: string): Promise<RawImage> {
  const lib = sharp(); // outside the try: a library that cannot load is not the image's fault
  const limit = maxImagePixels();
  try {
    const { data, info } = await lib(bytes, { failOn: 'truncated', limitInputPixels: limit })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3)
      throw new BackendError(`sharp returned ${info.channels} channels where 3 were asked for`);
    return { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data) };
  } catch (e) {
    if (/pixel limit/.test(describe(e))) throw await pastPixelLimit(bytes, name, limit, e);
    throw new BadInputError(`not a readable image (${describe(e)})`, { file: name, cause: e });
  }
}

/** The error for an image past the pixel limit, with its size read from the header. */
async function pastPixelLimit(bytes: Uint8Array, name: string, limit: number, cause: unknown) {
  const m = await sharp()(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  const size = m?.width && m.height ? `${m.width}×${m.height}` : 'too many';
  return new BadInputError(
    `image of ${size} pixels is past the ${limit.toLocaleString('en-US')}-pixel limit (raise it with KFBENCH_MAX_IMAGE_PIXELS)`,
    { file: name, cause },
  );
}

function toSharp(img: RawImage) {
  return sharp()(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
}

export type ResizeFit = 'fill' | 'cover' | 'contain';

const resizeOptions = (fit: ResizeFit) =>
  ({ fit, kernel: 'lanczos3', background: { r: 0, g: 0, b: 0 }, fastShrinkOnLoad: false }) as const;

/** Resize with libvips (Lanczos3). Not PIL's resampler: dHash has its own in `pil-resample.ts`. */
export async function resizeImage(
  img: RawImage,
  width: number,
  height: number,
  fit: ResizeFit = 'fill',
): Promise<RawImage> {
  const { data, info } = await toSharp(img)
    .resize(width, height, resizeOptions(fit))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3,
    data: new Uint8Array(data),
  };
}

export type ImageEncoding = { format: 'jpeg'; quality?: number } | { format: 'png' };

const jpegOptions = (quality = 90) => ({ quality, chromaSubsampling: '4:2:0', mozjpeg: false }) as const;

/** Encode to JPEG (4:2:0, default quality 90) or PNG bytes. */
export async function encodeImage(img: RawImage, enc: ImageEncoding): Promise<Buffer> {
  const s = toSharp(img);
  return enc.format === 'png'
    ? s.png({ compressionLevel: 6 }).toBuffer()
    : s.jpeg(jpegOptions(enc.quality)).toBuffer();
}

/** The size within `maxSide` (long side, rounded; never enlarged), or undefined when it fits already. */
export function sizeWithin(width: number, height: number, maxSide: number) {
  const long = Math.max(width, height);
  if (long <= maxSide) return undefined;
  return { width: Math.round((width * maxSide) / long), height: Math.round((height * maxSide) / long) };
}

/**
 * An image as JPEG within `maxSide`: byte for byte `encodeImage(resizeImage(decodeImage(…)))` to
 * `sizeWithin`, in one libvips pipeline (no RGB buffer between decoding and encoding) for raw pixels
 * and for plain JPEG and PNG files (`jpegWithinInOnePipeline`), through those three steps for the
 * rest. `name` is used in errors.
 */
export async function encodeJpegWithin(
  input: RawImage | Uint8Array,
  maxSide: number,
  quality: number,
  name: string,
): Promise<Buffer> {
  if (!(input instanceof Uint8Array)) {
    const to = sizeWithin(input.width, input.height, maxSide);
    const s = toSharp(input);
    return (to ? s.resize(to.width, to.height, resizeOptions('fill')) : s)
      .jpeg(jpegOptions(quality))
      .toBuffer();
  }
  const once = await jpegWithinInOnePipeline(input, maxSide, quality);
  if (once) return once;
  const img = await decodeImage(input, name); // also what says what is wrong with a file
  const to = sizeWithin(img.width, img.height, maxSide);
  return encodeImage(to ? await resizeImage(img, to.width, to.height) : img, { format: 'jpeg', quality });
}

/**
 * The size of a plain image, read by libvips from the header only (no pixel is decoded): an 8-bit
 * JPEG (grey or three-component) or an 8-bit PNG (grey, RGB or palette) without transparency.
 * Anything else — alpha (a tRNS chunk too), 16 bits, CMYK, another format, a header that does not
 * parse — is undefined: `encodeJpegWithin` decodes such files to RGB first. (It replaced a
 * hand-written header parser, issue #47 item 7: ≈ 0.1 ms of CPU an image more, 2–3 % of the
 * image's encode.)
 */
export async function plainImageSize(
  bytes: Uint8Array,
): Promise<{ width: number; height: number } | undefined> {
  let m: Metadata;
  try {
    m = await sharp()(bytes).metadata();
  } catch {
    return undefined;
  }
  if (m.format !== 'jpeg' && m.format !== 'png') return undefined;
  if (m.depth !== 'uchar' || m.hasAlpha || (m.channels !== 1 && m.channels !== 3)) return undefined;
  // PNG grey and RGB at 8 bits a sample; palette at any depth (decoded to 8-bit RGB)
  if (m.format === 'png' && !m.isPalette && m.bitsPerSample !== 8) return undefined;
  if (!m.width || !m.height) return undefined;
  return { width: m.width, height: m.height };
}

/**
 * `encodeJpegWithin` of an image file's bytes in one pipeline, from the file to the JPEG, when its
 * header shows a plain image (`plainImageSize`: 8-bit JPEG or PNG, no alpha, not CMYK): such an
 * image is decoded, colour-managed and resized as the steps do it, the extract (the whole image)
 * keeping libjpeg from shrinking on load, which the steps do not. Undefined for other images (alpha
 * is premultiplied before resizing and 16 bits resized before their cast, so one pipeline would
 * round differently), for an image that fails, and for one whose size is not the header's.
 */
export async function jpegWithinInOnePipeline(
  bytes: Uint8Array,
  maxSide: number,
  quality: number,
): Promise<Buffer | undefined> {
  const header = await plainImageSize(bytes);
  if (!header) return undefined;
  const { width, height } = header;
  const to = sizeWithin(width, height, maxSide);
  try {
    if (width * height > maxImagePixels()) return undefined; // decodeImage says why
    let s = sharp()(bytes, { failOn: 'truncated' });
    if (to)
      s = s.extract({ left: 0, top: 0, width, height }).resize(to.width, to.height, resizeOptions('fill'));
    const { data, info } = await s
      .toColourspace('srgb')
      .jpeg(jpegOptions(quality))
      .toBuffer({ resolveWithObject: true });
    return info.width === (to?.width ?? width) && info.height === (to?.height ?? height) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Paste images onto a canvas of the given size and background (for grids). */
export async function compose(
  width: number,
  height: number,
  layers: { img: RawImage | Buffer; left: number; top: number }[],
  background = { r: 16, g: 16, b: 16 },
): Promise<RawImage> {
  const inputs = layers.map((l) =>
    Buffer.isBuffer(l.img)
      ? { input: l.img, left: l.left, top: l.top }
      : {
          input: Buffer.from(l.img.data.buffer, l.img.data.byteOffset, l.img.data.byteLength),
          raw: { width: l.img.width, height: l.img.height, channels: l.img.channels },
          left: l.left,
          top: l.top,
        },
  );
  const { data, info } = await sharp()({ create: { width, height, channels: 3, background } })
    .composite(inputs)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 3, data: new Uint8Array(data) };
}
