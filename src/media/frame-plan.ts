/**
 * Which frames a request reads: exact frame numbers, and the ffmpeg `select` expression that keeps
 * exactly them, by each frame's decoded number `n` (never by an `fps` filter, whose choice follows
 * rounded timestamps). Rate requests (`{kind: 'rate'}`) use an O(1) integer expression inside
 * `select`, exact for rational frame rates such as 24000/1001.
 */
import { BadInputError } from '../errors.js';
import { frameAt, rateToRational } from './probe.js';
import { frameAtTimeIn } from './timeline.js';
import type { Rational, VideoInfo } from './video-info.js';

export type FrameRequest =
  | { kind: 'all' }
  /** Samples at the midpoints t_k = (k + 0.5)/rate for every t_k < duration. */
  | { kind: 'rate'; rate: number }
  | { kind: 'times'; times: number[] }
  | { kind: 'indices'; indices: number[] };

/** The exact frame numbers a rate request selects in a video of the given rate and frame count. */
export function rateIndices(rate: Rational, fps: Rational, frames: number): number[] {
  // frame of sample k: ⌊(2k+1)·b·p / (2·a·q)⌋ with rate a/b and fps p/q — integers only.
  const { num: a, den: b } = rate;
  const { num: p, den: q } = fps;
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const n = Math.floor(((2 * k + 1) * b * p) / (2 * a * q));
    if (n >= frames) break;
    if (out[out.length - 1] !== n) out.push(n);
  }
  return out;
}

function rateSelectExpr(rate: Rational, fps: Rational): string | null {
  const { num: a, den: b } = rate;
  const { num: p, den: q } = fps;
  if (2 * a * q >= 2 * b * p) return null; // rate ≥ fps: every frame
  // frame n is selected iff some sample falls in [n/fps, (n+1)/fps):  mod(bp − 2aqn, 2bp) < 2aq
  return `lt(mod(${b * p}-${2 * a * q}*n\\,${2 * b * p})\\,${2 * a * q})`;
}

function indicesSelectExpr(sorted: number[]): string {
  const terms: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    terms.push(j === i ? `eq(n\\,${sorted[i]})` : `between(n\\,${sorted[i]}\\,${sorted[j]})`);
    i = j + 1;
  }
  return balancedSum(terms);
}

/** Terms a flat sum may hold: ffmpeg's expression parser refuses a sum of more than about 100. */
const FLAT_TERMS = 16;

/**
 * `a+b+…` as a balanced tree of parenthesised halves: ffmpeg's parser nests one level per term of
 * a flat sum and gives up past ~100 ("Error while parsing expression"), while a balanced tree of
 * n terms nests only log2(n / FLAT_TERMS) levels, so any number of scattered frames fits one select.
 */
export function balancedSum(terms: readonly string[]): string {
  if (terms.length <= FLAT_TERMS) return terms.join('+');
  const half = Math.ceil(terms.length / 2);
  return `(${balancedSum(terms.slice(0, half))})+(${balancedSum(terms.slice(half))})`;
}

export interface FramePlan {
  /** Sorted unique frame numbers to decode, or null for every frame. */
  indices: number[] | null;
  /** The `select` expression, or null when every frame is kept. */
  select: string | null;
}

/** Turn a request into exact frame numbers (validated against the video) and a select expression. */
export function planFrames(info: VideoInfo, req: FrameRequest): FramePlan {
  switch (req.kind) {
    case 'all':
      return { indices: null, select: null };
    case 'rate': {
      const rate = rateToRational(req.rate);
      if (info.times) {
        // variable rate: the frame shown at each sample time (k + ½)/rate, by pts
        const indices: number[] = [];
        for (let k = 0; (k + 0.5) / req.rate < info.duration_s; k++) {
          const n = frameAtTimeIn(info.times, (k + 0.5) / req.rate);
          if (indices[indices.length - 1] !== n) indices.push(n);
        }
        if (indices.length === info.frames) return { indices: null, select: null };
        return { indices, select: indices.length ? indicesSelectExpr(indices) : 'eq(0\\,1)' };
      }
      const indices = rateIndices(rate, info.fpsRational, info.frames);
      return { indices, select: rateSelectExpr(rate, info.fpsRational) ?? null };
    }
    case 'times': {
      const indices = req.times.map((t) => {
        if (!Number.isFinite(t) || t < 0)
          throw new BadInputError(`time ${t} is not a time ≥ 0`, { file: info.file });
        const n = frameAt(info, t);
        if (n >= info.frames || (info.times && t >= info.duration_s)) {
          throw new BadInputError(
            `time ${t} s is past the last frame (${info.frames} frames, ${info.duration_s.toFixed(3)} s)`,
            { file: info.file },
          );
        }
        return n;
      });
      const sorted = [...new Set(indices)].sort((x, y) => x - y);
      return { indices: sorted, select: sorted.length ? indicesSelectExpr(sorted) : 'eq(0\\,1)' };
    }
    case 'indices': {
      for (const n of req.indices) {
        if (!Number.isInteger(n) || n < 0 || n >= info.frames) {
          throw new BadInputError(`frame ${n} is outside 0..${info.frames - 1}`, { file: info.file });
        }
      }
      const sorted = [...new Set(req.indices)].sort((x, y) => x - y);
      return { indices: sorted, select: sorted.length ? indicesSelectExpr(sorted) : 'eq(0\\,1)' };
    }
  }
}

/**
 * Frames the header promised but the file lacks are an error; so is a file with none. A stream
 * begun mid-GOP (`VideoInfo.decoding`, mid-stream.ts) is read without its decoder's warnings
 * counting as damage: a decode of it that stops short of the frames its probe counted is truncated.
 */
export function checkPlanCount(info: VideoInfo, plan: FramePlan, got: number): void {
  if (plan.indices && got < plan.indices.length) {
    throw new BadInputError(
      `has fewer frames than its header says: frame ${plan.indices[got]} could not be decoded`,
      { file: info.file },
    );
  }
  if (!plan.indices && got === 0) throw new BadInputError('has no decodable frames', { file: info.file });
  if (!plan.indices && info.decoding && got < info.frames)
    throw new BadInputError(
      `video is truncated: the decoder stopped after ${got} of its ${info.frames} frames`,
      {
        file: info.file,
      },
    );
}
