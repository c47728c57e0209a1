/**
 * bench/track — `hero track rebuild` against the ceiling of the same work in the same run.
 *   npm run build && npx tsx bench/track.ts
 * Sets: the mini HeroFrame set (6 films) and a larger generated one (10 films × 5 min of 480×200
 * 24 fps H.264 with grain, cut into 2–8 s clips by the segment muxer).
 * Ceiling: a bare single-threaded decode of the same clips through one ffmpeg (`-threads 1`,
 * concat demuxer, `-f null`); also shown: one bare ffmpeg per clip. kfbench runs as the CLI in a
 * child process (peak RSS is that process's), with --jobs 1 and --jobs 2.
 * Targets: --jobs 1 ≥ 0.85 of the ceiling; --jobs 2 ≥ 1.7 × --jobs 1; RSS flat in film length.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FilmClips, Movie } from '../src/hero/dataset/schemas.js';
import { createRng } from '../src/stats/rng.js';
import { writeJsonl } from '../src/store/jsonl.js';
import { buildMiniHero } from '../src/synthetic/mini-hero.js';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench', 'out', 'track');
mkdirSync(OUT, { recursive: true });

async function largeSet(): Promise<{ lsmdc: string; data: string }> {
  const base = join(OUT, 'large');
  const lsmdc = join(base, 'lsmdc');
  const data = join(base, 'heroframe');
  if (existsSync(join(base, '.ready'))) return { lsmdc, data };
  rmSync(base, { recursive: true, force: true });
  const movies = [];
  const clipsRows = [];
  for (let f = 0; f < 10; f++) {
    const id = `8${String(f).padStart(3, '0')}_Large_${f}`;
    const rng = createRng(id);
    const cuts: number[] = [];
    let t = 0;
    while (t < 300) {
      t += 2 + Math.round(rng.next() * 6);
      if (t < 300) cuts.push(t);
    }
    mkdirSync(join(lsmdc, id), { recursive: true });
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=s=480x200:r=24:d=300`,
      '-vf',
      `hue=h=${f * 30},noise=alls=10:allf=t,format=yuv420p`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '22',
      '-force_key_frames',
      cuts.join(','),
      '-f',
      'segment',
      '-segment_times',
      cuts.join(','),
      '-reset_timestamps',
      '1',
      join(lsmdc, id, `${id.slice(0, 4)}_%03d.mp4`),
    ]);
    const bounds = [0, ...cuts, 300];
    const clips = bounds.slice(0, -1).map((s, i) => ({
      clip_id: `${id.slice(0, 4)}_${String(i).padStart(3, '0')}`,
      start: s,
      end: bounds[i + 1]!,
      duration_s: bounds[i + 1]! - s,
    }));
    clipsRows.push({ movie_id: id, clips });
    movies.push({ movie_id: id, title: `Large ${f}`, year: 2000 + f });
  }
  await writeJsonl(join(data, 'data', 'movies.jsonl'), Movie, movies);
  await writeJsonl(join(data, 'data', 'clips.jsonl'), FilmClips, clipsRows);
  writeFileSync(join(base, '.ready'), '');
  return { lsmdc, data };
}

function clipFiles(lsmdc: string): string[] {
  return readdirSync(lsmdc)
    .sort()
    .flatMap((m) =>
      readdirSync(join(lsmdc, m))
        .sort()
        .map((c) => join(lsmdc, m, c)),
    );
}

function seconds(cmd: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

function rebuild(lsmdc: string, data: string, jobs: number): { s: number; rss: number } {
  const out = join(OUT, `run-${jobs}`);
  rmSync(out, { recursive: true, force: true });
  const t = performance.now();
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      process.execPath,
      join(ROOT, 'dist', 'cli', 'bin.js'),
      'hero',
      'track',
      'rebuild',
      '--lsmdc',
      lsmdc,
      '--data',
      data,
      '--out',
      out,
      '--jobs',
      String(jobs),
    ],
    { encoding: 'utf8' },
  );
  const s = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(r.stderr);
  const rss = Number(r.stderr.trim().split('\n').pop()) / 1024;
  rmSync(out, { recursive: true, force: true });
  return { s, rss };
}

const mini = await buildMiniHero(join(OUT, 'mini'));
const large = await largeSet();
console.log(
  '| set | clips | bare decode, one ffmpeg -threads 1 (s) | bare decode, one ffmpeg per clip (s) | kfbench --jobs 1 (s) | ratio | peak RSS (MB) | kfbench --jobs 2 (s) | speed-up | peak RSS (MB) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, set] of [
  ['mini (6 films, 32–42 s)', { lsmdc: mini.lsmdc, data: mini.data }],
  ['large (10 films × 5 min)', large],
] as const) {
  const files = clipFiles(set.lsmdc);
  const list = join(OUT, 'list.txt');
  writeFileSync(list, files.map((f) => `file '${f}'`).join('\n'));
  const bare = seconds('ffmpeg', [
    '-v',
    'error',
    '-threads',
    '1',
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
  const t0 = performance.now();
  for (const f of files) seconds('ffmpeg', ['-v', 'error', '-threads', '1', '-i', f, '-f', 'null', '-']);
  const perClip = (performance.now() - t0) / 1000;
  const j1 = rebuild(set.lsmdc, set.data, 1);
  const j2 = rebuild(set.lsmdc, set.data, 2);
  console.log(
    `| ${name} | ${files.length} | ${bare.toFixed(2)} | ${perClip.toFixed(2)} | ${j1.s.toFixed(2)} | ${(bare / j1.s).toFixed(3)} | ${j1.rss.toFixed(0)} | ${j2.s.toFixed(2)} | ${(j1.s / j2.s).toFixed(2)}× | ${j2.rss.toFixed(0)} |`,
  );
}
