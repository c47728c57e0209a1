/**
 * bench/scale — kfbench at fractions of the published sizes (1/8, 1/4, 1/2, full), on the generated
 * sets of `hero mini --size` / `compass mini --size` (src/synthetic/published-*.ts, built under
 * bench/out/scale/ if absent). Each command runs as its own process (the built CLI, `node
 * dist/cli/bin.js`, as `npx kfbench` does) under `/usr/bin/time -v`, which gives its CPU seconds
 * (user + system of the process and every child it waited for) and its peak RSS (the largest of
 * the tree's processes). The VLM emulator runs in this process (src/synthetic/emulator, as `kfbench dev
 * vlm-emulator` runs it), apart from the measured command, so the client's CPU is kfbench's alone;
 * per size one emulator serves both latencies (`setLatency`), so the 100 ms run finds the images'
 * features computed by the 0 ms run, as a server that has seen them would.
 *
 *  - `hero validate`;
 *  - `hero evaluate`, one method (5 frames per film, selections/uniform5.jsonl), `--concurrency 16`,
 *    emulator at 0 ms and 100 ms latency, cold (empty judge cache) then warm (the same cache);
 *  - `compass score` (model faithful, both prompt modes, no scan cache) and `compass evaluate`
 *    (emulator at 0 ms, pixel segmenter, no scan cache, empty judge cache);
 *  - at the largest size: the viewer (`kfbench serve` on the dataset, the track and the hero
 *    evaluate output) opened in Debian Chromium (test/support/browser.ts): home and a film page.
 *
 * Prints per size: wall s, CPU s, peak RSS MB, judge calls and the load average; for `hero evaluate`
 * the client's CPU per call (all of the cold run's, and beyond the warm run's), the emulator's CPU per
 * request, and the call phase's rate read from the emulator's own request log (first to last
 * arrival, plus one latency) against the ideal 16 / latency; then the growth exponent k between
 * consecutive sizes (wall and RSS ~ size^k) and the targets.
 *   npm run build && nice -n 10 npx tsx bench/scale.ts [--sizes 1/8,1/4,1/2,published] [--only hero|compass]
 *     [--latencies 0,100] [--no-viewer]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { type Emulator, startEmulator } from '../src/synthetic/emulator/server.js';
import { launchChromium } from '../test/support/browser.js';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const OUT = join(ROOT, 'bench', 'out', 'scale');
const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : d;
};
const SIZES = arg('--sizes', '1/8,1/4,1/2,published').split(',');
const ONLY = arg('--only', 'all');
const LATENCIES = arg('--latencies', '0,100').split(',').map(Number);
const VIEWER = !process.argv.includes('--no-viewer');
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const fractionOf = (s: string) => {
  const [a, b] = s === 'published' ? [1, 1] : s.split('/').map(Number);
  return a! / (b ?? 1);
};
const tag = (s: string) => s.replace('/', '_');

interface Measure {
  wall: number;
  cpu: number;
  rss_mb: number;
  stdout: string;
}

/** One CLI command under /usr/bin/time -v. */
async function run(args: string[], opts: { allowFail?: boolean } = {}): Promise<Measure> {
  const t = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c;
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c;
  });
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const wall = (performance.now() - t) / 1000;
  const num = (re: RegExp) => Number(re.exec(stderr)?.[1] ?? Number.NaN);
  if (code !== 0 && !opts.allowFail)
    throw new Error(`kfbench ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return {
    wall,
    cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    rss_mb: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024,
    stdout,
  };
}

/** A long-running CLI process and the first line it prints. */
async function startProcess(args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`kfbench ${args.join(' ')} ended before printing`);
  return { child, line: first.value };
}

const stop = async (c: ChildProcess) => {
  if (c.exitCode !== null) return;
  const gone = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await gone;
};

const judgeOf = (e: Emulator) => `openai:kfbench-emulator@${e.url}`;
/** This process's CPU seconds (the emulator's, while it waits on a command). */
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The call phase as the emulator saw it: requests since `from`, and seconds from the first arrival to the last reply. */
function callPhase(e: Emulator, from: number, latencyMs: number): { requests: number; seconds: number } {
  const ts = e.log.slice(from).map((l) => l.t);
  if (ts.length === 0) return { requests: 0, seconds: Number.NaN };
  return { requests: ts.length, seconds: (Math.max(...ts) - Math.min(...ts) + latencyMs) / 1000 };
}

const callsOf = (stdout: string) =>
  Number(
    /(\d+) calls, (\d+) from cache/.exec(stdout)?.[1] ?? /judge calls (\d+)/.exec(stdout)?.[1] ?? Number.NaN,
  );

type Row = { size: string; step: string } & Measure & { calls?: number; note?: string };
const rows: Row[] = [];
const record = (size: string, step: string, m: Measure, extra: { calls?: number; note?: string } = {}) => {
  const r = { size, step, ...m, ...extra };
  rows.push(r);
  console.log(
    `${size.padEnd(9)} ${step.padEnd(34)} wall ${m.wall.toFixed(1).padStart(7)} s  CPU ${m.cpu.toFixed(1).padStart(7)} s  RSS ${m.rss_mb.toFixed(0).padStart(5)} MB${extra.calls !== undefined ? `  calls ${extra.calls}` : ''}  load ${load()}${extra.note ? `  ${extra.note}` : ''}`,
  );
};

console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
let viewerInputs: { data: string; track: string; results: string } | undefined;
for (const size of SIZES) {
  const f = fractionOf(size);
  const hero = join(OUT, `hero-${tag(size)}`);
  const compass = join(OUT, `compass-${tag(size)}`);
  if (ONLY !== 'compass') {
    const built = await run(['hero', 'mini', '--size', size, '--out', hero, '--json']);
    const counts = JSON.parse(built.stdout).counts;
    record(size, `(hero set: ${counts.films} films)`, built, { note: `${counts.track_frames} track rows` });
    const data = join(hero, 'heroframe');
    record(size, 'hero validate', await run(['hero', 'validate', '--data', data]));
    const emu = await startEmulator();
    for (const latency of LATENCIES) {
      emu.setLatency(latency);
      const cache = join(OUT, `hero-cache-${tag(size)}-${latency}.sqlite`);
      rmSync(cache, { force: true });
      const out = join(OUT, `hero-eval-${tag(size)}-${latency}`);
      const args = [
        ...['hero', 'evaluate', '--selections', join(hero, 'selections', 'uniform5.jsonl')],
        ...['--data', data, '--track', join(hero, 'track'), '--judge', judgeOf(emu)],
        ...['--concurrency', '16', '--cache', cache, '--out', out],
      ];
      const from = emu.log.length;
      const e0 = ownCpu();
      const cold = await run(args);
      const emuCpu = ownCpu() - e0;
      const calls = callsOf(cold.stdout);
      const phase = callPhase(emu, from, latency);
      const warm = await run(args);
      const ideal = 16 / (latency / 1000);
      const rate = phase.requests / phase.seconds;
      record(size, `hero evaluate ${latency} ms cold`, cold, {
        calls,
        note: `client ${((1000 * cold.cpu) / calls).toFixed(2)} ms CPU/call in all, ${((1000 * (cold.cpu - warm.cpu)) / calls).toFixed(2)} beyond the warm run; emulator ${emuCpu.toFixed(1)} CPU-s (${((1000 * emuCpu) / phase.requests).toFixed(2)} ms/request); ${rate.toFixed(0)} calls/s over the call phase (${phase.seconds.toFixed(1)} s)${latency ? ` = ${(rate / ideal).toFixed(2)} of ideal ${ideal}` : ''}`,
      });
      record(size, `hero evaluate ${latency} ms warm`, warm, { calls: callsOf(warm.stdout) });
      if (latency === 0) viewerInputs = { data, track: join(hero, 'track'), results: out };
    }
    await emu.close();
  }
  if (ONLY !== 'hero') {
    const built = await run(['compass', 'mini', '--size', size, '--out', compass]);
    record(size, `(compass set: ${Math.max(1, Math.round(386 * f))} cases)`, built);
    const base = [
      ...['--cases', join(compass, 'cases.jsonl'), '--videos', join(compass, 'videos')],
      ...['--model', 'faithful', '--no-scan-cache'],
    ];
    record(
      size,
      'compass score',
      await run(['compass', 'score', ...base, '--out', join(OUT, `compass-score-${tag(size)}`)]),
    );
    const emu = await startEmulator();
    const cache = join(OUT, `compass-cache-${tag(size)}.sqlite`);
    rmSync(cache, { force: true });
    try {
      const e0 = ownCpu();
      const e = await run([
        ...['compass', 'evaluate', ...base, '--judge', judgeOf(emu), '--cache', cache],
        ...['--out', join(OUT, `compass-eval-${tag(size)}`)],
      ]);
      const emuCpu = ownCpu() - e0;
      record(size, 'compass evaluate 0 ms', e, {
        calls: callsOf(e.stdout),
        note: `emulator ${emuCpu.toFixed(1)} CPU-s for ${emu.log.length} requests`,
      });
    } finally {
      await emu.close();
    }
  }
}

// the viewer on the largest hero set: home and a film page in Chromium, first and second visit
if (VIEWER && viewerInputs && existsSync(viewerInputs.results)) {
  const { child, line } = await startProcess([
    ...['serve', '--data', viewerInputs.data, '--track', viewerInputs.track],
    ...['--results', viewerInputs.results, '--port', '0', '--cache-dir', join(OUT, 'viewer-cache')],
  ]);
  const url = /at (http\S+)/.exec(line)?.[1] ?? '';
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const film = JSON.parse(
      readFileSync(join(viewerInputs.data, 'data', 'movies.jsonl'), 'utf8').split('\n')[0]!,
    ).movie_id;
    for (const [name, path] of [
      ['home', ''],
      ['film page', `film-${film}.html`],
    ] as const)
      for (const visit of ['first', 'second']) {
        const t = performance.now();
        const r = await page.goto(url + path, { waitUntil: 'load' });
        const ms = performance.now() - t;
        const status = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        console.log(
          `viewer ${name} (${visit} visit, load ${load()}): HTTP ${r?.status()}, loaded in ${ms.toFixed(0)} ms (${(((await r?.body())?.length ?? 0) / 1024) | 0} KiB); serve's peak RSS ${(Number(status) / 1024).toFixed(0)} MB`,
        );
      }
  } finally {
    await browser.close();
    await stop(child);
  }
}

// growth exponents between consecutive sizes, per step
console.log('\ngrowth exponent k (wall, RSS ~ size^k) between consecutive sizes:');
const steps = [...new Set(rows.map((r) => r.step))].filter((s) => !s.startsWith('('));
for (const step of steps) {
  const rs = rows.filter((r) => r.step === step);
  const ks = rs.slice(1).map((r, i) => {
    const a = rs[i]!;
    const dx = Math.log(fractionOf(r.size) / fractionOf(a.size));
    return `${a.size}→${r.size}: wall ${(Math.log(r.wall / a.wall) / dx).toFixed(2)}, CPU ${(Math.log(r.cpu / a.cpu) / dx).toFixed(2)}, RSS ${(Math.log(r.rss_mb / a.rss_mb) / dx).toFixed(2)}`;
  });
  console.log(`  ${step}: ${ks.join('; ') || '(one size)'}`);
}
console.log(
  `\nload average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`,
);
