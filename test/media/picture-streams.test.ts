/**
 * Pictures are not videos (issue 31): a file whose first video stream is a picture (a PNG stream
 * ahead of the film in a Matroska file renamed .mp4)
 * is decoded from the stream `probe` describes — the film, frame for frame; a PNG renamed .mp4
 * has no video stream; a one-frame video is a failed video for Compass; and `compass validate`
 * decodes every keyframe image, refusing one that is not an image. Real files made with ffmpeg.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { streamFrames } from '../../src/media/frames.js';
import { probe } from '../../src/media/probe.js';
import type { VideoInfo } from '../../src/media/video-info.js';
import { runCli } from '../support/cli.js';
import { oneCaseFile, sharedMiniCompass } from '../support/mini-compass.js';
import { media, ROOT, tempDir } from '../support/paths.js';

const dir = tempDir('kfbench-pictures-');
const picture = join(ROOT, 'assets', 'photos', 'chelsea.png');
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

async function grayMeans(info: VideoInfo): Promise<number[]> {
  const out: number[] = [];
  for await (const f of streamFrames(info, { kind: 'all' }, { pixels: 'gray' })) {
    let s = 0;
    for (const v of f.data) s += v;
    out.push(Math.round(s / f.data.length));
  }
  return out;
}

describe('the stream probe describes is the stream decoded', () => {
  let film: number[];
  beforeAll(async () => {
    film = await grayMeans(await probe(media('shots.mp4')));
  });

  it('a Matroska file renamed .mp4 with a PNG stream first: the film is decoded', async () => {
    const file = join(dir, 'png-first.mp4');
    ffmpeg(
      '-i',
      picture,
      '-i',
      media('shots.mp4'),
      '-map',
      '0',
      '-map',
      '1:v',
      '-c',
      'copy',
      '-f',
      'matroska',
      file,
    );
    const info = await probe(file);
    expect(info.stream).toBe(1);
    expect(info.frames).toBe(film.length);
    expect(await grayMeans(info)).toEqual(film);
  });

  it('a PNG renamed .mp4 has no video stream: bad input naming it', async () => {
    const file = join(dir, 'picture.mp4');
    copyFileSync(picture, file);
    const e = await probe(file).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BadInputError);
    expect((e as Error).message).toBe(`${file}: has no video stream, only a still picture (png)`);
  });
});

describe('Compass: pictures are not videos', () => {
  it('a one-frame video is a failed video; compass validate refuses a keyframe that is not an image', async () => {
    const compass = await sharedMiniCompass();
    const cases = oneCaseFile(compass, 'ot-03', dir);
    const one = join(dir, 'one-frame.mp4');
    ffmpeg('-i', media('shots.mp4'), '-frames:v', '1', '-an', one);
    const r = await runCli(['compass', 'response', '--cases', cases, '--case-id', 'ot-03', '--video', one]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`${one}: has 1 frame: a still picture, not a video`);

    const good = await runCli(['compass', 'validate', '--cases', cases]);
    expect(good.code, good.stderr).toBe(0);
    const bad = join(dir, 'bad-cases.jsonl');
    const c = JSON.parse(readFileSync(cases, 'utf8'));
    c.keyframes[1].image = bad; // the cases file itself
    writeFileSync(bad, `${JSON.stringify(c)}\n`);
    const v = await runCli(['compass', 'validate', '--cases', bad]);
    expect(v.code, v.stderr).toBe(3);
    expect(v.stderr).toContain(
      `${bad}:1: case ot-03: keyframe ${c.keyframes[1].kf_id}: image ${bad} is not a readable image`,
    );
  });
});
