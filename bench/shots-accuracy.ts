/**
 * bench/shots-accuracy — kfbench's shot segmentation against ffmpeg's `scdet` filter
 * (threshold 10) on videos with known transitions: by default the fixture videos
 * (test/fixtures/media/truth.json); given a folder, every video listed in the `truth.json`
 * beside them — so anyone can check the detector on their own footage.
 *
 *   npx tsx bench/shots-accuracy.ts                 # the fixtures
 *   npx tsx bench/shots-accuracy.ts DIR             # DIR/truth.json + the videos it names
 *
 * truth.json: `{ "<video file name in DIR>": { "cuts": [frame, …], "gradual": [{ "start_frame",
 * "end_frame" }, …] } }` — frame numbers count decoded frames from 0 (as `kfbench media shots`
 * and `kfbench media sample` number them); a cut is the first frame of the new shot, a gradual
 * transition its first and last blended frame (inclusive). Other fields are ignored.
 *
 * A detection matches a cut when it is within ±1 frame of it, and a gradual transition when it
 * falls inside the transition (±1 frame). Each true transition is matched at most once;
 * precision = matched detections / detections, recall = matched transitions / transitions.
 * scdet's detections (times) become frames by the video's presentation timestamps.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ffmpegLog } from '../src/media/ffmpeg.js';
import { frameAt, probe } from '../src/media/probe.js';
import { detectShots } from '../src/media/shots.js';

const ROOT = resolve(import.meta.dirname, '..');
const DIR = resolve(process.argv[2] ?? join(ROOT, 'test', 'fixtures', 'media'));
const TRUTH_FILE = join(DIR, 'truth.json');

const Frame = z.number().int().nonnegative();
const Truth = z.record(
  z.string(),
  z.looseObject({
    cuts: z.array(Frame),
    gradual: z.array(z.object({ start_frame: Frame, end_frame: Frame })).default([]),
  }),
);
type VideoTruth = z.infer<typeof Truth>[string];

function loadTruth(): z.infer<typeof Truth> {
  if (!existsSync(TRUTH_FILE))
    fail(`${TRUTH_FILE}: not found (a folder needs a truth.json beside its videos)`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(TRUTH_FILE, 'utf8'));
  } catch (e) {
    fail(`${TRUTH_FILE}: not JSON (${(e as Error).message})`);
  }
  const parsed = Truth.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${TRUTH_FILE}: ${issue.path.join('.')}: ${issue.message}`);
  }
  for (const [name, t] of Object.entries(parsed.data)) {
    if (!existsSync(join(DIR, name))) fail(`${TRUTH_FILE}: ${name}: no such video in ${DIR}`);
    for (const g of t.gradual)
      if (g.end_frame < g.start_frame)
        fail(`${TRUTH_FILE}: ${name}: a gradual transition ends before it starts`);
  }
  return parsed.data;
}

function fail(message: string): never {
  console.error(message);
  process.exit(3);
}

async function scdet(file: string, info: Awaited<ReturnType<typeof probe>>): Promise<number[]> {
  const log = await ffmpegLog(
    ['-i', file, '-map', '0:v:0', '-vf', 'scdet=threshold=10', '-f', 'null', '-'],
    file,
  );
  return [...log.matchAll(/lavfi\.scd\.time: ([\d.]+)/g)].map((m) => frameAt(info, Number(m[1])));
}

function score(detections: number[], t: VideoTruth) {
  const targets = [
    ...t.cuts.map((c) => ({ lo: c - 1, hi: c + 1, kind: 'cut' })),
    ...t.gradual.map((g) => ({ lo: g.start_frame - 1, hi: g.end_frame + 1, kind: 'gradual' })),
  ];
  const used = new Set<number>();
  let matched = 0;
  for (const d of detections) {
    const k = targets.findIndex((x, i) => !used.has(i) && d >= x.lo && d <= x.hi);
    if (k >= 0) {
      used.add(k);
      matched++;
    }
  }
  const found = (kind: string) => targets.filter((x, i) => x.kind === kind && used.has(i)).length;
  return {
    detections: detections.length,
    precision: detections.length ? matched / detections.length : 1,
    recall: targets.length ? matched / targets.length : 1,
    cuts: `${found('cut')}/${t.cuts.length}`,
    gradual: `${found('gradual')}/${t.gradual.length}`,
  };
}

const truth = loadTruth();
console.log(`truth: ${TRUTH_FILE}`);
console.log('| video | detector | detections | precision | recall | cuts found | gradual found |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, t] of Object.entries(truth)) {
  const file = join(DIR, name);
  const info = await probe(file);
  const ours = await detectShots(info);
  const oursDet = ours.transitions.map((x) =>
    x.kind === 'cut' ? x.start_frame : Math.floor((x.start_frame + x.end_frame) / 2),
  );
  for (const [label, det] of [
    ['kfbench', oursDet],
    ['scdet=10', await scdet(file, info)],
  ] as const) {
    const s = score([...det], t);
    console.log(
      `| ${name}${info.vfr ? ' (vfr)' : ''} | ${label} | ${s.detections} | ${s.precision.toFixed(2)} | ${s.recall.toFixed(2)} | ${s.cuts} | ${s.gradual} |`,
    );
  }
}
