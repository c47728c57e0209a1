/**
 * bench/compass-jobs — `compass score --jobs N`: the same 8 mini videos (model `faithful`, 8 cases,
 * minimal prompts; no scan cache) scored, in the same run, three ways:
 *  - `--jobs 1`: one process scans them one at a time;
 *  - `--jobs N`: one process, N scans at once in worker threads;
 *  - the ceiling: N independent processes started together, each scanning its share (every N-th
 *    case) one at a time — the same work with nothing shared but the machine.
 * Prints the wall times (medians) beside the CPU seconds spent — node (every thread) and the
 * ffmpeg/ffprobe processes it waited for — so how many of the cores each way keeps busy, and the
 * target: `--jobs N` against the N-process ceiling measured in the same run, ceiling s / --jobs N s
 * ≥ 0.95 (what threads can lose against processes: start-up, sharing one heap and one libuv pool).
 * The speed-up over --jobs 1 is printed for information only: it is bounded by the cores left
 * free (a 2-core machine whose --jobs 1 already keeps 1.5 cores busy cannot show 1.7×), so it is
 * no target.
 *   npm run build && npx tsx bench/compass-jobs.ts [--jobs 2] [--runs 3] [--dist DIR]
 * (`--dist` measures another build of the library, e.g. an older commit's, in the same way.)
 * Every figure comes from plain `node` processes running the built library (dist/), as
 * `npx kfbench` does: under tsx every worker thread would load tsx's loader too. Each process
 * loads its modules and is then started by the clock; its code is cold, as in a CLI run (the
 * worker threads of --jobs N start inside the clock: their start-up is part of that figure).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { buildMiniCompass } from '../src/synthetic/mini-compass/build.js';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const jobs = arg('--jobs', 2);
const runs = arg('--runs', 3);
const distAt = process.argv.indexOf('--dist');
const distDir = distAt > 0 ? resolve(process.argv[distAt + 1]!) : join(ROOT, 'dist');

/** CPU seconds: node's own (every thread) and its children's that it waited for. */
interface Cpu {
  self: number;
  children: number;
}

/**
 * One measuring process (plain JavaScript, so that plain `node` runs it): argv = dist URL, cases
 * file, videos folder, --jobs value, share `k/n`. Prints `ready` once loaded, scores its share on
 * a line from stdin, prints {rows, cpu}.
 */
const DRIVER = `
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const [dist, casesFile, videos, jobs, share] = process.argv.slice(2);
const { loadCases } = await import(dist + '/compass/cases/cases.js');
const { scoreModels } = await import(dist + '/compass/response/models.js');
const { createBuiltinEmbedder } = await import(dist + '/embed/builtin.js');
const [k, n] = share.split('/').map(Number);
const cases = (await loadCases(casesFile)).filter((_, i) => i % n === k);
const embedder = createBuiltinEmbedder();
const tick = Number(process.env.CLK_TCK || 100);
const cpu = () => {
  const u = process.cpuUsage();
  // /proc/self/stat after the command name: fields 16 and 17 (cutime, cstime) are the 14th and 15th
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return { self: (u.user + u.system) / 1e6, children: (Number(f[13]) + Number(f[14])) / tick };
};
const lines = createInterface({ input: process.stdin });
console.log('ready');
for await (const _ of lines) break;
const c0 = cpu();
const r = await scoreModels({ cases, videos, models: ['faithful'], modes: ['minimal'], embedder, jobs: Number(jobs) });
const c1 = cpu();
const rss_mb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ rows: r.rows.length, rss_mb, cpu: { self: c1.self - c0.self, children: c1.children - c0.children } }));
`;

interface Measure {
  wall: number;
  cpu: Cpu;
  /** The largest peak RSS of the processes. */
  rss_mb: number;
}

const p = await buildMiniCompass(join(ROOT, 'bench', 'out', 'mini-compass'));
const driver = join(mkdtempSync(join(tmpdir(), 'kfbench-bench-jobs-')), 'driver.mjs');
writeFileSync(driver, DRIVER);
const dist = pathToFileURL(distDir).href;
const CLK_TCK = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();

/** `processes` processes, each scoring its share with `--jobs j`, started together once all have loaded. */
async function measure(j: number, processes: number): Promise<Measure> {
  const procs = Array.from({ length: processes }, (_, k) =>
    spawn(process.execPath, [driver, dist, p.cases, p.videos, String(j), `${k}/${processes}`], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, CLK_TCK },
    }),
  );
  const outputs = procs.map((c) => createInterface({ input: c.stdout })[Symbol.asyncIterator]());
  const next = async (k: number) => {
    const l = await outputs[k]!.next();
    if (l.done) throw new Error(`measuring process ${k} ended early`);
    return l.value;
  };
  await Promise.all(procs.map((_, k) => next(k))); // every one has printed `ready`
  const t = performance.now();
  for (const c of procs) c.stdin.write('go\n');
  const done = await Promise.all(
    procs.map(async (_, k) => JSON.parse(await next(k)) as { rows: number; rss_mb: number; cpu: Cpu }),
  );
  const wall = (performance.now() - t) / 1000;
  for (const c of procs) c.stdin.end();
  const codes = await Promise.all(
    procs.map((c) =>
      c.exitCode !== null ? c.exitCode : new Promise<number | null>((r) => c.once('exit', (code) => r(code))),
    ),
  );
  if (codes.some((code) => code !== 0))
    throw new Error(`a measuring process exited with ${codes.join(', ')}`);
  if (done.reduce((s, d) => s + d.rows, 0) !== 8)
    throw new Error('the measuring processes did not score 8 rows');
  const sum = (f: (c: Cpu) => number) => done.reduce((s, d) => s + f(d.cpu), 0);
  return {
    wall,
    cpu: { self: sum((c) => c.self), children: sum((c) => c.children) },
    rss_mb: Math.max(...done.map((d) => d.rss_mb)),
  };
}

const load = loadavg().map((x) => x.toFixed(2));
await measure(1, 1); // warm-up: the videos and the code in the page cache
const one: Measure[] = [];
const many: Measure[] = [];
const ceil: Measure[] = [];
for (let r = 0; r < runs; r++) {
  one.push(await measure(1, 1));
  many.push(await measure(jobs, 1));
  ceil.push(await measure(1, jobs));
}
const cores = availableParallelism();
console.log(`library: ${distDir}\n`);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (label: string, ms: Measure[]) => {
  const wall = med(ms.map((m) => m.wall));
  const self = med(ms.map((m) => m.cpu.self));
  const kids = med(ms.map((m) => m.cpu.children));
  const busy = med(ms.map((m) => (m.cpu.self + m.cpu.children) / m.wall));
  const rss = Math.max(...ms.map((m) => m.rss_mb));
  console.log(
    `| ${label} | ${wall.toFixed(2)} | ${self.toFixed(2)} | ${kids.toFixed(2)} | ${(self + kids).toFixed(2)} | ${busy.toFixed(2)} of ${cores} | ${rss.toFixed(0)} |`,
  );
  return wall;
};
console.log(
  `| 8 videos (medians of ${runs}) | wall s | CPU s: node (every thread) | CPU s: ffmpeg/ffprobe | CPU s: total | cores busy | peak RSS MB (per process) |\n|---|---|---|---|---|---|---|`,
);
const w1 = row('--jobs 1', one);
const wn = row(`--jobs ${jobs} (worker threads)`, many);
const wc = row(`ceiling: ${jobs} processes × --jobs 1`, ceil);
console.log(`\n| ratio | |\n|---|---|`);
const ratio = wc / wn;
console.log(
  `| --jobs ${jobs} against the ceiling: ceiling s / --jobs ${jobs} s (target ≥ 0.95) | **${ratio.toFixed(2)}** ${ratio >= 0.95 ? 'met' : 'not met'} |`,
);
console.log(
  `| speed-up: --jobs 1 s / --jobs ${jobs} s (bounded by the free cores; no target) | ${(w1 / wn).toFixed(2)}× |`,
);
console.log(`| the ceiling's speed-up: --jobs 1 s / ceiling s | ${(w1 / wc).toFixed(2)}× |`);
console.log(
  `\nload average at start ${load.join(', ')}, at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
