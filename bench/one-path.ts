/**
 * bench/one-path — what the one path from pixels to the embedder (issue 56) costs ffmpeg: the scan's
 * decoder graph (src/media/pairs.ts: each frame converted to RGB as a player shows it, then scaled
 * to the 512 px pixel copy and the 64×64 embedder copy) against the graph it replaced (scaled in
 * planar YUV, converted to RGB in kfbench) and against the ceiling measured in the same run, a bare
 * `ffmpeg -f null` decode. One decoder thread each, on a 10 s 1280×720 24 fps test card made here;
 * prints CPU seconds (user + system, the median of the rounds), the ratio to the bare decode and
 * the peak RSS, from /usr/bin/time.
 *   npx tsx bench/one-path.ts [--rounds 3]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainSize, rgbChain, scaledChain, smallChain } from '../src/media/frame-chains.js';

const i = process.argv.indexOf('--rounds');
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 3;
const dir = mkdtempSync(join(tmpdir(), 'kfbench-one-path-'));
const VIDEO = join(dir, 'ten-seconds-720p.mp4');
const make = spawnSync('ffmpeg', [
  ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=24:d=10'],
  ...['-c:v', 'libx264', '-crf', '18', '-pix_fmt', 'yuv420p', VIDEO],
]);
if (make.status !== 0) throw new Error(`ffmpeg could not make the video: ${make.stderr}`);

const full = { width: 512, height: 288 };
const small = { width: 64, height: 64 };
const pair = (graph: string, fmt: string) => [
  ...['-threads', '1', '-filter_complex_threads', '1', '-i', VIDEO, '-filter_complex', graph],
  ...['-map', '[a]', '-f', 'rawvideo', '-pix_fmt', fmt, '-y', '/dev/null'],
  ...['-map', '[b]', '-f', 'rawvideo', '-pix_fmt', fmt, '-y', '/dev/null'],
];
const CASES: [string, string[]][] = [
  ['bare decode (ffmpeg -f null)', ['-threads', '1', '-i', VIDEO, '-f', 'null', '-']],
  [
    'one path: RGB, then scaled (now)',
    pair(
      `[0:v]${rgbChain()},${scaledChain(chainSize(full))},split=2[a][s];[s]${smallChain(small)}[b]`,
      'rgb24',
    ),
  ],
  [
    'scaled in YUV (before issue 56)',
    pair(
      '[0:v]scale=w=512:h=288:flags=area:out_range=tv,setsar=1,format=yuv420p,split=2[a][s];[s]scale=64:64:flags=area[b]',
      'yuv420p',
    ),
  ],
];

function timed(args: string[]): { cpu: number; rss_mb: number } {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', 'ffmpeg', '-v', 'error', ...args], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  const [u, s, m] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { cpu: u! + s!, rss_mb: m! / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results = CASES.map(([name, args]) => {
  const runs = Array.from({ length: ROUNDS }, () => timed(args));
  return { name, cpu: median(runs.map((r) => r.cpu)), rss: Math.max(...runs.map((r) => r.rss_mb)) };
});
const bare = results[0]!.cpu;
for (const r of results)
  console.log(
    `${r.name.padEnd(36)} ${r.cpu.toFixed(2)} CPU-s  ×${(r.cpu / bare).toFixed(2)} of the bare decode  peak RSS ${r.rss.toFixed(0)} MB`,
  );
rmSync(dir, { recursive: true, force: true });
