/**
 * One path from pixels to the embedder and to the pixel measures (issue 56): the frame pairs
 * (`streamFramePairs`) are ffmpeg's own RGB conversion of each frame — what `ffmpeg -i v.mp4
 * frame.png` saves — area-scaled, and a keyframe image takes the same chains
 * (`imagesAsFrames`). On videos made here with ffmpeg (BT.601 untagged, BT.709 tagged, full range,
 * an odd 4:4:4 size, 10-bit), a frame cut to PNG with ffmpeg comes out of both paths byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuiltinEmbedder } from '../../src/embed/builtin.js';
import { cosine } from '../../src/embed/embedder.js';
import { imagesAsFrames } from '../../src/media/frame-like.js';
import { streamFrames } from '../../src/media/frames.js';
import { loadImage } from '../../src/media/image.js';
import { pixelFrameExpr, pixelFrameSize } from '../../src/media/pair-sizes.js';
import { startFramePairs, streamFramePairs } from '../../src/media/pairs.js';
import { probe } from '../../src/media/probe.js';
import { compareRaw } from '../../src/media/quality.js';
import { luma601, type RawImage } from '../../src/media/raw.js';

const dir = mkdtempSync(join(tmpdir(), 'kfbench-frame-path-'));
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

/** Frame `n` of `video` cut to PNG as a user would: `ffmpeg -i V -vf select=eq(n\,N) -frames:v 1 K.png`. */
function cut(video: string, n: number, png: string): string {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    video,
    '-vf',
    `select=eq(n\\,${n})`,
    '-frames:v',
    '1',
    png,
  ]);
  return png;
}

function meanDiff(a: RawImage, b: RawImage): number {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

function same(a: RawImage, b: RawImage): boolean {
  return (
    a.width === b.width &&
    a.height === b.height &&
    a.channels === b.channels &&
    Buffer.from(a.data).equals(Buffer.from(b.data))
  );
}

const videos = () => [
  {
    name: 'bt601',
    file: make('bt601.mp4', '160x96', ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-qp', '0']),
  },
  {
    name: 'bt709 tagged',
    file: make('bt709.mp4', '160x96', [
      ...['-pix_fmt', 'yuv420p', '-colorspace', 'bt709'],
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

describe('one path from pixels to the embedder', () => {
  it.each(videos())(
    "$name: the pairs are ffmpeg's RGB frames, and a frame cut to PNG comes out of both paths alike",
    async ({ name, file }) => {
      const info = await probe(file);
      if (name.startsWith('odd')) expect([info.width, info.height]).toEqual([161, 97]);
      const small = { width: 32, height: 32 };
      const pairs = [];
      for await (const p of streamFramePairs(info, { kind: 'all' }, small)) pairs.push(p);
      const full: RawImage[] = [];
      for await (const f of streamFrames(info, { kind: 'all' })) full.push(f);
      expect(pairs.length).toBe(info.frames);
      expect(full.length).toBe(pairs.length);
      // at the video's own size the pair is ffmpeg's own rgb24 conversion, byte for byte (from 10
      // bits, streamFrames' one-step conversion and scaling upsamples the chroma with another filter:
      // the same picture, apart at saturated colour edges)
      for (let i = 0; i < pairs.length; i++)
        if (name === '10-bit') expect(meanDiff(pairs[i]!.full(), full[i]!), `frame ${i}`).toBeLessThan(3);
        else expect(same(pairs[i]!.full(), full[i]!), `frame ${i}`).toBe(true);
      expect(pairs[0]!.full()).toBe(pairs[0]!.full());
      expect(same(pairs[0]!.fullLuma(), luma601(pairs[0]!.full()))).toBe(true);
      // frame 3 cut to PNG, through the keyframe path at a pixel size below the video's
      const scaled = [];
      for await (const p of streamFramePairs(info, { kind: 'all' }, small, { pixelSize: 64, workSize: 48 }))
        scaled.push(p);
      const frame = scaled[3]!;
      const png = await loadImage(cut(file, 3, join(dir, `${name}.png`)));
      const full64 = pixelFrameSize(info.width, info.height, 64);
      const [kf] = await imagesAsFrames([png], info, { full: full64, small, work: undefined });
      const [kfw] = await imagesAsFrames([png], info, { full: full64, small, work: 'full' });
      expect(same(kfw!.work!, kfw!.pixels)).toBe(true);
      if (name === '10-bit' || name.startsWith('odd')) {
        // a 10-bit frame is saved as 16-bit PNG, which loads rounded to 8 bits; at an odd width
        // swscale's right-most column comes out unlike from a decoded frame and from raw RGB: a
        // keyframe still scores as its own frame
        const e = createBuiltinEmbedder();
        const [a, b] = await e.embed([frame.small, kf!.small]);
        expect(cosine(a!, b!)).toBeGreaterThanOrEqual(0.995);
        expect(compareRaw(frame.fullLuma(), kf!.pixels).psnr_db).toBeGreaterThanOrEqual(45);
      } else {
        expect(same(kf!.small, frame.small)).toBe(true);
        expect(same(kf!.pixels, frame.fullLuma())).toBe(true);
      }
    },
  );

  it("the working size has its own copy, made from the RGB frame like the keyframe's", async () => {
    const file = make('work.mp4', '320x180', ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-qp', '0']);
    const info = await probe(file);
    const small = { width: 32, height: 32 };
    const pairs = [];
    for await (const p of streamFramePairs(info, { kind: 'all' }, small, { pixelSize: 128, workSize: 96 }))
      pairs.push(p);
    const png = await loadImage(cut(file, 2, join(dir, 'work.png')));
    const [kf] = await imagesAsFrames([png], info, {
      full: pixelFrameSize(320, 180, 128),
      small,
      work: { width: 96, height: 54 },
    });
    const w = pairs[2]!.work!();
    expect(w.length).toBe(96 * 54);
    expect(Buffer.from(w).equals(Buffer.from(kf!.work!.data))).toBe(true);
    // another frame of the moving test card is another picture
    expect(Buffer.from(pairs[5]!.work!()).equals(Buffer.from(kf!.work!.data))).toBe(false);
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
