/**
 * bench/frame-reading — node's own CPU for reading a decoder's raw frames: `ffmpegRawFrames`
 * (src/media/ffmpeg.ts: ffmpeg's stdout a Unix socket read into one reused buffer,
 * socket-frames.ts) against the same ffmpeg command read from a pipe (a new buffer per read, as
 * kfbench read it before), alternating, on bench/compass's 10 s 1280×720 video scaled to the
 * scan's 512×288 planar frames (221 kB each). Prints node's CPU ms a decode (user + system, this
 * process only, garbage collection included; ffmpeg's own is the same command either way), the
 * median of the rounds. The frames are kept a while, as a scan keeps some (the last twelve).
 *   npx tsx bench/compass.ts (once, makes the video), then npx tsx bench/frame-reading.ts [--rounds 5]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ffmpegBinary } from '../src/media/ffmpeg-processes.js';
import { ffmpegRawFrames } from '../src/media/ffmpeg-raw.js';
import { FrameCutter } from '../src/media/frame-cutter.js';

const VIDEO = join(resolve(import.meta.dirname, '..'), 'bench', 'out', 'compass', 'ten-seconds-720p.mp4');
if (!existsSync(VIDEO)) {
  console.error(`${VIDEO} is missing: run npx tsx bench/compass.ts once first`);
  process.exit(2);
}
const i = process.argv.indexOf('--rounds');
const ROUNDS = i > 0 ? Number(process.argv[i + 1]) : 5;
const SIZE = (512 * 288 * 3) / 2;
const ARGS = [
  ...[
    '-threads',
    '1',
    '-i',
    VIDEO,
    '-vf',
    'scale=w=512:h=288:flags=area:out_range=tv,setsar=1,format=yuv420p',
  ],
  ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'],
];

async function viaSocket(): Promise<number> {
  const keep: Buffer[] = [];
  let n = 0;
  for await (const f of ffmpegRawFrames({ args: ARGS, frameBytes: SIZE, file: VIDEO })) {
    n++;
    keep.push(f);
    if (keep.length > 12) keep.shift();
  }
  return n;
}

async function viaPipe(): Promise<number> {
  const child = spawn(ffmpegBinary(), ['-hide_banner', '-nostdin', '-v', 'error', ...ARGS], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => child.on('close', r));
  const cut = new FrameCutter(SIZE);
  const keep: Buffer[] = [];
  let n = 0;
  for await (const chunk of child.stdout as AsyncIterable<Buffer>)
    for (const f of cut.push(chunk)) {
      n++;
      keep.push(f);
      if (keep.length > 12) keep.shift();
    }
  const code = await exited;
  if (code !== 0 || cut.pendingBytes !== 0)
    throw new Error(`ffmpeg exited ${code}, ${cut.pendingBytes} bytes left over`);
  return n;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const cpu = { socket: [] as number[], pipe: [] as number[] };
let frames = 0;
for (let r = -1; r < ROUNDS; r++) {
  for (const [name, read] of [
    ['pipe', viaPipe],
    ['socket', viaSocket],
  ] as const) {
    const c0 = process.cpuUsage();
    frames = await read();
    const c = process.cpuUsage(c0);
    // round −1 warms both paths up (JIT)
    if (r < 0) continue;
    cpu[name].push((c.user + c.system) / 1000);
  }
}
console.log(`${frames} frames of ${SIZE} bytes a decode, ${ROUNDS} rounds (medians)`);
console.log('| read through | node CPU ms a decode |\n|---|---:|');
for (const name of ['pipe', 'socket'] as const) console.log(`| ${name} | ${median(cpu[name]).toFixed(1)} |`);
console.log(`\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
