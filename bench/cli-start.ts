/**
 * What a kfbench command line costs before its work (issue 58 item 6): CPU seconds of
 * `kfbench --version`, `--help`, `hero --help` and `media probe` (a 6 s clip), each against the
 * ceiling measured in the same run — a bare `node -e 0` start (and, for the probe, that plus a bare
 * `ffprobe` of the same file). Median of N runs each, the V8 code cache on (kfbench's default) and
 * off (NODE_DISABLE_COMPILE_CACHE=1), with each child's peak RSS.
 *
 *   npx tsx bench/cli-start.ts [runs=15] [ROOT of another built checkout, to measure it instead]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cpuSeconds, cpuSince } from './cpu.js';

const ROOT = process.argv[3] ?? join(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const CLIP = join(ROOT, 'test', 'fixtures', 'media', 'fade.mp4');
const runs = Number(process.argv[2] ?? 15);

/** CPU seconds (children) and peak RSS (MB) of one run, median over `runs`. */
function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const cpu: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = cpuSeconds();
    const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
    cpu.push(cpuSince(t0));
    rss.push(Number(r.stderr.trim().split('\n').at(-1)) / 1024);
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  return { cpu: med(cpu), rss: med(rss) };
}

const node = measure(process.execPath, ['-e', '0']);
const probe = measure('ffprobe', ['-v', 'error', '-show_streams', '-show_format', CLIP]);
const rows: [string, string[], number][] = [
  ['--version', ['--version'], node.cpu],
  ['--help', ['--help'], node.cpu],
  ['hero --help', ['hero', '--help'], node.cpu],
  ['media probe (6 s clip)', ['media', 'probe', CLIP], node.cpu + probe.cpu],
];
const f = (v: number) => v.toFixed(3);
console.log(
  `Node ${process.versions.node}, ${runs} runs each, median; load ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`,
);
console.log(
  `ceiling: node -e 0 ${f(node.cpu)} CPU-s (${node.rss.toFixed(0)} MB); ffprobe ${f(probe.cpu)} CPU-s`,
);
console.log('| command | CPU-s (code cache) | CPU-s (no cache) | ratio to the ceiling | peak RSS (MB) |');
console.log('|---|---|---|---|---|');
for (const [name, args, ceiling] of rows) {
  const warm = measure(process.execPath, [BIN, ...args]);
  const cold = measure(process.execPath, [BIN, ...args], { NODE_DISABLE_COMPILE_CACHE: '1' });
  console.log(
    `| \`kfbench ${name}\` | ${f(warm.cpu)} | ${f(cold.cpu)} | ${(warm.cpu / ceiling).toFixed(1)} × | ${warm.rss.toFixed(0)} |`,
  );
}
