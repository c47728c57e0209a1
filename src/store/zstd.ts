/**
 * The one owner of zstd, through `node:zlib` (Node ≥ 22.15, the lowest release kfbench claims: no
 * external command). A truncated, multi-frame-truncated or junk `.zst` is bad input naming the
 * file — the compressed bytes are also walked frame by frame and block by block as they stream
 * past, so a cut inside any frame is caught whatever the decompressor reports at end of input —
 * and the write side never leaves a half file (callers write to a temp file and rename on success).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createZstdCompress, createZstdDecompress } from 'node:zlib';
import { BadInputError } from '../errors.js';

const ZSTD_MAGIC = 0xfd2fb528;

const gib = (n: number) =>
  n >= 1024 ** 3 ? `${+(n / 1024 ** 3).toFixed(2)} GiB` : `${+(n / 1024 ** 2).toFixed(2)} MiB`;

/** What a splitting `ZstdFrameCheck` emits after the last byte of each frame. */
const FRAME_END = Object.freeze({ frameEnd: true });

/**
 * Passes compressed bytes through unchanged while following the zstd frame format (RFC 8878):
 * frame header, block headers and sizes, optional checksum, skippable frames. At the end of the
 * input anything but a complete frame is an error.
 */
class ZstdFrameCheck extends Transform {
  private state: 'magic' | 'skipSize' | 'fhd' | 'header' | 'block' | 'body' | 'checksum' = 'magic';
  private buf: number[] = [];
  private need = 4;
  private skip = 0;
  private checksum = false;
  private last = false;
  private frames = 0;
  /** Position in the current chunk (for `onFrameEnd`). */
  private pos = 0;
  private cuts: number[] = [];
  /**
   * With `split`, the readable side is in object mode and `FRAME_END` follows the last byte of
   * each frame, in order (so a reader can start a new decompressor per frame).
   */
  constructor(
    private readonly file: string,
    private readonly split = false,
  ) {
    super({ readableObjectMode: split });
  }

  private fail(msg: string): BadInputError {
    return new BadInputError(`not a complete zstd file (${msg})`, { file: this.file });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    let i = 0;
    this.cuts = [];
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        this.pos = i;
        if (this.skip === 0) this.afterSkip();
        continue;
      }
      this.buf.push(chunk[i]!);
      i++;
      this.pos = i;
      if (this.buf.length < this.need) continue;
      const err = this.step();
      if (err) {
        cb(err);
        return;
      }
    }
    if (!this.split || this.cuts.length === 0) {
      cb(null, chunk);
      return;
    }
    let start = 0;
    for (const cut of this.cuts) {
      if (cut > start) this.push(chunk.subarray(start, cut));
      this.push(FRAME_END);
      start = cut;
    }
    cb(null, start < chunk.length ? chunk.subarray(start) : undefined);
  }

  private afterSkip(): void {
    if (this.state === 'body') {
      if (!this.last) this.expect('block', 3);
      else if (this.checksum) this.expect('checksum', 4);
      else this.frameDone();
    } else if (this.state === 'skipSize') this.frameDone();
  }

  private expect(state: ZstdFrameCheck['state'], need: number): void {
    this.state = state;
    this.need = need;
    this.buf = [];
  }

  private frameDone(): void {
    this.frames++;
    this.cuts.push(this.pos);
    this.expect('magic', 4);
  }

  private step(): Error | undefined {
    const b = this.buf;
    switch (this.state) {
      case 'magic': {
        const m = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
        if (m === ZSTD_MAGIC) this.expect('fhd', 1);
        else if (m >>> 4 === 0x184d2a5) this.expect('skipSize', 4);
        else return this.fail(this.frames ? 'junk after the last frame' : 'no zstd magic number');
        return;
      }
      case 'skipSize': {
        this.skip = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
        this.buf = [];
        if (this.skip === 0) this.frameDone();
        return;
      }
      case 'fhd': {
        const d = b[0]!;
        const fcsFlag = d >> 6;
        const single = (d >> 5) & 1;
        if ((d >> 3) & 1) return this.fail('reserved bit set in the frame header');
        this.checksum = ((d >> 2) & 1) === 1;
        this.last = false;
        const dict = [0, 1, 2, 4][d & 3]!;
        const fcs = [single ? 1 : 0, 2, 4, 8][fcsFlag]!;
        const rest = (single ? 0 : 1) + dict + fcs;
        if (rest === 0) this.expect('block', 3);
        else this.expect('header', rest);
        return;
      }
      case 'header':
        this.expect('block', 3);
        return;
      case 'block': {
        const h = b[0]! | (b[1]! << 8) | (b[2]! << 16);
        this.last = (h & 1) === 1;
        const type = (h >> 1) & 3;
        const size = h >>> 3;
        if (type === 3) return this.fail('reserved block type');
        this.state = 'body';
        this.buf = [];
        this.skip = type === 1 ? 1 : size;
        if (this.skip === 0) this.afterSkip();
        return;
      }
      case 'checksum':
        this.frameDone();
        return;
      default:
        return;
    }
  }

  override _flush(cb: TransformCallback): void {
    const clean = this.state === 'magic' && this.buf.length === 0 && this.skip === 0;
    if (!clean) cb(this.fail(`cut inside frame ${this.frames + 1}`));
    else cb(this.frames === 0 ? this.fail('empty') : null);
  }
}

/**
 * Most bytes a `.zst` file may expand to (4 GiB): a hundred times the largest real one (the
 * HeroFrame track index, "~500,000 frames at 1 fps" of one short line each, is about 40 MB), so
 * that a small file that expands without end is bad input, not hours of decompression.
 */
export const MAX_DECOMPRESSED_BYTES = 4 * 1024 ** 3;

/**
 * The decompressed bytes of a `.zst` file as a stream that errors — never ends early — when the
 * file is truncated, damaged or not zstd at all, or expands past `maxBytes` (bad input naming the
 * file and the limit; the decompressor stops there). `destroy()` it to stop early.
 */
/** `onBytes` hears each chunk of the compressed file as it is read (a read's progress). */
export function openZstd(
  file: string,
  maxBytes = MAX_DECOMPRESSED_BYTES,
  onBytes?: (n: number) => void,
): Readable {
  const source = createReadStream(file);
  if (onBytes) source.on('data', (c) => onBytes(c.length));
  return openZstdZlib(file, source, maxBytes);
}

/**
 * `node:zlib`'s zstd decompressor stops at the end of the first frame, so each frame gets its own:
 * the frame check says where a frame ends, and the bytes after it go to a new decompressor. Output
 * is streamed (a frame can expand to gigabytes) with back-pressure from the reader.
 */
function openZstdZlib(file: string, source: Readable, maxBytes: number): Readable {
  const out = new PassThrough();
  const fail = (e: Error) =>
    out.destroy(
      e instanceof BadInputError ? e : new BadInputError(`cannot decompress (${e.message})`, { file }),
    );
  const parts: (Buffer | null)[] = []; // null: a frame ended here
  let wake: (() => void) | undefined;
  let ended = false;
  const check = new ZstdFrameCheck(file, true);
  let expanded = 0;
  let dec: Transform | undefined;
  check.on('data', (b: Buffer | typeof FRAME_END) => {
    parts.push(b === FRAME_END ? null : (b as Buffer));
    if (parts.length > 64) check.pause();
    wake?.();
  });
  check.on('end', () => {
    ended = true;
    wake?.();
  });
  check.on('error', (e) => {
    fail(e);
    wake?.();
  });
  source.on('error', fail);
  source.pipe(check);
  out.on('close', () => {
    source.destroy();
    check.destroy();
    dec?.destroy();
  });
  const next = async (): Promise<Buffer | null | undefined> => {
    while (parts.length === 0) {
      if (ended || out.destroyed) return undefined;
      check.resume();
      await new Promise<void>((r) => {
        wake = r;
      });
      wake = undefined;
    }
    return parts.shift();
  };
  void (async () => {
    const finish = async () => {
      if (!dec) return;
      const d = dec;
      dec = undefined;
      const done = new Promise<void>((resolve, reject) => {
        d.once('end', resolve);
        d.once('error', reject);
      });
      d.end();
      await done;
    };
    try {
      for (;;) {
        const part = await next();
        if (part === undefined) break;
        if (part === null) {
          await finish();
          continue;
        }
        if (!dec) {
          dec = createZstdDecompress();
          dec.on('error', fail);
          dec.on('data', (b: Buffer) => {
            expanded += b.length;
            if (expanded > maxBytes && !out.destroyed)
              fail(
                new BadInputError(`expands past the ${gib(maxBytes)} limit of a decompressed file`, { file }),
              );
          });
          dec.pipe(out, { end: false });
        }
        if (!dec.write(part)) {
          const d = dec;
          await new Promise<void>((resolve, reject) => {
            d.once('drain', resolve);
            d.once('error', reject);
            out.once('close', resolve);
          });
        }
        if (out.destroyed) return;
      }
      await finish();
      out.end();
    } catch (e) {
      fail(e as Error);
    }
  })();
  return out;
}

/** Compress `source` into `tmp` (the caller renames it on success and removes it on failure). */
export async function writeZstd(tmp: string, source: Readable): Promise<void> {
  const enc = createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: 10 } });
  await pipeline(source, enc, createWriteStream(tmp));
}
