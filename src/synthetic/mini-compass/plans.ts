/**
 * What each mini "model" renders for a case. `faithful` shows every keyframe, still for 14 frames
 * (0.58 s), where the case asks for it; each other model breaks one thing on purpose:
 *
 * | model     | keyframes hit            | what the video does                                          |
 * |-----------|--------------------------|--------------------------------------------------------------|
 * | missing   | m = ⌊N/2⌋                | shows an unrelated image in k's place                        |
 * | swapped   | a pair of neighbours      | the two exchange places (one-take: ⌊(N−1)/2⌋ and the next; multi-shot: the first shot's first and last) |
 * | mistimed  | 1                        | one-take: 20 frames (0.83 s) late, still before the next; multi-shot: moved into the next shot |
 * | repeated  | 1                        | shown again after the last keyframe (a separate run)          |
 * | flash     | ⌊N/2⌋ (multi-shot: a shot's first) | shown for one frame only                            |
 * | drift     | the odd-numbered ones    | colour cast + blur: recognisable, but not the same pixels    |
 *
 * One-take: one segment, keyframe i held around t_i = 0.75 + 1.5·i s, slides between holds.
 * Multi-shot: shots alternate a pair (first + last keyframe, 3.5 s) and a single (representative,
 * 1.5 s), joined by hard cuts.
 */
import type { RawImage } from '../../media/raw.js';
import { type Freeze, type Hold, type Segment, totalFrames } from './render.js';

export const MODELS = ['faithful', 'missing', 'swapped', 'mistimed', 'repeated', 'flash', 'drift'] as const;
export type Model = (typeof MODELS)[number];

/**
 * Quality faults, for the video-quality judge (each on top of the faithful video): `blurred` (every
 * frame box-blurred), `flicker` (brightness ±0.08, at random frame by frame), `frozen` (after the last
 * keyframe the picture freezes for 2.5 s, then jumps), `colour-drift` (red gamma rising and blue
 * falling over the video, 1.5× / 1/1.5× at the end) and `cut` (an unasked-for hard cut: a one-take
 * case's middle transition, or the first shot's inner transition, replaced by a cut to an
 * unrelated image and back).
 */
export const QUALITY_MODELS = ['blurred', 'flicker', 'frozen', 'colour-drift', 'cut'] as const;
export type QualityModel = (typeof QUALITY_MODELS)[number];

/**
 * Audio faults, for the audio judge (the faithful video, its sound track changed; every other mini
 * video's track is in sync, see `audio.ts`): `audio-lag` plays the track 0.75 s late, so the tone
 * meant for a held keyframe sounds while the picture slides on (AV Coordination's fault).
 */
export const AUDIO_MODELS = ['audio-lag'] as const;
export type AudioModel = (typeof AUDIO_MODELS)[number];
/** How late `audio-lag`'s track plays, in frames (0.75 s at 24 fps: half a one-take slot). */
export const AUDIO_LAG = 18;

export interface QualityPlan {
  segments: Segment[];
  filter?: string;
  freeze?: Freeze;
}

export function qualityPlan(
  model: QualityModel,
  structure: 'one_take' | 'multi_shot',
  im: PlanImages,
  fps: number,
): QualityPlan {
  const segments = structure === 'one_take' ? planOneTake('faithful', im) : planMultiShot('faithful', im);
  const total = totalFrames(segments);
  switch (model) {
    case 'blurred':
      return { segments, filter: 'boxblur=4:2' };
    case 'flicker':
      // a seeded pseudo-random ±0.08 per frame (a regular alternation would alias with the sampling)
      return { segments, filter: "eq=brightness='0.08*(2*gt(random(0)\\,0.5)-1)':eval=frame" };
    case 'colour-drift': {
      const d = (total / fps).toFixed(3);
      return { segments, filter: `eq=gamma_r='1+0.5*t/${d}':gamma_b='1/(1+0.5*t/${d})':eval=frame` };
    }
    case 'frozen': {
      if (structure === 'one_take') {
        const n = im.keyframes.length;
        const at = SLOT / 2 + SLOT * (n - 1) + HOLD / 2; // the first frame after the last hold
        return { segments, freeze: { at, frames: 60, skip: 6 } };
      }
      // the last shot's final frame freezes, then the video jumps to an unrelated image
      const jump: Segment = {
        frames: 12,
        holds: [{ image: im.fillers[0]!, start: 0, end: 12 }],
        lead: im.fillers[2]!,
        tail: im.fillers[3]!,
      };
      return { segments: [...segments, jump], freeze: { at: total - 1, frames: 60, skip: 0 } };
    }
    case 'cut': {
      const seg = segments[0]!;
      const holds = [...seg.holds].sort((a, b) => a.start - b.start);
      // the gap between the middle two holds of a one-take, or the two holds of the first pair shot
      const i = structure === 'one_take' ? Math.floor((holds.length - 1) / 2) : 0;
      const a = holds[i]!;
      const b = holds[i + 1]!;
      const inserted: Hold = { image: im.fillers[1]!, start: a.end, end: b.start };
      return { segments: [{ ...seg, holds: [...seg.holds, inserted] }, ...segments.slice(1)] };
    }
  }
}

export const SLOT = 36;
export const HOLD = 14;
const PAIR = 84;
const SINGLE = 36;
export const LATE = 20;

export interface PlanImages {
  keyframes: RawImage[];
  drifted: RawImage[];
  /** At least 4 images unlike every keyframe. */
  fillers: RawImage[];
}

/** Keyframes hit by a model's fault, by index (the test and the README table use this). */
export function affected(model: Model, structure: 'one_take' | 'multi_shot', n: number): number[] {
  switch (model) {
    case 'faithful':
      return [];
    case 'missing':
      return [Math.floor(n / 2)];
    case 'swapped':
      return structure === 'one_take' ? [Math.floor((n - 1) / 2), Math.floor((n - 1) / 2) + 1] : [0, 1];
    case 'mistimed':
    case 'repeated':
      return [1];
    case 'flash':
      return [flashIndex(structure, n)];
    case 'drift':
      return Array.from({ length: n }, (_, i) => i).filter((i) => i % 2 === 1);
  }
}

function flashIndex(structure: 'one_take' | 'multi_shot', n: number): number {
  if (structure === 'one_take') return Math.floor(n / 2);
  return n >= 6 ? 3 : 0; // the first keyframe of shot 2 (a pair), or of shot 0
}

/** Shots of a multi-shot case: pairs (first, last) and singles (representative), alternating. */
export function multiShotLayout(n: number): { kfs: number[] }[] {
  const shots: { kfs: number[] }[] = [];
  let i = 0;
  while (i < n) {
    if (shots.length % 2 === 0 && i + 1 < n) {
      shots.push({ kfs: [i, i + 1] });
      i += 2;
    } else {
      shots.push({ kfs: [i] });
      i += 1;
    }
  }
  return shots;
}

/** One-take target times (s) and the video length (s) of a faithful rendering. */
export function oneTakeTargets(n: number, fps: number): { targets: number[]; duration_s: number } {
  return {
    targets: Array.from({ length: n }, (_, i) => (SLOT / 2 + SLOT * i) / fps),
    duration_s: (SLOT * n) / fps,
  };
}

export function multiShotDuration(n: number, fps: number): number {
  return multiShotLayout(n).reduce((s, sh) => s + (sh.kfs.length === 2 ? PAIR : SINGLE), 0) / fps;
}

function shown(model: Model, im: PlanImages, k: number, hit: number[]): RawImage {
  if (model === 'missing' && hit.includes(k)) return im.fillers[0]!;
  if (model === 'drift' && hit.includes(k)) return im.drifted[k]!;
  if (model === 'swapped' && hit.includes(k)) return im.keyframes[k === hit[0] ? hit[1]! : hit[0]!]!;
  return im.keyframes[k]!;
}

export function planOneTake(model: Model, im: PlanImages): Segment[] {
  const n = im.keyframes.length;
  const hit = affected(model, 'one_take', n);
  const holds: Hold[] = [];
  for (let k = 0; k < n; k++) {
    const c = SLOT / 2 + SLOT * k;
    const image = shown(model, im, k, hit);
    if (model === 'flash' && hit.includes(k)) {
      holds.push({ image: im.fillers[1]!, start: c - HOLD / 2, end: c });
      holds.push({ image, start: c, end: c + 1 });
      holds.push({ image: im.fillers[1]!, start: c + 1, end: c + HOLD / 2 });
    } else {
      const shift = model === 'mistimed' && hit.includes(k) ? LATE : 0;
      holds.push({ image, start: c - HOLD / 2 + shift, end: c + HOLD / 2 + shift });
    }
  }
  let frames = SLOT * n;
  if (model === 'repeated') {
    const c = frames + SLOT / 2;
    holds.push({ image: im.keyframes[hit[0]!]!, start: c - HOLD / 2, end: c + HOLD / 2 });
    frames += SLOT;
  }
  return [{ frames, holds, lead: im.fillers[2]!, tail: im.fillers[3]! }];
}

export function planMultiShot(model: Model, im: PlanImages): Segment[] {
  const n = im.keyframes.length;
  const hit = affected(model, 'multi_shot', n);
  const segs: Segment[] = [];
  const base = { lead: im.fillers[2]!, tail: im.fillers[3]! };
  const layout = multiShotLayout(n);
  layout.forEach((shot, s) => {
    const [a, b] = shot.kfs;
    if (shot.kfs.length === 2 && a !== undefined && b !== undefined) {
      const first: Hold[] =
        model === 'flash' && hit.includes(a)
          ? [
              { image: shown(model, im, a, hit), start: 0, end: 1 },
              { image: im.fillers[1]!, start: 1, end: HOLD },
            ]
          : [{ image: shown(model, im, a, hit), start: 0, end: HOLD }];
      const lastImage = model === 'mistimed' && hit.includes(b) ? im.fillers[1]! : shown(model, im, b, hit);
      segs.push({
        ...base,
        frames: PAIR,
        holds: [...first, { image: lastImage, start: PAIR - HOLD, end: PAIR }],
      });
    } else {
      const k = shot.kfs[0]!;
      const moved = model === 'mistimed' ? layout[s - 1]?.kfs.find((x) => hit.includes(x)) : undefined;
      const holds: Hold[] =
        moved !== undefined
          ? [
              { image: im.keyframes[moved]!, start: 0, end: HOLD },
              { image: shown(model, im, k, hit), start: PAIR - HOLD, end: PAIR },
            ]
          : model === 'flash' && hit.includes(k)
            ? [
                { image: shown(model, im, k, hit), start: 0, end: 1 },
                { image: im.fillers[1]!, start: 1, end: SINGLE },
              ]
            : [{ image: shown(model, im, k, hit), start: 0, end: SINGLE }];
      // a shot that gains a keyframe is as long as a pair, so its slide stays slow (no false cut)
      segs.push({ ...base, frames: moved !== undefined ? PAIR : SINGLE, holds });
    }
  });
  if (model === 'repeated') {
    segs.push({ ...base, frames: SINGLE, holds: [{ image: im.keyframes[hit[0]!]!, start: 0, end: SINGLE }] });
  }
  return segs;
}
