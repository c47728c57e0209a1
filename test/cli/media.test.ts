import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadImage } from '../../src/media/image.js';
import { runCli } from '../support/cli.js';
import { media, tempDir } from '../support/paths.js';
import { mediaReferences } from '../support/references.js';

describe('kfbench media (the JSON shapes other tools rely on)', () => {
  it('probe --json', async () => {
    const r = await runCli(['media', 'probe', media('audio.mp4'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).sort()).toEqual([
      'duration_s',
      'fps',
      'frames',
      'has_audio',
      'height',
      'mean_fps',
      'rotation',
      'vfr',
      'width',
    ]);
    expect(j).toMatchObject({ fps: 25, frames: 50, width: 320, height: 180, has_audio: true, vfr: false });
  });

  it('probe --json reports a variable rate with its real mean, and the displayed size of a turned clip', async () => {
    const v = JSON.parse((await runCli(['media', 'probe', media('vfr.mp4'), '--json'])).stdout);
    expect(v).toMatchObject({ vfr: true, frames: 212, rotation: 0 });
    expect(v.mean_fps).toBeCloseTo(212 / v.duration_s, 6);
    expect(v.mean_fps).toBeLessThan(21);
    const r = JSON.parse((await runCli(['media', 'probe', media('rotated.mp4'), '--json'])).stdout);
    expect(r).toMatchObject({ width: 136, height: 320, rotation: 270, vfr: false });
  });

  it('probe: repeated timestamps are bad input naming the file and the frame (exit 3)', async () => {
    const r = await runCli(['media', 'probe', media('repeat-ts.mkv')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/repeat-ts\.mkv: timestamps repeat at frame 10 /);
  });

  it('dhash --json', async () => {
    const refs = mediaReferences();
    const r = await runCli(['media', 'dhash', media('base.png'), media('coffee.png'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { path: media('base.png'), dhash: refs.dhash['base.png'] },
      { path: media('coffee.png'), dhash: refs.dhash['coffee.png'] },
    ]);
  });

  it('compare --json, including identical images', async () => {
    const r = await runCli(['media', 'compare', media('base.png'), media('blur.png'), '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.identical).toBe(false);
    expect(j.psnr_db).toBeCloseTo(30.2146, 3);
    const same = JSON.parse(
      (await runCli(['media', 'compare', media('base.png'), media('base.png'), '--json'])).stdout,
    );
    expect(same).toEqual({ psnr_db: null, identical: true, ssim: 1 });
  });

  it('shots --json', async () => {
    const r = await runCli(['media', 'shots', media('fade.mp4'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.transitions.map((t: { kind: string }) => t.kind)).toEqual(['gradual', 'cut']);
    expect(j.transitions[1]).toEqual({ kind: 'cut', start_frame: 96, end_frame: 96 });
    expect(Object.keys(j.shots[0]).sort()).toEqual(['end_frame', 'end_s', 'start_frame', 'start_s']);
  });

  it('sample --fps and --at write JPEGs named by frame index', async () => {
    const out = tempDir();
    const r = await runCli(['media', 'sample', media('shots.mp4'), '--fps', '1', '--out', out]);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))).toEqual(
      [12, 36, 60, 84, 108, 132, 156, 180, 204, 228, 252].map((n) => `${n}.jpg`),
    );
    const at = tempDir();
    const r2 = await runCli([
      'media',
      'sample',
      media('shots.mp4'),
      '--at',
      '0,2.01,10.99',
      '--out',
      at,
      '--width',
      '160',
      '--json',
    ]);
    expect(JSON.parse(r2.stdout).map((f: { frame: number }) => f.frame)).toEqual([0, 48, 263]);
    expect(await loadImage(join(at, '48.jpg'))).toMatchObject({ width: 160, height: 90 });
  });

  it('grid writes one image', async () => {
    const out = join(tempDir(), 'g.jpg');
    const r = await runCli([
      'media',
      'grid',
      media('base.png'),
      media('coffee.png'),
      media('mandel.png'),
      '--out',
      out,
      '--labels',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    const j = JSON.parse(r.stdout);
    const img = await loadImage(out);
    expect([img.width, img.height]).toEqual([j.width, j.height]);
  });
});

describe('kfbench bad input and usage', () => {
  it.each([
    [['media', 'probe', media('not-a-video.mp4')], 3, /not-a-video\.mp4: not a readable video/],
    [['media', 'probe', media('nope.mp4')], 3, /nope\.mp4: no such file/],
    [['media', 'probe', media('zero-frames.mp4')], 3, /zero-frames\.mp4: has no video stream/],
    [
      ['media', 'shots', media('truncated-data.mp4')],
      3,
      /truncated-data\.mp4: video is damaged or truncated/,
    ],
    [['media', 'dhash', media('truncated.jpg')], 3, /truncated\.jpg: not a readable image/],
    [
      ['media', 'compare', media('base.png'), media('not-an-image.jpg')],
      3,
      /not-an-image\.jpg: not a readable image/,
    ],
    [
      ['media', 'sample', media('shots.mp4'), '--at', '12', '--out', '/tmp/kfb-never'],
      3,
      /shots\.mp4: time 12 s is past the last frame/,
    ],
    [['media', 'probe'], 2, /missing required argument/],
    [['media', 'sample', media('shots.mp4'), '--out', '/tmp/x'], 2, /exactly one of --fps/],
    [['media', 'sample', media('shots.mp4'), '--fps', 'abc', '--out', '/tmp/x'], 2, /--fps got "abc"/],
    [['nonsense'], 2, /unknown command/],
  ])('%j → exit %i with one line', async (args, code, msg) => {
    const r = await runCli(args as string[]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('a failed sample leaves nothing half-written', async () => {
    const out = tempDir();
    const r = await runCli(['media', 'sample', media('truncated-data.mp4'), '--fps', '4', '--out', out]);
    expect(r.code).toBe(3);
    // frames written before the damage are complete JPEGs; no temp files remain
    for (const f of readdirSync(out)) {
      expect(f).toMatch(/^\d+\.jpg$/);
      await loadImage(join(out, f));
    }
  });
});
