import { describe, expect, it } from 'vitest';
import type { FrameRequest } from '../../src/media/frame-plan.js';
import { type FrameFormat, streamFrames, type VideoFrame } from '../../src/media/frames.js';
import { cameraMotion, motionMeter } from '../../src/media/motion.js';
import { probe } from '../../src/media/probe.js';
import { media } from '../support/paths.js';

async function collect(it: AsyncIterable<VideoFrame>): Promise<VideoFrame[]> {
  const out: VideoFrame[] = [];
  for await (const f of it) out.push(f);
  return out;
}

/** Index, time, size and a digest of the pixels: what must match frame for frame. */
const digest = (fs: VideoFrame[]) =>
  fs.map((f) => ({
    index: f.index,
    time_s: f.time_s,
    size: [f.width, f.height, f.channels],
    bytes: f.data.length,
    hash: hash(f.data),
  }));

function hash(d: Uint8Array): number {
  let h = 2166136261;
  for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i]!, 16777619);
  return h >>> 0;
}

describe('one decode, two outputs (streamFrames with a side request)', () => {
  const cases: {
    video: string;
    main: FrameRequest;
    mainFmt: FrameFormat;
    side: FrameRequest;
    sideFmt: FrameFormat;
  }[] = [
    // the judge's frames and camera motion's grey frames, as the Compass quality judge asks them
    {
      video: 'shots.mp4',
      main: { kind: 'times', times: [0.0625, 0.1875, 1.3125, 2.5] },
      mainFmt: { width: 96 },
      side: { kind: 'rate', rate: 8 },
      sideFmt: { width: 64, height: 36, pixels: 'gray' },
    },
    // variable frame rate: frames by pts on both outputs
    {
      video: 'vfr.mp4',
      main: { kind: 'rate', rate: 8 },
      mainFmt: { width: 120 },
      side: { kind: 'rate', rate: 5 },
      sideFmt: { width: 48, pixels: 'gray' },
    },
    // a turned phone video; the main output stops early (two frames), the side reads to the end
    {
      video: 'rotated.mp4',
      main: { kind: 'indices', indices: [0, 3] },
      mainFmt: {},
      side: { kind: 'all' },
      sideFmt: { width: 32, pixels: 'gray' },
    },
  ];

  it.each(cases)('$video: both outputs equal two separate decodes, byte for byte', async (c) => {
    const info = await probe(media(c.video));
    const sideFrames: VideoFrame[] = [];
    const main = await collect(
      streamFrames(info, c.main, c.mainFmt, undefined, {
        req: c.side,
        fmt: c.sideFmt,
        onFrame: (f) => sideFrames.push(f),
      }),
    );
    const aloneMain = await collect(streamFrames(info, c.main, c.mainFmt));
    const aloneSide = await collect(streamFrames(info, c.side, c.sideFmt));
    expect(main.length).toBeGreaterThan(0);
    expect(sideFrames.length).toBeGreaterThan(1);
    expect(digest(main)).toEqual(digest(aloneMain));
    expect(digest(sideFrames)).toEqual(digest(aloneSide));
  });

  it('an empty main request still serves the side request', async () => {
    const info = await probe(media('shots.mp4'));
    const side: VideoFrame[] = [];
    const main = await collect(
      streamFrames(info, { kind: 'times', times: [] }, {}, undefined, {
        req: { kind: 'rate', rate: 4 },
        fmt: { width: 32, pixels: 'gray' },
        onFrame: (f) => side.push(f),
      }),
    );
    expect(main).toEqual([]);
    expect(digest(side)).toEqual(
      digest(await collect(streamFrames(info, { kind: 'rate', rate: 4 }, { width: 32, pixels: 'gray' }))),
    );
  });

  it('a throw from the side consumer stops the decode and is thrown', async () => {
    const info = await probe(media('shots.mp4'));
    const run = collect(
      streamFrames(info, { kind: 'all' }, { width: 32 }, undefined, {
        req: { kind: 'all' },
        fmt: { width: 16, pixels: 'gray' },
        onFrame: (f) => {
          if (f.index === 5) throw new Error('side consumer failed at frame 5');
        },
      }),
    );
    await expect(run).rejects.toThrow('side consumer failed at frame 5');
  });

  it('camera motion measured on a shared decode equals its own decode', async () => {
    for (const video of ['shots.mp4', 'vfr.mp4', 'rotated.mp4']) {
      const info = await probe(media(video));
      const shots = [
        { start_s: 0, end_s: info.duration_s / 2 },
        { start_s: info.duration_s / 2, end_s: info.duration_s },
      ];
      const meter = motionMeter(info);
      await collect(streamFrames(info, { kind: 'rate', rate: 8 }, { width: 96 }, undefined, meter.side));
      expect(meter.shots(shots), video).toEqual(await cameraMotion(info, shots));
    }
  });
});
