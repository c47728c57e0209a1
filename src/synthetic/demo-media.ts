/**
 * The media part of the demo: a small generated video (procedural sources and shipped
 * photographs, with hard cuts and a crossfade), then probe, shots, 1 fps samples, dHash, grid.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ffmpegRun } from '../media/ffmpeg.js';
import { gridFiles } from '../media/grid.js';
import { dhashFile } from '../media/hash.js';
import { probe } from '../media/probe.js';
import { sampleToDir } from '../media/sample.js';
import type { ShotResult } from '../media/shot-options.js';
import { detectShots } from '../media/shots.js';
import type { VideoInfo } from '../media/video-info.js';
import { photoPath } from './assets.js';

const NORM = 'settb=AVTB,fps=24,format=yuv420p,setsar=1';

/** 8 s, 320×180, 24 fps: testsrc2 | cut | astronaut pan | cut | coffee ⟶(1 s crossfade)⟶ mandelbrot. */
async function makeDemoVideo(path: string): Promise<void> {
  const tmp = `${path}.partial.mp4`;
  await ffmpegRun(
    [
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=320x180:r=24:d=2',
      '-loop',
      '1',
      '-framerate',
      '24',
      '-t',
      '2',
      '-i',
      photoPath('astronaut.png'),
      '-loop',
      '1',
      '-framerate',
      '24',
      '-t',
      '3',
      '-i',
      photoPath('coffee.png'),
      '-f',
      'lavfi',
      '-i',
      'mandelbrot=s=320x180:r=24,trim=duration=2',
      '-filter_complex',
      [
        `[0:v]${NORM}[a]`,
        `[1:v]scale=640:640,crop=320:180:x='t*100':y=150,${NORM}[b]`,
        `[2:v]scale=480:320,crop=320:180:x='t*20':y=60,${NORM}[c]`,
        `[3:v]${NORM}[d]`,
        `[c][d]xfade=transition=fade:duration=1:offset=2,${NORM}[cd]`,
        `[a][b][cd]concat=n=3:v=1:a=0,${NORM}[out]`,
      ].join(';'),
      '-map',
      '[out]',
      '-c:v',
      'libx264',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-threads',
      '1',
      tmp,
    ],
    path,
  );
  await rename(tmp, path);
}

export interface MediaDemoResult {
  video: string;
  info: VideoInfo;
  shots: ShotResult;
  samples: { frame: number; time_s: number; path: string; dhash: string }[];
  grid: string;
}

export async function runMediaDemo(outDir: string): Promise<MediaDemoResult> {
  await mkdir(outDir, { recursive: true });
  const video = join(outDir, 'demo.mp4');
  if (!existsSync(video)) await makeDemoVideo(video);
  const info = await probe(video);
  const shots = await detectShots(info);
  const framesDir = join(outDir, 'frames');
  await rm(framesDir, { recursive: true, force: true });
  const files = await sampleToDir(video, { kind: 'rate', rate: 1 }, framesDir);
  const samples = [];
  for (const f of files) samples.push({ ...f, dhash: await dhashFile(f.path) });
  const grid = join(outDir, 'grid.jpg');
  await gridFiles(
    files.map((f) => f.path),
    grid,
    { labels: true },
  );
  return { video, info, shots, samples, grid };
}
