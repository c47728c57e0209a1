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
 * Cuts and gradual transitions are scored apart (precision and recall of each; issue 48): a cut
 * detection matches a true cut within ±1 frame, a gradual detection a true gradual transition
 * its middle falls in (±1 frame) — a cut reported inside a dissolve is a false cut, not a find —
 * and a matched gradual transition's bounds are right when its start and end are each within one
 * frame of the truth's. Each true transition is matched at most once.
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

interface Detection {
  kind: 'cut' | 'gradual';
  start: number;
  end: number;
}

/**
 * Cuts and gradual transitions scored apart (issue 48): a cut detection matches a true cut within
 * ±1 frame; a gradual detection matches a true gradual transition its middle falls in (±1 frame),
 * and its bounds are right when its start and end are each within one frame of the truth's. A cut
 * detected inside a gradual transition (or a gradual one at a cut) matches nothing.
 */
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
    const p = dets.length ? used.size / dets.length : 1;
    const r = truths.length ? used.size / truths.length : 1;
    return {
      n: dets.length,
      p,
      r,
      found: `${used.size}/${truths.length}`,
      bounds: `${bounds}/${truths.length}`,
    };
  };
  return { cut: kind('cut'), gradual: kind('gradual') };
}

const truth = loadTruth();
console.log(`truth: ${TRUTH_FILE}`);
console.log(
  '| video | detector | cuts: detected, P, R, found | gradual: detected, P, R, found | gradual bounds ±1 frame |',
);
console.log('|---|---|---|---|---|');
for (const [name, t] of Object.entries(truth)) {
  const file = join(DIR, name);
  const info = await probe(file);
  const ours = await detectShots(info);
  const oursDet: Detection[] = ours.transitions.map((x) => ({
    kind: x.kind === 'cut' ? 'cut' : 'gradual',
    start: x.start_frame,
    end: x.end_frame,
  }));
  // scdet reports frame-to-frame changes only: every detection is a cut
  const theirs: Detection[] = (await scdet(file, info)).map((f) => ({ kind: 'cut', start: f, end: f }));
  for (const [label, det] of [
    ['kfbench', oursDet],
    ['scdet=10', theirs],
  ] as const) {
    const { cut: c, gradual: g } = score(det, t);
    const f = (x: typeof c) => `${x.n}, ${x.p.toFixed(2)}, ${x.r.toFixed(2)}, ${x.found}`;
    console.log(`| ${name}${info.vfr ? ' (vfr)' : ''} | ${label} | ${f(c)} | ${f(g)} | ${g.bounds} |`);
  }
}
