/** What the viewer makes from videos: playability, cached WebM proxies, single frames — real ffmpeg. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ffmpegRun } from '../../src/media/ffmpeg.js';
import { loadImage } from '../../src/media/image.js';
import { playability } from '../../src/media/playback.js';
import { probe } from '../../src/media/probe.js';
import { MediaCache } from '../../src/web/media.js';
import { media, tempDir } from '../support/paths.js';

const dir = tempDir('kfbench-playback-');
const h264 = media('shots.mp4');
const mpeg4 = join(dir, 'mpeg4.mp4');

beforeAll(async () => {
  await ffmpegRun(['-y', '-i', h264, '-c:v', 'mpeg4', '-q:v', '4', '-an', mpeg4], mpeg4);
});

describe('viewer media', () => {
  it('knows what Chromium plays: H.264 4:2:0 yes, MPEG-4 part 2 no', async () => {
    expect(await playability(h264)).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', playable: true });
    expect(await playability(mpeg4)).toMatchObject({ codec: 'mpeg4', playable: false });
  });

  it('auto proxies only what the browser cannot play; never and always force it', async () => {
    const auto = new MediaCache(join(dir, 'c1'), 'auto');
    expect((await auto.needsProxy(h264)).proxy).toBe(false);
    expect((await auto.needsProxy(mpeg4)).proxy).toBe(true);
    expect((await new MediaCache(join(dir, 'c2'), 'never').needsProxy(mpeg4)).proxy).toBe(false);
    expect((await new MediaCache(join(dir, 'c3'), 'always').needsProxy(h264)).proxy).toBe(true);
  });

  it('makes a VP8 WebM proxy once, with the same frames and duration, then serves it from the cache', async () => {
    const cache = new MediaCache(join(dir, 'c4'), 'auto');
    const d = { kind: 'proxy' as const, video: mpeg4, hasAudio: false };
    const [a, b] = (await Promise.all([cache.file(d), cache.file(d)])) as [string, string];
    expect(a).toBe(b);
    expect(a).toMatch(/[0-9a-f]{24}\.webm$/);
    const src = await probe(mpeg4);
    const out = await probe(a);
    expect((await playability(a)).codec).toBe('vp8');
    expect(out.frames).toBe(src.frames);
    expect(out.duration_s).toBeCloseTo(src.duration_s, 1);
    const mtime = statSync(a).mtimeMs;
    expect(await cache.file(d)).toBe(a);
    expect(statSync(a).mtimeMs).toBe(mtime);
  });

  it('extracts the frame at a time as a JPEG of the asked width, one file per (video, time, width)', async () => {
    const cache = new MediaCache(join(dir, 'c5'), 'auto');
    const f1 = (await cache.file({ kind: 'frame', video: h264, t: 0.5, width: 160 }))!;
    const f2 = (await cache.file({ kind: 'frame', video: h264, t: 2.5, width: 160 }))!;
    expect(f1).not.toBe(f2);
    const img = await loadImage(f1);
    expect(img.width).toBe(160);
    expect(cache.name({ kind: 'frame', video: h264, t: 0.5, width: 160 })).toBe(f1.split('/').pop());
  });
});
