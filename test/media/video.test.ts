import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadInputError } from '../../src/errors.js';
import { ffprobeJson } from '../../src/media/ffmpeg.js';
import { balancedSum, planFrames, rateIndices } from '../../src/media/frame-plan.js';
import { streamClipFiles, streamClips, streamFrames } from '../../src/media/frames.js';
import { countDecodableFrames, frameAtTime, probe } from '../../src/media/probe.js';
import { probeMany } from '../../src/media/probe-many.js';
import type { VideoInfo } from '../../src/media/video-info.js';
import { media, tempDir } from '../support/paths.js';
import { truncatedMp4 } from '../support/truncated.js';

/** Mean grey level of every frame of a video, decoded sequentially (the ground truth for selection). */
async function sequentialMeans(info: VideoInfo): Promise<number[]> {
  const out: number[] = [];
  for await (const f of streamFrames(info, { kind: 'all' }, { pixels: 'gray' })) out.push(mean(f.data));
  return out;
}

function mean(d: Uint8Array): number {
  let s = 0;
  for (const v of d) s += v;
  return s / d.length;
}

describe('probe', () => {
  it('reads duration, rate, frames, size and audio', async () => {
    const i = await probe(media('shots.mp4'));
    expect(i).toMatchObject({ fps: 24, frames: 264, width: 320, height: 180, has_audio: false });
    expect(i.duration_s).toBeCloseTo(11, 2);
    const a = await probe(media('audio.mp4'));
    expect(a.has_audio).toBe(true);
    expect(a.frames).toBe(50);
  });

  it('keeps a rational frame rate exact', async () => {
    const i = await probe(media('rational.mp4'));
    expect(i.fpsRational).toEqual({ num: 30000, den: 1001 });
    expect(i.frames).toBe(60);
  });

  it.each([
    ['missing.mp4', /missing\.mp4: no such file$/],
    ['not-a-video.mp4', /not-a-video\.mp4: not a readable video/],
    ['truncated.mp4', /truncated\.mp4: not a readable video \(Invalid data found/],
    ['audio-only.m4a', /audio-only\.m4a: has no video stream/],
    ['zero-frames.mp4', /zero-frames\.mp4: has no video stream/],
  ])('%s is bad input naming the file', async (name, msg) => {
    const err = await probe(media(name)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadInputError);
    expect(String((err as Error).message)).toMatch(msg);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('frame selection by exact frame number', () => {
  it('the frame shown at t is ⌊t·fps⌋, also at 30000/1001 fps', () => {
    const fps = { num: 30000, den: 1001 };
    expect(frameAtTime(0, fps)).toBe(0);
    expect(frameAtTime(1001 / 30000, fps)).toBe(1); // exactly the start of frame 1
    expect(frameAtTime(1001 / 30000 - 1e-4, fps)).toBe(0);
    expect(frameAtTime(1.0, fps)).toBe(29); // 1 s · 29.97 = 29.97
    expect(frameAtTime(5 / 24, { num: 24, den: 1 })).toBe(5); // float noise below the boundary
  });

  it('rate sampling takes bucket midpoints (k + 0.5)/rate', () => {
    expect(rateIndices({ num: 1, den: 1 }, { num: 24, den: 1 }, 264)).toEqual([
      12, 36, 60, 84, 108, 132, 156, 180, 204, 228, 252,
    ]);
    // 29.97 fps: midpoint 0.5 s → frame 14 (14.985), 1.5 s → 44 (44.955)
    expect(rateIndices({ num: 1, den: 1 }, { num: 30000, den: 1001 }, 60)).toEqual([14, 44]);
    // rate ≥ fps: every frame once
    expect(rateIndices({ num: 30, den: 1 }, { num: 24, den: 1 }, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('decodes exactly the planned frames (indices, times, rate) on a 29.97 fps file', async () => {
    const info = await probe(media('rational.mp4'));
    const truth = await sequentialMeans(info);
    expect(truth).toHaveLength(60);
    expect(new Set(truth.map((v) => Math.round(v))).size).toBe(60); // every frame distinguishable

    const wanted = [0, 1, 13, 14, 30, 58, 59];
    const got: { index: number; m: number }[] = [];
    for await (const f of streamFrames(
      info,
      { kind: 'indices', indices: [59, ...wanted] },
      { pixels: 'gray' },
    ))
      got.push({ index: f.index, m: mean(f.data) });
    expect(got.map((g) => g.index)).toEqual(wanted);
    for (const g of got) expect(g.m).toBeCloseTo(truth[g.index]!, 6);

    const times = [0.5, 1.0, 1.5, 1.95];
    const byTime: number[] = [];
    for await (const f of streamFrames(info, { kind: 'times', times }, { pixels: 'gray' })) {
      byTime.push(f.index);
      expect(mean(f.data)).toBeCloseTo(truth[f.index]!, 6);
    }
    expect(byTime).toEqual(times.map((t) => Math.floor((t * 30000) / 1001)));

    const byRate: number[] = [];
    for await (const f of streamFrames(info, { kind: 'rate', rate: 2 }, { pixels: 'gray' })) {
      byRate.push(f.index);
      expect(mean(f.data)).toBeCloseTo(truth[f.index]!, 6);
    }
    expect(byRate).toEqual(planFrames(info, { kind: 'rate', rate: 2 }).indices);
    expect(byRate).toEqual([7, 22, 37, 52]);
  });

  it('any number of scattered frames in one select (ffmpeg refuses a flat sum of over ~100 terms)', async () => {
    const info = await probe(media('shots.mp4'));
    const truth = await sequentialMeans(info);
    // every other frame: 132 separate eq() terms, which a flat a+b+… expression cannot hold
    const wanted = truth.map((_, i) => i).filter((i) => i % 2 === 0);
    expect(wanted.length).toBeGreaterThan(120);
    const got: { index: number; m: number }[] = [];
    for await (const f of streamFrames(info, { kind: 'indices', indices: wanted }, { pixels: 'gray' }))
      got.push({ index: f.index, m: mean(f.data) });
    expect(got.map((g) => g.index)).toEqual(wanted);
    for (const g of got) expect(g.m).toBeCloseTo(truth[g.index]!, 6);
    expect(balancedSum(['a', 'b'])).toBe('a+b');
    expect(balancedSum(Array.from({ length: 40 }, (_, i) => `t${i}`)).replaceAll(/[()]/g, '')).toBe(
      Array.from({ length: 40 }, (_, i) => `t${i}`).join('+'),
    );
  });

  it('resizes, keeps aspect with one side, and gives grey or RGB', async () => {
    const info = await probe(media('shots.mp4'));
    const frames = [];
    for await (const f of streamFrames(info, { kind: 'indices', indices: [3] }, { width: 160 }))
      frames.push(f);
    expect(frames[0]).toMatchObject({ width: 160, height: 90, channels: 3 });
    expect(frames[0]!.data.length).toBe(160 * 90 * 3);
  });

  it('a time past the end is bad input naming the file', async () => {
    const info = await probe(media('shots.mp4'));
    expect(() => planFrames(info, { kind: 'times', times: [11.5] })).toThrow(
      /shots\.mp4: time 11\.5 s is past the last frame/,
    );
  });

  it('cancels: aborting stops the ffmpeg process', async () => {
    const info = await probe(media('shots.mp4'));
    const ac = new AbortController();
    let n = 0;
    const run = async () => {
      for await (const _ of streamFrames(info, { kind: 'all' }, {}, ac.signal)) {
        if (++n === 5) ac.abort();
      }
    };
    await expect(run()).rejects.toThrow(/cancelled/);
    expect(n).toBeLessThan(264);
  });

  it('breaking out of the loop early is clean', async () => {
    const info = await probe(media('shots.mp4'));
    let n = 0;
    for await (const _ of streamFrames(info, { kind: 'all' })) if (++n === 3) break;
    expect(n).toBe(3);
  });
});

describe('streamClips: several files through one ffmpeg process', () => {
  it('attributes every frame to the right clip and frame number', async () => {
    const a = await probe(media('rational.mp4'));
    const b = await probe(media('shots.mp4'));
    const truthA = await sequentialMeans(a);
    const req = [
      { info: a, indices: [2, 40] },
      { info: b, indices: [] },
      { info: b, indices: [0, 100, 263] },
      { info: a, indices: [59] },
    ];
    const got = [];
    for await (const f of streamClips(req, { width: 64, height: 36, pixels: 'gray' })) got.push(f);
    expect(got.map((f) => [f.clip, f.index])).toEqual([
      [0, 2],
      [0, 40],
      [2, 0],
      [2, 100],
      [2, 263],
      [3, 59],
    ]);
    // the same frames decoded one file at a time
    for (const f of got.filter((g) => g.clip === 2)) {
      for await (const single of streamFrames(
        b,
        { kind: 'indices', indices: [f.index] },
        { width: 64, height: 36, pixels: 'gray' },
      )) {
        expect(Buffer.from(single.data).equals(Buffer.from(f.data))).toBe(true);
      }
    }
    // rational.mp4 frames are flat greys: compare levels after the resize
    expect(mean(got[0]!.data)).toBeCloseTo(truthA[2]!, 0);
    expect(mean(got[5]!.data)).toBeCloseTo(truthA[59]!, 0);
  });
});

describe('damaged video', () => {
  it('a file whose data is cut after an intact header fails while decoding, naming the file', async () => {
    const info = await probe(media('truncated-data.mp4'));
    expect(info.frames).toBe(264); // the header still promises every frame
    const run = async () => {
      for await (const _ of streamFrames(info, { kind: 'all' }, { width: 64, height: 36 })) {
        // consume
      }
    };
    await expect(run()).rejects.toThrow(/truncated-data\.mp4: video is damaged or truncated/);
  });
});

describe('a truncated file', () => {
  it('probe says it is truncated, and countDecodableFrames counts the frames that decode', async () => {
    const { whole, cut } = await truncatedMp4(tempDir('kfbench-truncated-'));
    expect((await probe(whole)).truncated).toBeUndefined();
    const info = await probe(cut);
    expect(info.frames).toBe(105); // the container's count
    expect(info.truncated?.packets).toBeLessThan(105);
    // the frames that really decode, before the decoder hits the cut
    let decoded = 0;
    const err = await (async () => {
      for await (const _ of streamFrames(info, { kind: 'all' }, { width: 32, height: 24 })) decoded++;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadInputError);
    expect(decoded).toBeGreaterThan(0);
    expect(await countDecodableFrames(info)).toBe(decoded);
  });
});

describe('probeMany: one ffmpeg process for many files', () => {
  it('agrees with probe on rate (exact), size, audio and frame count (±1)', async () => {
    const names = ['shots.mp4', 'rational.mp4', 'audio.mp4', 'fade.mp4'];
    const many = await probeMany(names.map(media));
    for (const [k, name] of names.entries()) {
      const one = await probe(media(name));
      const m = many[k]!;
      expect(m.file).toBe(one.file);
      expect(m.fpsRational).toEqual(one.fpsRational);
      expect([m.width, m.height, m.has_audio]).toEqual([one.width, one.height, one.has_audio]);
      expect(Math.abs(m.frames - one.frames)).toBeLessThanOrEqual(1);
      expect(m.duration_s).toBeCloseTo(one.duration_s, 1);
    }
  });

  it('a bad file in a batch is named', async () => {
    await expect(probeMany([media('shots.mp4'), media('not-a-video.mp4')])).rejects.toThrow(
      /not-a-video\.mp4: not a readable video/,
    );
  });
});

describe('streamClipFiles: probe and read by file name', () => {
  it('gives the same frames as streamClips, in clip order, across batches', async () => {
    const files = [media('rational.mp4'), media('audio.mp4'), media('shots.mp4')];
    const choose = (info: VideoInfo) => [0, info.frames - 1];
    const got: [number, number][] = [];
    for await (const f of streamClipFiles(
      files,
      choose,
      { width: 32, height: 18, pixels: 'gray' },
      { batch: 2 },
    ))
      got.push([f.clip, f.index]);
    expect(got).toEqual([
      [0, 0],
      [0, 59],
      [1, 0],
      [1, 49],
      [2, 0],
      [2, 263],
    ]);
  });
});

describe('probe listing', () => {
  it('lists the packets of the video stream only, and a listing past its limit is bad input naming the file', async () => {
    // audio.mp4 carries an audio stream: its packets are listed too but are not frames
    const info = await probe(media('audio.mp4'));
    expect(info.has_audio).toBe(true);
    const Listing = z.object({ packets: z.array(z.object({ stream_index: z.number() })) });
    const json = await ffprobeJson(media('audio.mp4'), Listing, ['-show_entries', 'packet=stream_index']);
    const video = json.packets.filter((p) => p.stream_index === 0).length;
    expect(json.packets.length).toBeGreaterThan(video);
    expect(info.frames).toBe(video);
    const err = await ffprobeJson(
      media('audio.mp4'),
      Listing,
      ['-show_entries', 'packet=stream_index'],
      2000,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toMatch(
      /audio\.mp4: is too long to probe \(ffprobe printed more than 2000 bytes\)/,
    );
  });
});
