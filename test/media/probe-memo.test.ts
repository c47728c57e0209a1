import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMaxDuration } from '../../src/media/duration.js';
import { probe, probeWithin } from '../../src/media/probe.js';
import type { VideoInfo } from '../../src/media/video-info.js';
import { media, tempDir } from '../support/paths.js';

/** A copy under a new inode: `probe` cannot have seen it, so this is one unmemoised ffprobe. */
async function freshProbe(file: string, as = file): Promise<VideoInfo> {
  const copy = join(tempDir('kfbench-probe-fresh-'), file.split('/').at(-1)!);
  copyFileSync(file, copy);
  return { ...(await probe(copy)), file: as };
}

function ffmpeg(args: string[]): void {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

/**
 * An MP4 whose header understates its length tenfold (movie, track and media durations divided
 * by 10): 30 s of packets under a 3 s header, as a broken muxer would write it.
 */
function lyingMp4(dir: string): string {
  const file = join(dir, 'honest.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=30', '-pix_fmt', 'yuv420p', file]);
  const b = readFileSync(file);
  // version-0 boxes: the 32-bit duration sits 16 (mvhd, mdhd) or 20 (tkhd) bytes after the tag
  for (const [tag, at] of [
    ['mvhd', 16],
    ['mdhd', 16],
    ['tkhd', 20],
  ] as const) {
    const i = b.indexOf(tag);
    expect(b[i + 4], tag).toBe(0);
    b.writeUInt32BE(Math.floor(b.readUInt32BE(i + 4 + at) / 10), i + 4 + at);
  }
  const lying = join(dir, 'lying.mp4');
  writeFileSync(lying, b);
  return lying;
}

describe('probe memo and the bounded first probe', () => {
  const videos = ['shots.mp4', 'vfr.mp4', 'rotated.mp4', 'audio.mp4', 'rational.mp4', 'fade.mp4'];

  it.each(videos)(
    '%s: the duration bound’s listing is the whole probe, equal to an unbounded one',
    async (name) => {
      const file = media(name);
      const dir = tempDir('kfbench-probe-memo-');
      const mine = join(dir, name);
      copyFileSync(file, mine);
      const r = await probeWithin(mine, 120);
      expect(r.whole).toBe(true);
      expect(r.stated_s).toBeGreaterThan(0);
      // served from the memo (the bounded listing), equal field for field to ffprobe's full listing
      expect(await probe(mine)).toEqual(await freshProbe(file, mine));
    },
  );

  it('a header that understates the length: refused by its frames past the bound (issue 46 item 12), the listing not kept, the probe reads every packet', async () => {
    const dir = tempDir('kfbench-probe-lying-');
    const lying = lyingMp4(dir);
    const r = await probeWithin(lying, 5);
    expect(r).toMatchObject({ stated_s: 3, whole: false });
    expect(r.held_s).toBeGreaterThan(5);
    await expect(checkMaxDuration(lying, 5)).rejects.toThrow(
      /its frames run past the 5 s limit \(--max-duration\) by their own timestamps \(.* s read, its header says 3\.0 s\): not decoded/,
    );
    await checkMaxDuration(lying, 60); // within a wider limit: decoded
    const info = await probe(lying);
    expect(info.truncated).toBeUndefined(); // all 300 packets, not the first 15 s of them
    expect(info).toEqual(await freshProbe(lying));
  });

  it('a file the probe refuses (repeated timestamps) passes the bound; its fault is the probe’s to report', async () => {
    const dir = tempDir('kfbench-probe-bad-');
    const file = join(dir, 'repeat-ts.mkv');
    copyFileSync(media('repeat-ts.mkv'), file);
    expect((await probeWithin(file, 120)).whole).toBe(false);
    await checkMaxDuration(file, 120);
    await expect(probe(file)).rejects.toThrow(/repeat-ts\.mkv/);
  });

  it('a file longer than the bound is refused from its header; the listing is not kept', async () => {
    const dir = tempDir('kfbench-probe-long-');
    const file = join(dir, 'long.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=30', '-pix_fmt', 'yuv420p', file]);
    expect(await probeWithin(file, 12)).toEqual({ stated_s: 30, whole: false });
    await expect(checkMaxDuration(file, 12)).rejects.toThrow(/lasts 30\.0 s, longer than the 12 s limit/);
    expect((await probe(file)).frames).toBe(300);
  });

  it('a file rewritten in place is probed again; a failed probe is not kept', async () => {
    const dir = tempDir('kfbench-probe-rewrite-');
    const file = join(dir, 'v.mp4');
    copyFileSync(media('shots.mp4'), file);
    const before = await probe(file);
    copyFileSync(media('vfr.mp4'), file);
    // same path, same inode; a new size and change time
    const after = await probe(file);
    expect(after).toEqual(await freshProbe(media('vfr.mp4'), file));
    expect(after.frames).not.toBe(before.frames);
    writeFileSync(file, 'not a video');
    const t = new Date(2020, 0, 1);
    utimesSync(file, t, t);
    await expect(probe(file)).rejects.toThrow(/not a readable video/);
    copyFileSync(media('shots.mp4'), file);
    expect(await probe(file)).toEqual(before);
  });
});
