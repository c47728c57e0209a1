/**
 * bench/compass-jobs — `compass score --jobs N`: the same 8 mini videos (model `faithful`, 8 cases,
 * minimal prompts; no scan cache) scanned one at a time and N at a time (worker threads), and — the
 * ceiling for the same work — split into N independent OS processes started together, each
 * scanning its share one at a time; all in the same run. Prints the wall times (medians), the
 * speed-up (target ≥ 1.7× for --jobs 2), the ratio ceiling / --jobs N, the CPU seconds spent (this
 * process's threads, and the ffmpeg/ffprobe processes it waited for) and so the cores each way
 * keeps busy, and the peak RSS.
 *   npm run build && npx tsx bench/compass-jobs.ts [--jobs 2] [--runs 3] [--from dist|src]
 * The library comes from dist/ (what `npx kfbench` runs) unless `--from src`: from the TypeScript
 * sources each worker thread compiles its modules with tsx first. The ceiling's processes load
 * their modules before the clock starts; the worker threads of --jobs N start inside it (their
 * start-up is part of that figure).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { LoadedCase } from '../src/compass/cases.js';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const jobs = arg('--jobs', 2);
const runs = arg('--runs', 3);
const fromAt = process.argv.indexOf('--from');
const from = fromAt > 0 ? process.argv[fromAt + 1]! : 'dist';
if (from !== 'dist' && from !== 'src') throw new Error(`--from dist or src, got ${from}`);
/** A module of the library, from dist/ or src/ (the types are the sources' either way). */
const lib = (path: string) =>
  import(pathToFileURL(join(ROOT, from, from === 'dist' ? path : path.replace(/\.js$/, '.ts'))).href);
const { loadCases } = (await lib('compass/cases.js')) as typeof import('../src/compass/cases.js');
const { scoreModels } = (await lib('compass/score.js')) as typeof import('../src/compass/score.js');
const { buildMiniCompass } = (await lib(
  'dev/mini-compass/build.js',
)) as typeof import('../src/dev/mini-compass/build.js');
const { createBuiltinEmbedder } = (await lib('embed/builtin.js')) as typeof import('../src/embed/builtin.js');

/** CPU seconds so far: this process (every thread), and its children that have exited. */
interface Cpu {
  self: number;
  children: number;
}
const TICK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();
function cpuNow(): Cpu {
  const u = process.cpuUsage();
  let children = 0;
  try {
    // /proc/self/stat after the command name: field 16 and 17 (cutime, cstime) are the 14th and 15th
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    children = (Number(f[13]) + Number(f[14])) / TICK;
  } catch {
    // not Linux: children's CPU is not counted
  }
  return { self: (u.user + u.system) / 1e6, children };
}
const cpuSince = (a: Cpu): Cpu => {
  const b = cpuNow();
  return { self: b.self - a.self, children: b.children - a.children };
};

const p = await buildMiniCompass(join(ROOT, 'bench', 'out', 'mini-compass'));
const allCases = await loadCases(p.cases);
const embedder = createBuiltinEmbedder();
const score = (cases: readonly LoadedCase[], j: number) =>
  scoreModels({ cases, videos: p.videos, models: ['faithful'], modes: ['minimal'], embedder, jobs: j });

// a ceiling process: load everything, say `ready`, scan its share one at a time on `go`, report
const child = process.argv.indexOf('--child');
if (child > 0) {
  const [k, n] = process.argv[child + 1]!.split('/').map(Number) as [number, number];
  const share = allCases.filter((_, i) => i % n === k);
  const lines = createInterface({ input: process.stdin });
  console.log('ready');
  for await (const _ of lines) break;
  const c0 = cpuNow();
  const r = await score(share, 1);
  console.log(JSON.stringify({ rows: r.rows.length, cpu: cpuSince(c0) }));
  lines.close();
} else {
  await main();
}

interface Measure {
  wall: number;
  cpu: Cpu;
}

async function time(j: number): Promise<Measure> {
  const c0 = cpuNow();
  const t = performance.now();
  const r = await score(allCases, j);
  if (r.rows.length !== 8) throw new Error(`expected 8 rows, got ${r.rows.length}`);
  return { wall: (performance.now() - t) / 1000, cpu: cpuSince(c0) };
}

/** N processes, each scanning its share with --jobs 1, started together once all have loaded. */
async function ceiling(n: number): Promise<Measure> {
  const procs = Array.from({ length: n }, (_, k) =>
    spawn(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, '--child', `${k}/${n}`, '--from', from],
      {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const outputs = procs.map((c) => createInterface({ input: c.stdout })[Symbol.asyncIterator]());
  const next = async (k: number) => {
    const l = await outputs[k]!.next();
    if (l.done) throw new Error(`ceiling process ${k} ended early`);
    return l.value;
  };
  await Promise.all(procs.map((_, k) => next(k))); // every one has printed `ready`
  const t = performance.now();
  for (const c of procs) c.stdin.write('go\n');
  const done = await Promise.all(
    procs.map(async (_, k) => {
      const r = JSON.parse(await next(k)) as { rows: number; cpu: Cpu };
      return { ...r, wall: (performance.now() - t) / 1000 };
    }),
  );
  await Promise.all(
    procs.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.once('exit', r)))),
  );
  if (done.reduce((s, d) => s + d.rows, 0) !== 8)
    throw new Error('the ceiling processes did not score 8 rows');
  return {
    wall: Math.max(...done.map((d) => d.wall)),
    cpu: {
      self: done.reduce((s, d) => s + d.cpu.self, 0),
      children: done.reduce((s, d) => s + d.cpu.children, 0),
    },
  };
}

async function main() {
  const load = loadavg().map((x) => x.toFixed(2));
  await time(1); // warm-up: files in the page cache, code compiled
  const one: Measure[] = [];
  const many: Measure[] = [];
  const ceil: Measure[] = [];
  for (let r = 0; r < runs; r++) {
    one.push(await time(1));
    many.push(await time(jobs));
    ceil.push(await ceiling(jobs));
  }
  const cores = availableParallelism();
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const row = (label: string, ms: Measure[]) => {
    const wall = med(ms.map((m) => m.wall));
    const self = med(ms.map((m) => m.cpu.self));
    const kids = med(ms.map((m) => m.cpu.children));
    const busy = med(ms.map((m) => (m.cpu.self + m.cpu.children) / m.wall));
    console.log(
      `| ${label} | ${wall.toFixed(2)} | ${self.toFixed(2)} | ${kids.toFixed(2)} | ${(self + kids).toFixed(2)} | ${busy.toFixed(2)} of ${cores} |`,
    );
    return wall;
  };
  console.log(`library from ${from}/, ${cores} cores\n`);
  console.log(
    `| 8 videos (medians of ${runs}) | wall s | CPU s: node (all threads) | CPU s: ffmpeg/ffprobe | CPU s: total | cores busy |\n|---|---|---|---|---|---|`,
  );
  const w1 = row('--jobs 1', one);
  const wn = row(`--jobs ${jobs} (worker threads)`, many);
  const wc = row(`ceiling: ${jobs} processes × --jobs 1`, ceil);
  console.log(`\n| ratio | |\n|---|---|`);
  console.log(`| speed-up --jobs ${jobs} / --jobs 1 | **${(w1 / wn).toFixed(2)}×** |`);
  console.log(`| ceiling speed-up (${jobs} processes / --jobs 1) | ${(w1 / wc).toFixed(2)}× |`);
  console.log(
    `| --jobs ${jobs} against the ceiling (ceiling s / --jobs ${jobs} s) | **${(wc / wn).toFixed(2)}** |`,
  );
  console.log(
    `\npeak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (this process); load average at start ${load.join(', ')}, at end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
}
