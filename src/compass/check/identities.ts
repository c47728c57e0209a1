/**
 * `compass check-pipeline`: the identities a sceptical researcher checks before trusting any
 * number, on the user's own keyframes (issue 56). The case's keyframes are rendered losslessly into
 * videos at their target times (schedule.ts) and each video is scored with the user's settings:
 *  - the exact copy scores presence, ordering, localization and uniqueness 1, persistence as long
 *    as each keyframe is held, and fidelity ≥ 0.99;
 *  - the copy delayed by N frames places every keyframe's f* exactly N/fps later;
 *  - a half-size copy re-encoded at CRF 28 finds every keyframe, fidelity ≥ 0.8 (`LOSSY_FIDELITY`);
 *  - the keyframes in reverse order: ordering falls to 1/n, fidelity stays ≥ 0.99;
 *  - one keyframe left out: presence (n − 1)/n;
 *  - keyframes flashed for a few frames, one of them held 2 s: that one's persistence rises, and
 *    uniqueness stays.
 */
import { join } from 'node:path';
import { BadInputError } from '../../errors.js';
import type { ResizeFit } from '../../media/image.js';
import { loadImage, resizeImage } from '../../media/image.js';
import type { RawImage } from '../../media/raw.js';
import { type StillsVideo, transcode, writeStillsVideo } from '../../media/stills-video.js';
import type { LoadedCase } from '../cases/cases.js';
import type { ResponseReport } from '../schemas/response.js';
import {
  delayed,
  FREEZE_S,
  flashed,
  frozen,
  held,
  type Layout,
  layout,
  reversed,
  type Schedule,
  shiftFrames,
  tooClose,
  without,
} from './schedule.js';

/** One identity's test: what it asks of one number, the number, whether it holds. */
interface IdentityCheck {
  identity: string;
  check: string;
  expected: string;
  value: number;
  holds: boolean;
}

export interface PipelineCheck {
  case_id: string;
  /** The targets the keyframes were rendered at (a multi-shot case: evenly spaced). */
  targets: number[];
  fps: number;
  width: number;
  height: number;
  checks: IdentityCheck[];
  holds: boolean;
}

/** What the check needs: a folder of its own, how a video is scored (the user's settings), the fit. */
export interface CheckDeps {
  dir: string;
  score: (video: string, c: LoadedCase) => Promise<ResponseReport>;
  fit: ResizeFit;
  /** Persistence's saturation (`--persistence-s`): how long the exact copy's holds must last. */
  persistence_s: number;
  /** Called before each video is rendered and scored. */
  onVideo?: (name: string) => void;
}

/**
 * The half-size CRF 28 copy's fidelity bound: "fidelity high". A real 720p clip keeps 0.93; the mini
 * set's detailed 320×180 pictures, halved to 160×90, 0.86 — the pixel score of a lossy copy falls
 * with detail, so the bound is the level below which the copy no longer looks like the keyframe.
 */
const LOSSY_FIDELITY = 0.8;

/** The longest side a check video is rendered at (the keyframes' own size when smaller). */
const CHECK_LONG_SIDE = 640;

export async function checkPipeline(c: LoadedCase, d: CheckDeps): Promise<PipelineCheck> {
  const l = layout(c);
  const close = tooClose(l);
  if (close) {
    const [a, b] = close.map((k) => c.keyframes[k]!);
    throw new BadInputError(
      `case ${c.case_id}: keyframes ${a!.kf_id} and ${b!.kf_id} (targets ${l.targets[close[0]]!.toFixed(3)} s and ${l.targets[close[1]]!.toFixed(3)} s) share a frame at ${l.fps} fps: the check cannot show each on frames of its own`,
    );
  }
  const n = c.keyframes.length;
  const size = await renderSize(c.keyframes[0]!.image);
  const images = await Promise.all(
    c.keyframes.map(async (k) => resizeImage(await loadImage(k.image), size.width, size.height, d.fit)),
  );
  // scored as a one-take case at the rendered targets
  const asRendered: LoadedCase = {
    ...c,
    structure: 'one_take',
    keyframes: c.keyframes.map((k, i) => ({ ...k, t_target_s: l.targets[i]! })),
  };
  const video = async (name: string, s: Schedule) => {
    d.onVideo?.(name);
    const file = join(d.dir, `${name}.mkv`);
    await writeStillsVideo(file, stills(l, size, images, s));
    return file;
  };
  const score = (file: string) => d.score(file, asRendered);
  const checks: IdentityCheck[] = [];
  const copyFile = await video('copy', held(l));
  const copy = await score(copyFile);
  checks.push(...exactCopy(copy, l, d.persistence_s));
  const shift = shiftFrames(l);
  checks.push(shifted(copy, await score(await video('delayed', delayed(l, shift))), shift, l.fps));
  d.onVideo?.('half-crf28');
  const half = join(d.dir, 'half-crf28.mp4');
  await transcode(copyFile, half, { scale: 0.5, crf: 28 });
  checks.push(...rescaled(await score(half)));
  if (n >= 2) {
    checks.push(...reversal(await score(await video('reversed', reversed(l))), n));
    const gone = Math.floor(n / 2);
    const left = await score(await video('without', without(l, gone)));
    checks.push(
      check(
        `keyframe ${gone + 1} left out`,
        'presence',
        `= ${fmt((n - 1) / n)}`,
        left.metrics.presence,
        (v) => near(v, (n - 1) / n),
      ),
    );
  }
  const r = roomiest(l);
  const flash = await score(await video('flashed', flashed(l)));
  const held2 = await score(await video('frozen', frozen(l, r)));
  checks.push(...freeze(flash, held2, r));
  return {
    case_id: c.case_id,
    targets: l.targets,
    fps: l.fps,
    ...size,
    checks,
    holds: checks.every((x) => x.holds),
  };
}

/** The render size: the first keyframe's, the long side at most `CHECK_LONG_SIDE`, both sides even. */
async function renderSize(file: string): Promise<{ width: number; height: number }> {
  const img = await loadImage(file);
  const s = Math.min(1, CHECK_LONG_SIDE / Math.max(img.width, img.height));
  const even = (x: number) => Math.max(2, 2 * Math.round((x * s) / 2));
  return { width: even(img.width), height: even(img.height) };
}

function stills(
  l: Layout,
  size: { width: number; height: number },
  images: readonly RawImage[],
  s: Schedule,
): StillsVideo {
  const grey: RawImage = {
    ...size,
    channels: 3,
    data: new Uint8Array(size.width * size.height * 3).fill(128),
  };
  return { ...size, fps: l.fps, frames: l.frames, frame: (f) => images[s(f) ?? -1] ?? grey };
}

const fmt = (x: number) => String(Math.round(x * 10000) / 10000);
const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;

function check(
  identity: string,
  what: string,
  expected: string,
  value: number,
  ok: (v: number) => boolean,
): IdentityCheck {
  return { identity, check: what, expected, value, holds: ok(value) };
}

function exactCopy(r: ResponseReport, l: Layout, persistence_s: number): IdentityCheck[] {
  // each keyframe is held over its segment: persistence as long as that lasts
  const persist = l.targets.map((_, k) =>
    Math.min(1, (l.bounds[k + 1]! - l.bounds[k]!) / l.fps / persistence_s),
  );
  const expected = persist.reduce((a, b) => a + b, 0) / persist.length;
  const m = r.metrics;
  const one = (metric: keyof typeof m) => check('exact copy', metric, '= 1', m[metric], (v) => near(v, 1));
  return [
    one('presence'),
    one('ordering'),
    one('localization'),
    one('uniqueness'),
    check('exact copy', 'persistence', `≥ ${fmt(expected)}`, m.persistence, (v) => v >= expected - 1e-6),
    check('exact copy', 'fidelity', '≥ 0.99', m.fidelity, (v) => v >= 0.99),
  ];
}

/** Every keyframe's f* moves by exactly `shift` frames: the largest error (s) over the keyframes. */
function shifted(copy: ResponseReport, late: ResponseReport, shift: number, fps: number): IdentityCheck {
  const want = shift / fps;
  let err = 0;
  copy.keyframes.forEach((k, i) => {
    const l = late.keyframes[i];
    err = Math.max(
      err,
      !k.matched || !l?.matched ? Number.POSITIVE_INFINITY : Math.abs(l.t_peak_s - k.t_peak_s - want),
    );
  });
  return check(
    `delayed ${shift} frames`,
    `t_peak_s moves by ${fmt(want)} s (largest error, s)`,
    '< 1e-6',
    err,
    (v) => v < 1e-6,
  );
}

function rescaled(r: ResponseReport): IdentityCheck[] {
  return [
    check('half size, CRF 28', 'presence', '= 1', r.metrics.presence, (v) => near(v, 1)),
    check(
      'half size, CRF 28',
      'fidelity',
      `≥ ${LOSSY_FIDELITY}`,
      r.metrics.fidelity,
      (v) => v >= LOSSY_FIDELITY,
    ),
  ];
}

function reversal(r: ResponseReport, n: number): IdentityCheck[] {
  return [
    check('reversed', 'ordering', `= ${fmt(1 / n)}`, r.metrics.ordering, (v) => near(v, 1 / n)),
    check('reversed', 'fidelity', '≥ 0.99', r.metrics.fidelity, (v) => v >= 0.99),
  ];
}

function freeze(flash: ResponseReport, held2: ResponseReport, k: number): IdentityCheck[] {
  const before = flash.keyframes[k]?.scores.persistence ?? 0;
  const after = held2.keyframes[k]?.scores.persistence ?? 0;
  const name = `keyframe ${k + 1} held ${FREEZE_S} s`;
  return [
    check(
      name,
      `its persistence rises from ${fmt(before)}`,
      `> ${fmt(before)}`,
      after,
      (v) => v > before + 1e-9,
    ),
    check(name, 'uniqueness stays', `= ${fmt(flash.metrics.uniqueness)}`, held2.metrics.uniqueness, (v) =>
      near(v, flash.metrics.uniqueness),
    ),
  ];
}

/** The keyframe with the most room after its target (the freeze is cut at the next one's). */
function roomiest(l: Layout): number {
  let best = 0;
  let room = -1;
  l.at.forEach((a, k) => {
    const r = (l.at[k + 1] ?? l.frames) - a;
    if (r > room) {
      room = r;
      best = k;
    }
  });
  return best;
}
