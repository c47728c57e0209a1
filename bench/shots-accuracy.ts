/**
 * bench/shots-accuracy — kfbench's shot segmentation side by side with PySceneDetect's
 * AdaptiveDetector (defaults) and ffmpeg's `scdet` filter (threshold 10), on videos with known
 * transitions, in one run: by default every shot fixture (the truth.json of test/fixtures/media,
 * its footage/ and staged/); given folders, every video listed in the `truth.json` beside them —
 * so anyone can check the detector on their own footage.
 *
 *   npx tsx bench/shots-accuracy.ts                       # the fixtures
 *   npx tsx bench/shots-accuracy.ts DIR [DIR…]            # DIR/truth.json + the videos it names
 *   npx tsx bench/shots-accuracy.ts --scale 1280 [DIR…]   # each video scaled to 1280 px wide first
 *
 * truth.json: `{ "<video file name in DIR>": { "cuts": [frame, …], "gradual": [{ "start_frame",
 * "end_frame" }, …] } }` — frame numbers count decoded frames from 0 (as `kfbench media shots`
 * and `kfbench media sample` number them); a cut is the first frame of the new shot, a gradual
 * transition its first and last blended frame (inclusive). Other fields are ignored.
 *
 * Scoring (issue 48): a cut detection matches a true cut within ±1 frame (a cut inside a dissolve is
 * a false cut), a gradual detection a true gradual transition its middle falls in (±1 frame), and a
 * matched gradual transition's bounds are right when its start and end are each within one frame
 * of the truth's; each true transition is matched at most once.
 *
 * PySceneDetect runs in this run when `/usr/bin/python3` with OpenCV and PySceneDetect's source
 * (PYSCENEDETECT_SRC, see scripts/shots-references.py) are there; else its cut lists and CPU are
 * read from test/fixtures/media/pyscenedetect.json (fixtures only, and marked "from the fixture").
 *
 * CPU seconds, each process's start-up taken out (issue 56): kfbench's is this process's user +
 * system time and its waited-for children's (the ffmpeg decoder) across `detectShots` (after one
 * warm-up call), less one ffmpeg start-up; PySceneDetect's is its own process's time across
 * `open_video` + `detect_scenes` (after one warm-up), as scripts/shots-references.py measures it
 * (its decoder runs inside it); scdet's and the bare decode's (`ffmpeg -i FILE -map 0:v:0 -f null
 * -`) are the ffmpeg process's, less one start-up. An ffmpeg start-up is the median CPU of 5 runs
 * of `ffmpeg -f lavfi -i nullsrc=s=64x36:d=0.04 -f null -` in this run; the totals with the
 * start-ups left in are printed too. Peak RSS: this process's (kfbench) and PySceneDetect's
 * process's.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ffmpegLog, ffmpegRun } from '../src/media/ffmpeg.js';
import { frameAt, probe } from '../src/media/probe.js';
import { detectShots } from '../src/media/shots.js';

const ROOT = resolve(import.meta.dirname, '..');
const MEDIA = join(ROOT, 'test', 'fixtures', 'media');
const args = process.argv.slice(2);
const scaleAt = args.indexOf('--scale');
const SCALE = scaleAt >= 0 ? Number(args.splice(scaleAt, 2)[1]) : undefined;
if (SCALE !== undefined && !(SCALE >= 64)) fail('--scale: a width in pixels (≥ 64)');
const DIRS = args.length ? args.map((d) => resolve(d)) : ['', 'footage', 'staged'].map((d) => join(MEDIA, d));

const Frame = z.number().int().nonnegative();
const Truth = z.record(
  z.string(),
  z.looseObject({
    cuts: z.array(Frame),
    gradual: z.array(z.object({ start_frame: Frame, end_frame: Frame })).default([]),
  }),
);
type VideoTruth = z.infer<typeof Truth>[string];

function fail(message: string): never {
  console.error(message);
  process.exit(3);
}

function loadTruth(dir: string): [string, VideoTruth][] {
  const file = join(dir, 'truth.json');
  if (!existsSync(file)) fail(`${file}: not found (a folder needs a truth.json beside its videos)`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`${file}: not JSON (${(e as Error).message})`);
  }
  const parsed = Truth.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  for (const [name, t] of Object.entries(parsed.data)) {
    if (!existsSync(join(dir, name))) fail(`${file}: ${name}: no such video in ${dir}`);
    for (const g of t.gradual)
      if (g.end_frame < g.start_frame) fail(`${file}: ${name}: a gradual transition ends before it starts`);
  }
  return Object.entries(parsed.data).map(([name, t]) => [join(dir, name), t]);
}

/** CPU seconds of this process and its waited-for children so far (Linux /proc, clock ticks of 10 ms). */
function cpuNow(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields 14–17 of proc(5) (utime, stime, cutime, cstime) are 11–14 after the command name
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

async function cpuOf<T>(fn: () => Promise<T>): Promise<{ value: T; cpu: number }> {
  const t0 = cpuNow();
  const value = await fn();
  return { value, cpu: cpuNow() - t0 };
}

interface Detection {
  kind: 'cut' | 'gradual';
  start: number;
  end: number;
}

/** Cuts and gradual transitions found (of the truth's) and falsely reported. */
function score(detections: Detection[], t: VideoTruth) {
  const kind = (k: Detection['kind']) => {
    const truths =
      k === 'cut'
        ? t.cuts.map((c) => ({ start: c, end: c }))
        : t.gradual.map((g) => ({ start: g.start_frame, end: g.end_frame }));
    const dets = detections.filter((d) => d.kind === k);
    const used = new Set<number>();
    let bounds = 0;
    for (const d of dets) {
      const at = k === 'cut' ? d.start : Math.floor((d.start + d.end) / 2);
      const i = truths.findIndex((x, j) => !used.has(j) && at >= x.start - 1 && at <= x.end + 1);
      if (i < 0) continue;
      used.add(i);
      if (Math.abs(d.start - truths[i]!.start) <= 1 && Math.abs(d.end - truths[i]!.end) <= 1) bounds++;
    }
    return { found: used.size, of: truths.length, false: dets.length - used.size, bounds };
  };
  return { cut: kind('cut'), gradual: kind('gradual') };
}

const cuts = (frames: number[]): Detection[] => frames.map((f) => ({ kind: 'cut', start: f, end: f }));

interface PsdRecord {
  cuts: { frame: number }[];
  cpu_s: number;
}

/** PySceneDetect in this run (scripts/shots-references.py --print), or null when it cannot run. */
async function runPySceneDetect(
  files: string[],
): Promise<{ videos: Record<string, PsdRecord>; rss: number } | null> {
  const src = process.env.PYSCENEDETECT_SRC;
  if (!src || !existsSync(join(src, 'scenedetect', '__init__.py')) || !existsSync('/usr/bin/python3'))
    return null;
  const script = join(ROOT, 'scripts', 'shots-references.py');
  const { stdout } = await promisify(execFile)(
    '/usr/bin/python3',
    [script, '--runs', '1', '--print', ...files],
    {
      maxBuffer: 64 << 20,
    },
  ).catch((e: Error) => fail(`PySceneDetect: ${script} failed: ${e.message}`));
  const out = JSON.parse(stdout) as Record<string, PsdRecord> & { _peak_rss_mb: number };
  return { videos: out, rss: out._peak_rss_mb };
}

async function scdet(file: string, info: Awaited<ReturnType<typeof probe>>): Promise<number[]> {
  const log = await ffmpegLog(
    ['-i', file, '-map', '0:v:0', '-vf', 'scdet=threshold=10', '-f', 'null', '-'],
    file,
  );
  return [...log.matchAll(/lavfi\.scd\.time: ([\d.]+)/g)].map((m) => frameAt(info, Number(m[1])));
}

/** Each video scaled to `width` px wide (frames and times kept), in a temporary folder. */
async function scaled(videos: [string, VideoTruth][], width: number, tmp: string) {
  const out: [string, VideoTruth][] = [];
  for (const [file, t] of videos) {
    const dst = join(tmp, `${relative(ROOT, file).replaceAll('/', '_')}.mp4`);
    const vf = `scale=${width}:-2:flags=bicubic,format=yuv420p`;
    const enc = ['-c:v', 'libx264', '-preset', 'fast', '-crf', '18', '-bf', '0', '-an'];
    await ffmpegRun(
      ['-i', file, '-map', '0:v:0', '-vf', vf, '-fps_mode', 'passthrough', ...enc, '-y', dst],
      file,
    );
    out.push([dst, t]);
  }
  return out;
}

/** The CPU of one ffmpeg process that decodes next to nothing (median of 5). */
async function ffmpegStartup(): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const args = ['-f', 'lavfi', '-i', 'nullsrc=s=64x36:d=0.04', '-f', 'null', '-'];
    runs.push((await cpuOf(() => ffmpegLog(args, 'nullsrc'))).cpu);
  }
  return runs.sort((a, b) => a - b)[2]!;
}

const tmp = mkdtempSync(join(tmpdir(), 'kfbench-shots-bench-'));
let videos = DIRS.flatMap(loadTruth);
const label = (f: string) =>
  f.startsWith(tmp) ? basename(f, '.mp4').replaceAll('_', '/') : relative(ROOT, f);
if (SCALE) videos = await scaled(videos, SCALE, tmp);
await detectShots(await probe(videos[0]![0])); // warm-up: modules, WebAssembly, caches
const psdLive = await runPySceneDetect(videos.map(([f]) => f));
const startup = await ffmpegStartup();
const fixture = JSON.parse(readFileSync(join(MEDIA, 'pyscenedetect.json'), 'utf8')) as {
  videos: Record<string, PsdRecord>;
  peak_rss_mb: number;
};
const psdFrom = psdLive
  ? 'measured in this run'
  : 'from the fixture (test/fixtures/media/pyscenedetect.json)';
console.log(`PySceneDetect: ${psdFrom}`);
console.log('| video | tool | cuts found | false cuts | gradual found (bounds ±1) | CPU-s |');
console.log('|---|---|---|---|---|---|');
const tot = {
  k: { cpu: 0, f: 0, of: 0, x: 0, g: 0 },
  p: { cpu: 0, f: 0, of: 0, x: 0, g: 0 },
  s: { cpu: 0, f: 0, of: 0, x: 0, g: 0 },
};
let decodeCpu = 0;
let gradualOf = 0;
let psdMissing = false;
for (const [file, t] of videos) {
  const info = await probe(file);
  const ours = await cpuOf(() => detectShots(info));
  ours.cpu -= startup;
  const oursDet: Detection[] = ours.value.transitions.map((x) => ({
    kind: x.kind,
    start: x.start_frame,
    end: x.end_frame,
  }));
  const sc = await cpuOf(() => scdet(file, info));
  sc.cpu -= startup;
  decodeCpu +=
    (await cpuOf(() => ffmpegLog(['-i', file, '-map', '0:v:0', '-f', 'null', '-'], file))).cpu - startup;
  const psd = psdLive?.videos[file] ?? fixture.videos[relative(MEDIA, file)];
  if (!psd) psdMissing = true;
  gradualOf += t.gradual.length;
  const rows: [string, keyof typeof tot, Detection[] | null, number][] = [
    ['kfbench', 'k', oursDet, ours.cpu],
    ['PySceneDetect', 'p', psd ? cuts(psd.cuts.map((c) => c.frame)) : null, psd?.cpu_s ?? 0],
    ['scdet=10', 's', cuts(sc.value), sc.cpu],
  ];
  for (const [tool, key, det, cpu] of rows) {
    if (!det) {
      console.log(`| ${label(file)} | ${tool} | – | – | – | – |`);
      continue;
    }
    const { cut: c, gradual: g } = score(det, t);
    Object.assign(tot[key], {
      cpu: tot[key].cpu + cpu,
      f: tot[key].f + c.found,
      of: tot[key].of + c.of,
      x: tot[key].x + c.false,
      g: tot[key].g + g.found,
    });
    const vid = `${label(file)}${info.vfr ? ' (vfr)' : ''}`;
    console.log(
      `| ${vid} | ${tool} | ${c.found}/${c.of} | ${c.false} | ${g.found}/${g.of} (${g.bounds}) | ${cpu.toFixed(2)} |`,
    );
  }
}
rmSync(tmp, { recursive: true, force: true });
const rssK = process.resourceUsage().maxRSS / 1024;
const rssP = psdLive?.rss ?? fixture.peak_rss_mb;
console.log('');
const n = videos.length;
console.log(
  `${n} videos${SCALE ? ` scaled to ${SCALE} px wide` : ''}; bare decode (ffmpeg -f null) ${decodeCpu.toFixed(2)} CPU-s; ` +
    `one ffmpeg start-up ${startup.toFixed(3)} CPU-s, taken out of kfbench's, scdet's and the decode's figures ` +
    `(with it left in: kfbench ${(tot.k.cpu + n * startup).toFixed(2)}, scdet ${(tot.s.cpu + n * startup).toFixed(2)}, ` +
    `decode ${(decodeCpu + n * startup).toFixed(2)})`,
);
console.log('| tool | cuts found | false cuts | gradual found | CPU-s | × bare decode | peak RSS |');
console.log('|---|---|---|---|---|---|---|');
for (const [tool, key, rss] of [
  ['kfbench', 'k', `${rssK.toFixed(0)} MB (this process)`],
  [
    `PySceneDetect${psdLive ? '' : ' (from the fixture)'}${psdMissing ? ' (some videos missing)' : ''}`,
    'p',
    `${rssP.toFixed(0)} MB`,
  ],
  ['scdet=10', 's', '–'],
] as const) {
  const x = tot[key];
  console.log(
    `| ${tool} | ${x.f}/${x.of} | ${x.x} | ${x.g}/${gradualOf} | ${x.cpu.toFixed(2)} | ${(x.cpu / decodeCpu).toFixed(2)} | ${rss} |`,
  );
}
