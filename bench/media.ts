/**
 * bench/media — kfbench's media path against the ceiling of the same work, measured in the same run.
 *
 *   npx tsx bench/media.ts            (generates bench/out/ media on first use)
 *
 * Long file (≥ 5 min, 720×304, 24 fps H.264) and 40 clips (2–8 s), with temporal grain so that
 * they decode at a rate like real footage (≈ 700 frames/s here, as DEPENDENCIES.md measured for film):
 *   (a) bare `ffmpeg -i X -f null -` decode (clips: one process through the concat demuxer — the
 *       cheapest possible read; one process per clip is shown too)
 *   (b) kfbench 1 fps sampling (exact frame numbers) + dHash of every sample
 *   (c) kfbench all frames at 224×224
 *   (d) kfbench shot segmentation
 * Each kfbench stage runs in its own child process so that its peak RSS is its own.
 * Ratios are time(a) / time(stage): 1.0 = as fast as the bare decode.
 * Per image: dHash, PSNR, SSIM on a 1280×720 image, against the Python references (PIL,
 * scikit-image) timed in the same run when Debian's /usr/bin/python3 has them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rateIndices } from '../src/media/frame-plan.js';
import { streamClipFiles, streamFrames } from '../src/media/frames.js';
import { dhash } from '../src/media/hash.js';
import { loadImage } from '../src/media/image.js';
import { probe } from '../src/media/probe.js';
import { probeMany } from '../src/media/probe-many.js';
import { psnr, ssim } from '../src/media/quality.js';
import { detectShots } from '../src/media/shots.js';
import type { VideoInfo } from '../src/media/video-info.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench', 'out');
const PHOTOS = join(ROOT, 'assets', 'photos');
const LONG = join(OUT, 'long-720x304.mp4');
const CLIPS_DIR = join(OUT, 'clips');
const N_CLIPS = 40;

function ff(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], { stdio: 'inherit' });
}

function makeMedia(): void {
  mkdirSync(CLIPS_DIR, { recursive: true });
  if (!existsSync(LONG)) {
    console.error('generating the 5-minute file …');
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=720x304:r=24:d=300',
      '-loop',
      '1',
      '-framerate',
      '24',
      '-t',
      '300',
      '-i',
      join(PHOTOS, 'astronaut.png'),
      '-filter_complex',
      "[1:v]scale=1440:1440,crop=720:304:x='360+300*sin(t/7)':y='500+400*sin(t/11)',format=yuv420p[p];[0:v]format=yuv420p[t];[t][p]blend=all_expr='if(lt(mod(T,20),10),A,B)',noise=alls=10:allf=t,format=yuv420p[out]",
      '-map',
      '[out]',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-g',
      '48',
      LONG,
    ]);
  }
  const sources = [
    'testsrc2',
    'mandelbrot',
    'smptehdbars',
    'life=s=720x304:mold=10:ratio=0.1',
    'cellauto=s=720x304',
    'rgbtestsrc',
  ];
  for (let i = 0; i < N_CLIPS; i++) {
    const path = join(CLIPS_DIR, `clip${String(i).padStart(2, '0')}.mp4`);
    if (existsSync(path)) continue;
    const dur = 2 + ((i * 7919) % 61) / 10; // 2.0–8.0 s, deterministic
    const src = sources[i % sources.length]!;
    const spec = src.includes('=') ? `${src}:r=24` : `${src}=s=720x304:r=24`;
    ff([
      '-f',
      'lavfi',
      '-i',
      spec,
      '-t',
      String(dur),
      '-vf',
      'scale=720:304,noise=alls=10:allf=t,format=yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      path,
    ]);
  }
}

function clipPaths(): string[] {
  return Array.from({ length: N_CLIPS }, (_, i) => join(CLIPS_DIR, `clip${String(i).padStart(2, '0')}.mp4`));
}

function timeCmd(cmd: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

interface StageResult {
  seconds: number;
  frames: number;
  maxrss_mb: number;
  note?: string;
}

/** Child-process stages: each prints one JSON line. */
async function stage(name: string): Promise<StageResult> {
  const t0 = performance.now();
  let frames = 0;
  let note = '';
  switch (name) {
    case 'long-1fps-dhash': {
      const info = await probe(LONG);
      for await (const f of streamFrames(info, { kind: 'rate', rate: 1 })) {
        dhash(f);
        frames++;
      }
      note = `${frames} samples of ${info.frames} frames`;
      frames = info.frames;
      break;
    }
    case 'long-all-224': {
      const info = await probe(LONG);
      for await (const _ of streamFrames(info, { kind: 'all' }, { width: 224, height: 224 })) frames++;
      break;
    }
    case 'long-shots': {
      const info = await probe(LONG);
      const r = await detectShots(info);
      frames = r.frames;
      note = `${r.shots.length} shots`;
      break;
    }
    case 'clips-1fps-dhash': {
      let samples = 0;
      const seen = new Map<number, number>();
      const choose = (info: VideoInfo) => rateIndices({ num: 1, den: 1 }, info.fpsRational, info.frames);
      for await (const f of streamClipFiles(clipPaths(), choose, { width: 720, height: 304 })) {
        dhash(f);
        samples++;
        seen.set(f.clip, f.info.frames);
      }
      frames = [...seen.values()].reduce((a, b) => a + b, 0);
      note = `${samples} samples of ${frames} frames in ${seen.size} clips`;
      break;
    }
    default:
      throw new Error(`unknown stage ${name}`);
  }
  return {
    seconds: (performance.now() - t0) / 1000,
    frames,
    maxrss_mb: process.resourceUsage().maxRSS / 1024,
    note,
  };
}

function runStage(name: string): StageResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'media.ts'), 'stage', name], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`stage ${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as StageResult;
}

function pythonTimings(img: string, img2: string): Record<string, number> | null {
  const code = `
import time, numpy as np
from PIL import Image
from skimage.metrics import peak_signal_noise_ratio as P, structural_similarity as S
a = Image.open(${JSON.stringify(img)}).convert('RGB'); b = Image.open(${JSON.stringify(img2)}).convert('RGB')
la = np.asarray(a.convert('L')); lb = np.asarray(b.convert('L')); fa = la.astype(np.float64); fb = lb.astype(np.float64)
def dh():
    s = np.asarray(a.convert('L').resize((9, 8), Image.LANCZOS)); return s[:, 1:] > s[:, :-1]
out = {}
for k, f in [('dhash', dh), ('psnr', lambda: P(la, lb, data_range=255)), ('ssim', lambda: S(fa, fb, gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255))]:
    f(); t = time.perf_counter()
    for _ in range(10): f()
    out[k] = (time.perf_counter() - t) / 10 * 1000
import json; print(json.dumps(out))`;
  const r = spawnSync('/usr/bin/python3', ['-c', code], { encoding: 'utf8' });
  return r.status === 0 ? (JSON.parse(r.stdout) as Record<string, number>) : null;
}

async function perImage(): Promise<{ op: string; kfbench_ms: number; python_ms: number | null }[]> {
  const a = join(OUT, 'img720.png');
  const b = join(OUT, 'img720-noisy.png');
  if (!existsSync(a)) ff(['-i', join(PHOTOS, 'coffee.png'), '-vf', 'scale=1280:720', '-frames:v', '1', a]);
  if (!existsSync(b)) ff(['-i', a, '-vf', 'noise=alls=12:allf=u:all_seed=3', '-frames:v', '1', b]);
  const A = await loadImage(a);
  const B = await loadImage(b);
  const time = (f: () => unknown) => {
    f();
    const t = performance.now();
    for (let i = 0; i < 10; i++) f();
    return (performance.now() - t) / 10;
  };
  const js = { dhash: time(() => dhash(A)), psnr: time(() => psnr(A, B)), ssim: time(() => ssim(A, B)) };
  const py = pythonTimings(a, b);
  return (['dhash', 'psnr', 'ssim'] as const).map((op) => ({
    op,
    kfbench_ms: js[op],
    python_ms: py?.[op] ?? null,
  }));
}

async function main(): Promise<void> {
  if (process.argv[2] === 'stage') {
    console.log(JSON.stringify(await stage(process.argv[3]!)));
    return;
  }
  makeMedia();
  const longInfo = await probe(LONG);
  const clips = clipPaths();
  const list = join(OUT, 'clips.txt');
  writeFileSync(list, clips.map((c) => `file '${c}'`).join('\n'));
  const clipFrames = (await probeMany(clips)).reduce((a, i) => a + i.frames, 0);

  const rows: { what: string; fps: number; ratio: number | null; rss: number | null; note: string }[] = [];
  const bareLong = timeCmd('ffmpeg', ['-v', 'error', '-i', LONG, '-f', 'null', '-']);
  rows.push({
    what: 'long: (a) bare ffmpeg decode',
    fps: longInfo.frames / bareLong,
    ratio: 1,
    rss: null,
    note: `${longInfo.frames} frames, ${longInfo.duration_s.toFixed(0)} s`,
  });
  for (const [name, label] of [
    ['long-1fps-dhash', 'long: (b) kfbench 1 fps + dHash'],
    ['long-all-224', 'long: (c) kfbench all frames 224×224'],
    ['long-shots', 'long: (d) kfbench shot segmentation'],
  ] as const) {
    const r = runStage(name);
    rows.push({
      what: label,
      fps: r.frames / r.seconds,
      ratio: bareLong / r.seconds,
      rss: r.maxrss_mb,
      note: r.note ?? '',
    });
  }
  const bareClips = timeCmd('ffmpeg', [
    '-v',
    'error',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-f',
    'null',
    '-',
  ]);
  rows.push({
    what: 'clips: (a) bare decode, concat demuxer',
    fps: clipFrames / bareClips,
    ratio: 1,
    rss: null,
    note: `${clipFrames} frames in ${clips.length} clips`,
  });
  const t = performance.now();
  for (const c of clips) timeCmd('ffmpeg', ['-v', 'error', '-i', c, '-f', 'null', '-']);
  const perClip = (performance.now() - t) / 1000;
  rows.push({
    what: 'clips: bare decode, one process per clip',
    fps: clipFrames / perClip,
    ratio: bareClips / perClip,
    rss: null,
    note: '',
  });
  const rc = runStage('clips-1fps-dhash');
  rows.push({
    what: 'clips: (b) kfbench 1 fps + dHash',
    fps: rc.frames / rc.seconds,
    ratio: bareClips / rc.seconds,
    rss: rc.maxrss_mb,
    note: rc.note ?? '',
  });

  console.log('\n| stage | frames/s | ratio to (a) | peak RSS (MB) | note |\n|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.what} | ${r.fps.toFixed(0)} | ${r.ratio === null ? '' : r.ratio.toFixed(2)} | ${r.rss === null ? '—' : r.rss.toFixed(0)} | ${r.note} |`,
    );
  console.log('\n| per 1280×720 image | kfbench (ms) | Python reference (ms) |\n|---|---|---|');
  for (const r of await perImage())
    console.log(
      `| ${r.op} | ${r.kfbench_ms.toFixed(2)} | ${r.python_ms === null ? 'n/a' : r.python_ms.toFixed(2)} |`,
    );
  console.log(`\nnode ${process.version}, ${execFileSync('ffmpeg', ['-version']).toString().split('\n')[0]}`);
}

await main();
