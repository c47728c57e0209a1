/**
 * One dissolve, one transition (issue 48 item 1: "A dissolve of any length, into any content, is
 * one gradual transition with its true start and end (within one frame)"). After cuts and gradual
 * runs are found (`shot-cuts.ts`, `shot-gradual.ts`):
 *  - a cut inside a dissolve is absorbed: into busy footage (texture changing every frame) a
 *    dissolve's frames are not on a pixel ramp, so its strongest frame can pass for a cut. The cut
 *    becomes part of a gradual transition when the frames around it are a blend of the span's ends
 *    whose blend weight rises in steps (none over RAMP_JUMP of the whole; of such spans, the one
 *    nearest a straight ramp gives the bounds), or when a gradual transition begins right after
 *    it (or ends right before it) and the cut's frame blends into it;
 *  - a fade out to a flat field and the fade in after it (through black or white) are one;
 *    a held flat card between two dissolves (over a quarter of `maxGradual_s`) is not;
 *  - each gradual transition's bounds are widened to the frames where the blend really starts and
 *    ends: a long dissolve's first and last steps are smaller than the adaptive floor that found
 *    its middle, but they still move the picture along the line from its first frame to its last
 *    by at least EDGE_STEP × the mean step;
 *  - a start the step test puts late (out of busy footage) is moved to where the blend weight's
 *    straight ramp starts (`rampStart`, at most 2 frames earlier).
 */
import { rampsUp, weights } from './shot-blend.js';
import { EDGE_STEP } from './shot-features.js';
import type { ShotFrames } from './shot-frames.js';
import { isGradual } from './shot-gradual.js';
import type { ShotOptions, Transition } from './shot-options.js';

/** A gradual transition (as [first changed frame, last]) that holds the cut at c, if any. */
function dissolveAround(
  F: ShotFrames,
  o: ShotOptions,
  c: number,
  near: { before?: Transition | undefined; after?: Transition | undefined },
  maxLen: number,
): [number, number] | undefined {
  const { before, after } = near;
  if (after && isGradual(F, o, c - 1, after.end_frame, maxLen)) return [c, after.end_frame];
  if (before && isGradual(F, o, before.start_frame - 1, c, maxLen)) return [before.start_frame, c];
  // the span whose blend weights come nearest a straight ramp from 0 to 1 (a dissolve's ends are
  // its two pure shots: a span reaching past them flattens at one end), the earliest on a tie
  const reach = Math.max(4, Math.round(maxLen / 8));
  let best: [number, number] | undefined;
  let bestDev = Number.POSITIVE_INFINITY;
  for (let s = Math.max(1, c - 3); s < c; s++)
    for (let e = Math.max(c + 1, s + 3); e <= Math.min(F.length - 1, c + reach); e++) {
      if (!rampsUp(F, s, e) || !isGradual(F, o, s, e, maxLen)) continue;
      const dev = Math.max(...weights(F, s, e).map((w, i) => Math.abs(w - i / (e - s))));
      if (dev < bestDev - 1e-9) {
        bestDev = dev;
        best = [s + 1, e];
      }
    }
  return best;
}

/**
 * Cuts that are part of a dissolve become (part of) one gradual transition; `bounded`: the first
 * frames of those whose bounds the blend weights gave (not to be widened).
 */
export function absorbCuts(
  F: ShotFrames,
  o: ShotOptions,
  cuts: Set<number>,
  gradual: Transition[],
  maxLen: number,
): { gradual: Transition[]; bounded: Set<number> } {
  let out = [...gradual];
  const bounded = new Set<number>();
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (out.some((g) => g.start_frame <= c && c <= g.end_frame)) {
      cuts.delete(c); // inside a dissolve already absorbed
      continue;
    }
    const after = out.find((g) => g.start_frame > c && g.start_frame - c <= 2);
    const before = out.find((g) => g.end_frame < c && c - g.end_frame <= 2);
    const span = dissolveAround(F, o, c, { before, after }, maxLen);
    if (!span) continue;
    if (!after && !before) bounded.add(span[0]);
    cuts.delete(c);
    let [a, b] = span;
    for (const g of out)
      if (g.end_frame >= a && g.start_frame <= b) {
        a = Math.min(a, g.start_frame);
        b = Math.max(b, g.end_frame);
      }
    out = out.filter((g) => g.end_frame < a || g.start_frame > b);
    out.push({ kind: 'gradual', start_frame: a, end_frame: b });
    out.sort((x, y) => x.start_frame - y.start_frame);
  }
  return { gradual: out, bounded };
}

/**
 * A fade out to a flat field and the fade in from it, at most a quarter of `maxLen` apart (1 s
 * by default) and `maxLen` long together, are one transition.
 */
export function joinThroughFlat(
  F: ShotFrames,
  gradual: Transition[],
  cuts: Set<number>,
  maxLen: number,
): Transition[] {
  const out: Transition[] = [];
  for (const g of gradual) {
    const prev = out[out.length - 1];
    if (
      prev &&
      g.end_frame - prev.start_frame <= maxLen &&
      g.start_frame - prev.end_frame <= maxLen / 4 && // a held card between two dissolves stays apart
      flatBetween(F, prev.end_frame, g.start_frame, cuts)
    ) {
      out[out.length - 1] = { ...prev, end_frame: g.end_frame };
      continue;
    }
    out.push(g);
  }
  return out;
}

function flatBetween(F: ShotFrames, a: number, b: number, cuts: Set<number>): boolean {
  let flat = false;
  for (let m = a; m <= b; m++) {
    if (m > a && cuts.has(m)) return false;
    if (F.flat[m]) flat = true;
  }
  return flat;
}

/**
 * Frame m's step along the line from frame `from` to frame `to`: its change from the frame before
 * it (or after it, going back) projected on that line, as a share of the line's length.
 */
function along(T: Uint8Array[], m: number, prev: number, from: number, to: number): number {
  const A = T[from]!;
  const B = T[to]!;
  let dot = 0;
  let norm = 0;
  for (let k = 0; k < A.length; k++) {
    const d = B[k]! - A[k]!;
    dot += (T[m]![k]! - T[prev]![k]!) * d;
    norm += d * d;
  }
  return norm ? dot / norm : 0;
}

/**
 * The transition widened while the next frame outside still moves along the line from the frame
 * before it to its last frame (the line of the span so far, which the tested frame is not on) by
 * ≥ EDGE_STEP × the mean step, between the neighbouring edges lo and hi and up to `maxLen`
 * frames — on the 6×4 block means, which texture and grain changing every frame barely move.
 */
function widen(F: ShotFrames, g: Transition, lo: number, hi: number, maxLen: number): Transition {
  const T = F.coarse();
  let a = g.start_frame;
  let b = g.end_frame;
  // k = 1, or 2 over a repeated frame (a rate conversion's duplicate moves nothing)
  const back = (k: number) => along(T, a - k, a - k - 1, a - 1, b);
  const fwd = (k: number) => along(T, b + k, b + k - 1, a - 1, b);
  // first its ends tightened (at most two frames each): a run's last frame can be the next
  // shot's own motion, marked with the blend
  for (let k = 0; k < 2 && b - a > 3 && along(T, b, b - 1, a - 1, b) < EDGE_STEP / (b - a + 1); k++) b--;
  for (let k = 0; k < 2 && b - a > 3 && along(T, a, a - 1, a - 1, b) < EDGE_STEP / (b - a + 1); k++) a++;
  for (;;) {
    const min = EDGE_STEP / (b - a + 1);
    if (b - a + 1 >= maxLen) break;
    if (a - 2 >= lo && back(1) >= min) a--;
    else if (a - 3 >= lo && back(2) >= min && back(1) + back(2) >= 1.5 * min) a -= 2;
    else break;
  }
  for (;;) {
    const min = EDGE_STEP / (b - a + 1);
    if (b - a + 1 >= maxLen) break;
    if (b + 1 < hi && fwd(1) >= min) b++;
    else if (b + 2 < hi && fwd(2) >= min && fwd(1) + fwd(2) >= 1.5 * min) b += 2;
    else break;
  }
  return { ...g, start_frame: a, end_frame: b };
}

/** The mean of the 6×4 block means of frames x..y. */
function meanCoarse(T: Uint8Array[], x: number, y: number): Float64Array {
  const out = new Float64Array(T[x]!.length);
  for (let m = x; m <= y; m++) for (let k = 0; k < out.length; k++) out[k]! += T[m]![k]! / (y - x + 1);
  return out;
}

/**
 * Where the dissolve's straight ramp starts (issue 48 item 1: "its true start and end (within one
 * frame)"): out of busy footage (a Game of Life) the first blend steps hide under the outgoing
 * shot's own change, so the step test of `widen` starts a dissolve late. Each frame's blend weight
 * on the line from the mean of 4 frames before the transition to the mean of 4 after it, fitted by
 * a straight line where it is 0.2–0.8, reaches 0 at the ramp's start; the start moves there when
 * that is earlier, by at most START_REACH frames (never past lo, the edge before, nor into the
 * anchor frames).
 */
function rampStart(F: ShotFrames, g: Transition, lo: number): Transition {
  const T = F.coarse();
  const a = g.start_frame;
  const b = g.end_frame;
  if (a - 5 <= lo || b + 5 >= F.length) return g;
  const A = meanCoarse(T, a - 5, a - 2);
  const B = meanCoarse(T, b + 2, b + 5);
  let norm = 0;
  for (let k = 0; k < A.length; k++) norm += (B[k]! - A[k]!) ** 2;
  if (norm === 0) return g;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let m = a; m <= b; m++) {
    let dot = 0;
    for (let k = 0; k < A.length; k++) dot += (T[m]![k]! - A[k]!) * (B[k]! - A[k]!);
    const w = dot / norm;
    if (w < 0.2 || w > 0.8) continue;
    xs.push(m);
    ys.push(w);
  }
  if (xs.length < 3) return g;
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  if (sxx === 0 || sxy <= 0) return g;
  const start = Math.round(mx - (my * sxx) / sxy);
  return start < a && start >= a - START_REACH ? { ...g, start_frame: start } : g;
}

/** How many frames `rampStart` may move a transition's start earlier. */
const START_REACH = 2;

/** Every gradual transition widened (but those `bounded`), between its neighbours (cuts and transitions). */
export function widenAll(
  F: ShotFrames,
  gradual: Transition[],
  cuts: Set<number>,
  bounded: Set<number>,
  maxLen: number,
): Transition[] {
  const edges = [...cuts].sort((x, y) => x - y);
  return gradual.map((g, i) => {
    if (bounded.has(g.start_frame)) return g;
    const before = Math.max(0, ...edges.filter((c) => c < g.start_frame), gradual[i - 1]?.end_frame ?? 0);
    const after = Math.min(
      F.length,
      ...edges.filter((c) => c > g.end_frame),
      gradual[i + 1]?.start_frame ?? F.length,
    );
    return rampStart(F, widen(F, g, before, after, maxLen), before);
  });
}
