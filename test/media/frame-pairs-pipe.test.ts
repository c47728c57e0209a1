/**
 * The two raw outputs of one real ffmpeg read in step (media/frame-pairs-pipe.ts, the Compass
 * scan's decoder) and the byte stream cut into frames whatever the chunks (media/frame-cutter.ts).
 */
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { FrameCutter } from '../../src/media/frame-cutter.js';
import { ffmpegRawFramePairs } from '../../src/media/frame-pairs-pipe.js';

/** testsrc2 at 32×16 grey to pipe:1 and 8×4 grey to pipe:3, with `full`/`small` frames each. */
function twoOutputs(full: number, small: number): string[] {
  return [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=32x16:rate=10', '-filter_complex'],
    '[0:v]format=gray,split=2[a][b];[b]scale=8:4:flags=area[s]',
    ...['-map', '[a]', '-frames:v', String(full), '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    ...['-map', '[s]', '-frames:v', String(small), '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:3'],
  ];
}

describe('frame pairs from two pipes of one ffmpeg', () => {
  it('frame i of each output comes as a pair, every frame, whatever the order ffmpeg writes them in', async () => {
    const pairs: [Buffer, Buffer][] = [];
    for await (const p of ffmpegRawFramePairs({
      args: twoOutputs(40, 40),
      frameBytes: 32 * 16,
      sideFrameBytes: 8 * 4,
      file: 'testsrc2',
    }))
      pairs.push(p);
    expect(pairs).toHaveLength(40);
    expect(pairs.every(([a, b]) => a.length === 512 && b.length === 32)).toBe(true);
    // each small frame is its own full frame's area average, so a pair never mixes frames
    for (const [a, b] of pairs) {
      let sum = 0;
      for (const v of a) sum += v;
      let small = 0;
      for (const v of b) small += v;
      expect(Math.abs(sum / a.length - small / b.length)).toBeLessThan(1.5);
    }
    expect(new Set(pairs.map(([a]) => a.toString('hex'))).size).toBeGreaterThan(10);
  });

  it('outputs that end apart are bad input naming the file, not pairs read short', async () => {
    for (const [full, small] of [
      [5, 3],
      [3, 5],
    ]) {
      const got: unknown[] = [];
      const err = await (async () => {
        for await (const p of ffmpegRawFramePairs({
          args: twoOutputs(full!, small!),
          frameBytes: 32 * 16,
          sideFrameBytes: 8 * 4,
          file: 'two-outputs.mp4',
        }))
          got.push(p);
      })().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadInputError);
      expect((err as Error).message).toMatch(/^two-outputs\.mp4: decoder stopped in the middle of a frame/);
      expect(got).toHaveLength(Math.min(full!, small!));
    }
  });
});

describe('FrameCutter', () => {
  it('cuts frames at their size across chunks of any size, and counts a frame begun and not ended', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 251);
    for (const step of [1, 3, 7, 64, 100, 333, 1000]) {
      const cut = new FrameCutter(100);
      const frames: Buffer[] = [];
      for (let o = 0; o < 950; o += step)
        frames.push(...cut.push(bytes.subarray(o, Math.min(950, o + step))));
      expect(frames).toHaveLength(9);
      // compared after every push: a later frame never overwrote an earlier one
      for (const [k, f] of frames.entries())
        expect(Buffer.from(bytes.subarray(k * 100, k * 100 + 100)).equals(f)).toBe(true);
      expect(cut.pendingBytes).toBe(50);
    }
  });
});
