/**
 * The planar frame pairs (`streamFramePairs`, converted to RGB by yuv.ts) against ffmpeg's own
 * rgb24 conversion of the same frames (`streamFrames`), on videos made here with ffmpeg: BT.601
 * untagged, BT.709 tagged, full range (yuvj420p), an odd frame size (4:4:4 path) and 10-bit.
 * swscale's table conversion comes out about one level darker than the exact formula, so the
 * agreement asked for is: no channel off by more than 4 levels, mean difference under 2.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streamFrames } from '../../src/media/frames.js';
import {
  imagesAsFramePairs,
  pairPixelFormat,
  pixelFrameExpr,
  pixelFrameSize,
  startFramePairs,
  streamFramePairs,
} from '../../src/media/pairs.js';
import { probe } from '../../src/media/probe.js';
import { luma601, type RawImage } from '../../src/media/raw.js';
import { planarBytes, yuvMatrix, yuvToRgb } from '../../src/media/yuv.js';

const dir = mkdtempSync(join(tmpdir(), 'kfbench-yuv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function make(name: string, size: string, out: string[]): string {
  const file = join(dir, name);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=${size}:r=12:d=0.5`],
    ...out,
    file,
  ]);
  return file;
}

function diff(a: RawImage, b: RawImage): { max: number; mean: number } {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i]! - b.data[i]!);
    if (d > max) max = d;
    sum += d;
  }
  return { max, mean: sum / a.data.length };
}

const videos = () => [
  {
    name: 'bt601',
    file: make('bt601.mp4', '160x96', ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-qp', '0']),
  },
  {
    name: 'bt709 tagged',
    file: make('bt709.mp4', '160x96', [
      ...['-vf', 'scale=out_color_matrix=bt709,format=yuv420p', '-colorspace', 'bt709'],
      ...['-color_primaries', 'bt709', '-color_trc', 'bt709', '-c:v', 'libx264', '-qp', '0'],
    ]),
  },
  {
    name: 'full range',
    file: make('full.mp4', '160x96', ['-pix_fmt', 'yuvj420p', '-c:v', 'libx264', '-qp', '0']),
  },
  {
    name: 'odd size, 4:4:4',
    file: make('odd.mkv', '162x98', ['-vf', 'format=yuv444p,crop=161:97:0:0', '-c:v', 'ffv1']),
  },
  { name: '10-bit', file: make('ten.mkv', '160x96', ['-pix_fmt', 'yuv420p10le', '-c:v', 'ffv1']) },
];

describe('streamFramePairs in planar YUV', () => {
  it.each(videos())('$name: full and small frames agree with ffmpeg rgb24', async ({ name, file }) => {
    const info = await probe(file);
    if (name.startsWith('odd')) expect([info.width, info.height]).toEqual([161, 97]);
    const small = { width: 32, height: 32 };
    const pairs = [];
    for await (const p of streamFramePairs(info, { kind: 'all' }, small)) pairs.push(p);
    const full: RawImage[] = [];
    for await (const f of streamFrames(info, { kind: 'all' })) full.push(f);
    const smalls: RawImage[] = [];
    for await (const f of streamFrames(info, { kind: 'all' }, small)) smalls.push(f);
    expect(pairs.length).toBe(info.frames);
    expect(full.length).toBe(pairs.length);
    for (let i = 0; i < pairs.length; i++) {
      const f = diff(pairs[i]!.full(), full[i]!);
      // swscale upsamples the chroma of a 10-bit or 4:4:4 source with a filter, where its 8-bit
      // 4:2:0 converter (and yuv.ts) repeat each sample: RGB may differ at sharp colour edges
      const eightBit420 = name === 'bt601' || name === 'bt709 tagged' || name === 'full range';
      if (eightBit420) expect(f.max).toBeLessThanOrEqual(4);
      expect(f.mean).toBeLessThan(eightBit420 ? 2 : 6);
      // 601 luma (all PSNR/SSIM see) depends on the chroma only where a saturated colour clips,
      // so it agrees everywhere but at a few edge pixels of testsrc2's pure colours
      const l = diff(luma601(pairs[i]!.full()), luma601(full[i]!));
      expect(l.max).toBeLessThanOrEqual(eightBit420 ? 3 : 32);
      expect(l.mean).toBeLessThan(1.5);
      // the small copy is scaled in YUV here and in RGB by streamFrames (from 10 bits swscale takes
      // yet another path): the same picture, resampled differently at testsrc2's sharp edges
      expect(diff(pairs[i]!.small, smalls[i]!).mean).toBeLessThan(eightBit420 ? 8 : 16);
    }
    // full() converts once and hands back the same image
    expect(pairs[0]!.full()).toBe(pairs[0]!.full());
  });
});

describe('yuvToRgb', () => {
  it('reads a rectangle starting on a chroma row and knows the matrices swscale knows', () => {
    // 4×4 frame, 4:2:0: Y = 16..235 ramp, chroma neutral except one block
    const w = 4;
    const h = 4;
    const data = new Uint8Array(planarBytes(w, h, 2)).fill(128);
    for (let i = 0; i < w * h; i++) data[i] = i % 2 ? 235 : 16;
    data[w * h + 3] = 200; // U of the bottom-right block
    const rgb = yuvToRgb({ width: w, height: h, sub: 2, data }, 2, 4, 2, 'bt601');
    // neutral chroma: grey; Y 16 → 0, 235 → 255
    expect(Array.from(rgb.data.subarray(0, 6))).toEqual([0, 0, 0, 255, 255, 255]);
    // U > 128 in the right block: more blue, less green
    expect(rgb.data[6 + 2]!).toBeGreaterThan(0);
    expect(yuvMatrix('bt709')).toBe('bt709');
    expect(yuvMatrix('bt2020nc')).toBe('bt2020');
    expect(yuvMatrix('smpte170m')).toBe('bt601');
    expect(yuvMatrix(undefined)).toBe('bt601');
  });
});

describe("keyframe images in the frames' planar format", () => {
  it('4:2:0 only for an 8-bit 4:2:0 video; the images follow it', async () => {
    const small = { width: 64, height: 64 };
    expect(pairPixelFormat({ pix_fmt: 'yuv420p' }, small)).toBe('yuv420p');
    expect(pairPixelFormat({ pix_fmt: 'yuvj420p' }, small)).toBe('yuv420p');
    expect(pairPixelFormat({ pix_fmt: 'yuv444p' }, small)).toBe('yuv444p');
    expect(pairPixelFormat({ pix_fmt: 'yuv420p10le' }, small)).toBe('yuv444p');
    // the small copy sits on top: an odd small height is not (the full frame's own size does not matter)
    expect(pairPixelFormat({ pix_fmt: 'yuv420p' }, { width: 64, height: 63 })).toBe('yuv444p');
    // one-pixel red and blue columns: 4:4:4 keeps them, 4:2:0 mixes each pair
    const w = 64;
    const data = new Uint8Array(w * w * 3);
    for (let i = 0; i < w * w; i++) data.set(i % 2 ? [0, 0, 255] : [255, 0, 0], i * 3);
    const img: RawImage = { width: w, height: w, channels: 3, data };
    const [full] = await imagesAsFramePairs([img], { width: w, height: w }, 'yuv444p');
    const [sub] = await imagesAsFramePairs([img], { width: w, height: w }, 'yuv420p');
    expect(diff(full!, img).max).toBeLessThanOrEqual(4);
    expect(diff(sub!, img).mean).toBeGreaterThan(20);
  });
});

describe('the pixel size before the probe', () => {
  it("ffmpeg's scale expressions give the size pixelFrameSize computes, for any shape", () => {
    const sizes = [
      [320, 180],
      [1280, 720],
      [1920, 1080],
      [720, 404],
      [853, 480],
      [480, 854],
      [1080, 1920],
      [641, 359],
      [1000, 1000],
      [511, 300],
      [300, 511],
      [4096, 1716],
      [161, 97],
      [1366, 768],
    ] as const;
    for (const pixelSize of [512, 256, 0])
      for (const [w, h] of sizes) {
        const e = pixelFrameExpr(pixelSize);
        const log = execFileSync(
          'sh',
          [
            '-c',
            `ffmpeg -hide_banner -v info -f lavfi -i "color=c=gray:s=${w}x${h}:d=0.04,format=rgb24" -frames:v 1 -vf "scale=w=${e.w}:h=${e.h}:flags=area,showinfo" -f null - 2>&1`,
          ],
          { encoding: 'utf8' },
        );
        const got = /s:(\d+)x(\d+)/.exec(log.slice(log.indexOf('Parsed_showinfo')));
        const want = pixelFrameSize(w, h, pixelSize);
        expect([Number(got?.[1]), Number(got?.[2])], `${w}×${h} at ${pixelSize}`).toEqual([
          want.width,
          want.height,
        ]);
      }
  });

  it('an early decoder gives the frames the probed one gives, and steps aside when the video is not as guessed', async () => {
    const file = make('early.mp4', '160x96', ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-qp', '0']);
    const small = { width: 32, height: 32 };
    const early = startFramePairs(file, small, 64);
    const info = await probe(file);
    const a = [];
    for await (const p of early.take(info, { kind: 'all' }, small)!) a.push(p);
    const b = [];
    for await (const p of streamFramePairs(info, { kind: 'all' }, small, { pixelSize: 64 })) b.push(p);
    expect(a.length).toBe(info.frames);
    expect(a.map((p) => [p.index, p.time_s, p.full(), p.small])).toEqual(
      b.map((p) => [p.index, p.time_s, p.full(), p.small]),
    );
    expect(a[0]!.full()).toMatchObject(pixelFrameSize(160, 96, 64));
    // a rate below the video's, another small size: not taken, the early ffmpeg is stopped
    expect(startFramePairs(file, small, 64).take(info, { kind: 'rate', rate: 4 }, small)).toBeUndefined();
    expect(
      startFramePairs(file, small, 64).take(info, { kind: 'all' }, { width: 16, height: 16 }),
    ).toBeUndefined();
  });
});
