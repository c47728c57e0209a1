/**
 * bench/shots-accuracy — kfbench's shot segmentation against ffmpeg's `scdet` filter
 * (threshold 10) on the fixture videos with known transitions (test/fixtures/media/truth.json).
 *
 *   npx tsx bench/shots-accuracy.ts
 *
 * A detection matches a cut when it is within ±1 frame of it, and a gradual transition when it
 * falls inside the transition (±1 frame). Each true transition is matched at most once;
 * precision = matched detections / detections, recall = matched transitions / transitions.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { detectShots } from '../src/media/shots.js';
import { probe } from '../src/media/video.js';

const ROOT = resolve(import.meta.dirname, '..');
const FIX = join(ROOT, 'test', 'fixtures', 'media');
interface Truth {
  cuts: number[];
  gradual: { start_frame: number; end_frame: number }[];
}
const truth = JSON.parse(readFileSync(join(FIX, 'truth.json'), 'utf8')) as Record<string, Truth>;

function scdet(file: string, fps: number): number[] {
  const r = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-i', file, '-vf', 'scdet=threshold=10', '-f', 'null', '-'],
    {
      encoding: 'utf8',
    },
  );
  return [...r.stderr.matchAll(/lavfi\.scd\.time: ([\d.]+)/g)].map((m) => Math.round(Number(m[1]) * fps));
}

function score(detections: number[], t: Truth) {
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
    recall: matched / targets.length,
    cuts: `${found('cut')}/${t.cuts.length}`,
    gradual: `${found('gradual')}/${t.gradual.length}`,
  };
}

console.log('| video | detector | detections | precision | recall | cuts found | gradual found |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, t] of Object.entries(truth)) {
  const info = await probe(join(FIX, name));
  const ours = await detectShots(info);
  const oursDet = ours.transitions.map((x) =>
    x.kind === 'cut' ? x.start_frame : Math.floor((x.start_frame + x.end_frame) / 2),
  );
  for (const [label, det] of [
    ['kfbench', oursDet],
    ['scdet=10', scdet(join(FIX, name), info.fps)],
  ] as const) {
    const s = score([...det], t);
    console.log(
      `| ${name} | ${label} | ${s.detections} | ${s.precision.toFixed(2)} | ${s.recall.toFixed(2)} | ${s.cuts} | ${s.gradual} |`,
    );
  }
}
