/**
 * bench/scan-identity — scans a fixed set of videos under several option sets and writes each
 * scan's JSON to a folder, one file per video and option set, so that `diff -r` of the folders two
 * trees write proves their scans byte-identical (a change meant to cost less CPU, not to change a
 * number). The videos:
 *   - the mini Compass set (`kfbench compass mini --out DIR`, its cases' keyframes), every model's
 *     `minimal` videos under the default options and two models' under the others;
 *   - the media fixture videos (test/fixtures/media, with keyframes cut from each video itself;
 *     the ones that cannot be scanned record their error);
 *   - four generated videos (1280×720 BT.709 with grain, 60 fps, 4:4:4, 334×188), made once;
 *   - bench/compass's own 10 s 720p video, when it exists (`bench/out/compass`).
 * The option sets: default, `fpsCap` 10, `pixelSize` 0, 256 and 200, `matchSize` 128,
 * stage 1 alone (`refine: false`), no early start.
 * Generated material (keyframes cut from the fixtures, the generated videos) goes to `--material`
 * and is reused, so that two trees scan the same files; `--bench` names bench/compass's folder (give
 * both trees the same one).
 *   npx tsx bench/scan-identity.ts --out DIR [--compass DIR] [--material DIR] [--bench DIR]
 *     [--only mini|media|gen|bench] [--sets default,fps10,…] [--both-modes] [--keep]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ScanOptions } from '../src/compass/scan/options.js';
import { scanVideo } from '../src/compass/scan/scan.js';
import { createBuiltinEmbedder } from '../src/embed/builtin.js';
import { ffmpegRun } from '../src/media/ffmpeg.js';
import { cpuSeconds, cpuSince } from './cpu.js';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string, d?: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : d;
};
const out = arg('--out');
if (!out) throw new Error('usage: scan-identity.ts --out DIR [--compass DIR] [--material DIR]');
const compass = arg('--compass', '/tmp/compass-mini-scan')!;
const material = resolve(arg('--material', '/tmp/scan-identity-material')!);
const only = arg('--only');
/** Only these option sets (comma-separated names). */
const onlySets = arg('--sets')?.split(',');
mkdirSync(out, { recursive: true });
mkdirSync(material, { recursive: true });

const SETS: Record<string, Partial<ScanOptions>> = {
  default: {},
  fps10: { fpsCap: 10 },
  pixel0: { pixelSize: 0 },
  pixel256: { pixelSize: 256 },
  // an odd frame height (113 at 1280×720) in 4:2:0, with the working copy below it
  pixel200: { pixelSize: 200 },
  match128: { matchSize: 128 },
  stage1: { refine: false },
  noearly: { earlyStart: false },
};
/**
 * Mini Compass models scanned under every option set (the rest under the default only); the
 * `minimal` prompt mode only (the generated videos of both modes are alike), unless `--both-modes`.
 */
const MINI_ALL_SETS = new Set(['faithful', 'frozen']);
const bothModes = process.argv.includes('--both-modes');
/** Skip the scans whose file exists (finish an interrupted run). */
const keep = process.argv.includes('--keep');

interface Job {
  name: string;
  video: string;
  keyframes: { kf_id: string; image: string }[];
  sets: string[];
}
const jobs: Job[] = [];

// the mini Compass set
if ((!only || only === 'mini') && existsSync(join(compass, 'cases.jsonl'))) {
  const cases = readFileSync(join(compass, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { case_id: string; keyframes: { kf_id: string; image: string }[] });
  const byCase = new Map(cases.map((c) => [c.case_id, c]));
  for (const model of readdirSync(join(compass, 'videos')).sort()) {
    for (const file of readdirSync(join(compass, 'videos', model)).sort()) {
      const c = byCase.get(file.split('__')[0]!);
      if (!c || (!bothModes && !file.endsWith('__minimal.mp4'))) continue;
      jobs.push({
        name: `mini/${model}/${file}`,
        video: join(compass, 'videos', model, file),
        keyframes: c.keyframes.map((k) => ({ kf_id: k.kf_id, image: resolve(compass, k.image) })),
        sets: MINI_ALL_SETS.has(model) ? Object.keys(SETS) : ['default'],
      });
    }
  }
}

/** Keyframes cut from a video itself (frames `at`, as PNG), made once in the material folder. */
async function cut(video: string, tag: string, at: number[]) {
  const kfs: { kf_id: string; image: string }[] = [];
  for (const n of at) {
    const image = join(material, 'keyframes', tag, `f${n}.png`);
    if (!existsSync(image)) {
      mkdirSync(dirname(image), { recursive: true });
      try {
        await ffmpegRun(['-y', '-i', video, '-vf', `select=eq(n\\,${n})`, '-frames:v', '1', image], video);
      } catch {
        continue;
      }
      if (!existsSync(image)) continue;
    }
    kfs.push({ kf_id: `f${n}`, image });
  }
  return kfs;
}

// the media fixtures
if (!only || only === 'media') {
  const dirs = [join(ROOT, 'test/fixtures/media'), join(ROOT, 'test/fixtures/media/staged')];
  const fallback = await cut(join(ROOT, 'test/fixtures/media/shots.mp4'), 'shots.mp4', [5, 40, 120]);
  for (const d of dirs) {
    for (const file of readdirSync(d).sort()) {
      if (!/\.(mp4|mkv)$/.test(file)) continue;
      const video = join(d, file);
      const tag = `${basename(d)}-${file}`;
      let kfs = await cut(video, tag, [3, 20, 45]);
      if (kfs.length === 0) kfs = fallback; // not decodable: scanned against another video's
      jobs.push({ name: `media/${tag}`, video, keyframes: kfs, sets: Object.keys(SETS) });
    }
  }
}

// generated videos: formats the fixtures lack
if (!only || only === 'gen') {
  const gen: [string, string[]][] = [
    [
      'bt709-720p.mp4',
      [
        ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=24:duration=3,noise=alls=8:allf=t'],
        ...[
          '-pix_fmt',
          'yuv420p',
          '-colorspace',
          'bt709',
          '-color_primaries',
          'bt709',
          '-color_trc',
          'bt709',
        ],
      ],
    ],
    ['fps60.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=480x270:rate=60:duration=3', '-pix_fmt', 'yuv420p']],
    ['yuv444.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=24:duration=3', '-pix_fmt', 'yuv444p']],
    [
      'odd-334x188.mp4',
      ['-f', 'lavfi', '-i', 'testsrc2=size=334x188:rate=25:duration=3', '-pix_fmt', 'yuv420p'],
    ],
  ];
  for (const [file, args] of gen) {
    const video = join(material, 'videos', file);
    if (!existsSync(video)) {
      mkdirSync(dirname(video), { recursive: true });
      await ffmpegRun(['-y', ...args, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', video], video);
    }
    const kfs = await cut(video, file, [5, 30, 60]);
    jobs.push({ name: `gen/${file}`, video, keyframes: kfs, sets: Object.keys(SETS) });
  }
}

// bench/compass's video and keyframes
const benchDir = resolve(arg('--bench', join(ROOT, 'bench/out/compass'))!);
if ((!only || only === 'bench') && existsSync(join(benchDir, 'ten-seconds-720p.mp4'))) {
  const keyframes = Array.from({ length: 12 }, (_, i) => ({
    kf_id: `kf${i + 1}`,
    image: join(benchDir, `kf${i + 1}.png`),
  }));
  jobs.push({
    name: 'bench/ten-seconds-720p.mp4',
    video: join(benchDir, 'ten-seconds-720p.mp4'),
    keyframes,
    sets: ['default', 'fps10', 'pixel0', 'stage1'],
  });
}

const embedder = createBuiltinEmbedder();
const c0 = cpuSeconds();
let n = 0;
for (const job of jobs) {
  for (const set of job.sets) {
    if (onlySets && !onlySets.includes(set)) continue;
    const file = join(out, set, `${job.name.replaceAll('/', '__')}.json`);
    if (keep && existsSync(file)) continue;
    let text: string;
    try {
      text = JSON.stringify(
        await scanVideo({ video: job.video, keyframes: job.keyframes }, embedder, SETS[set]),
      );
    } catch (e) {
      text = JSON.stringify({ error: (e as Error).message });
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${text.replaceAll(ROOT, '<root>')}\n`);
    n++;
  }
}
await embedder.close();
console.log(`${n} scans of ${jobs.length} videos in ${out} (${cpuSince(c0).toFixed(1)} CPU-s)`);
