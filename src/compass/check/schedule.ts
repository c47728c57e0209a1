/**
 * Which keyframe each frame of a rendered check video shows (`compass check-pipeline`): a case's
 * keyframes laid out at their target times (a multi-shot case, which has none, at evenly spaced
 * ones), and the variants the identities compare — the exact copy (each keyframe held from the
 * midpoint before its target to the midpoint after it), delayed by N frames, in reverse order, with
 * one keyframe left out, flashed for a few frames at each target, and flashed with one held 2 s.
 * A frame shows a keyframe (its index) or nothing (`null`: a grey field).
 */

export type Schedule = (n: number) => number | null;

/** The frame grid of a check video: its rate, length, and each keyframe's target and segment. */
export interface Layout {
  fps: number;
  frames: number;
  /** Each keyframe's target time (s). */
  targets: number[];
  /** Frame number of each keyframe's target: the frame shown at its target time. */
  at: number[];
  /** Segment k is frames [bounds[k], bounds[k + 1]): the midpoints between targets. */
  bounds: number[];
}

/** The rate check videos are rendered at: the scan's default cap, so every frame is sampled. */
const CHECK_FPS = 24;
/** How many frames a flashed keyframe is shown for (1/6 s at 24 fps: persistence 1/3). */
const FLASH_FRAMES = 4;
/** How long the frozen keyframe is held in the freeze variant. */
export const FREEZE_S = 2;

/**
 * The layout of a case: one-take targets as given; a multi-shot case at (k + ½)·D/n (D its
 * duration), scored as a one-take case with those targets. Targets closer than two frames apart
 * cannot each have a frame of their own: refused by the caller (`tooClose`).
 */
export function layout(
  c: { structure: string; duration_s: number; keyframes: readonly { t_target_s?: number | undefined }[] },
  fps = CHECK_FPS,
): Layout {
  const n = c.keyframes.length;
  const targets = c.keyframes.map((k, i) =>
    c.structure === 'one_take' && k.t_target_s !== undefined ? k.t_target_s : ((i + 0.5) * c.duration_s) / n,
  );
  const frames = Math.max(1, Math.ceil(c.duration_s * fps - 1e-9));
  const at = targets.map((t) => Math.min(frames - 1, Math.floor(t * fps + 1e-6)));
  const bounds = [0];
  for (let k = 1; k < n; k++) bounds.push(Math.floor(((targets[k - 1]! + targets[k]!) / 2) * fps + 1e-6));
  bounds.push(frames);
  return { fps, frames, targets, at, bounds };
}

/** The first pair of keyframes whose targets share a frame or whose segments are empty, if any. */
export function tooClose(l: Layout): [number, number] | undefined {
  for (let k = 0; k + 1 < l.targets.length; k++)
    if (l.at[k + 1]! <= l.at[k]! || l.bounds[k + 1]! <= l.bounds[k]!) return [k, k + 1];
  return undefined;
}

/** The segment a frame falls in. */
function segmentOf(l: Layout, n: number): number {
  let k = 0;
  while (k + 1 < l.targets.length && n >= l.bounds[k + 1]!) k++;
  return k;
}

/** Each keyframe held over its segment: the exact copy. */
export function held(l: Layout): Schedule {
  return (n) => segmentOf(l, n);
}

/** The exact copy `shift` frames later (grey before it). */
export function delayed(l: Layout, shift: number): Schedule {
  const h = held(l);
  return (n) => (n < shift ? null : h(n - shift));
}

/** The segments in reverse order: segment k shows keyframe n − 1 − k. */
export function reversed(l: Layout): Schedule {
  const last = l.targets.length - 1;
  return (n) => last - segmentOf(l, n);
}

/** Keyframe `gone` left out: its segment shows the keyframe before it (after it, for the first). */
export function without(l: Layout, gone: number): Schedule {
  const stand = gone > 0 ? gone - 1 : gone + 1;
  return (n) => {
    const k = segmentOf(l, n);
    return k === gone ? stand : k;
  };
}

/** Each keyframe shown `FLASH_FRAMES` frames from its target frame (within its segment), grey between. */
export function flashed(l: Layout): Schedule {
  return (n) => {
    const k = segmentOf(l, n);
    const a = l.at[k]!;
    return n >= a && n < Math.min(a + FLASH_FRAMES, l.bounds[k + 1]!) ? k : null;
  };
}

/** As `flashed`, keyframe `k` held `FREEZE_S` from its target frame (up to the next keyframe's). */
export function frozen(l: Layout, k: number): Schedule {
  const f = flashed(l);
  const a = l.at[k]!;
  const until = Math.min(a + Math.round(FREEZE_S * l.fps), l.at[k + 1] ?? l.frames, l.frames);
  return (n) => (n >= a && n < until ? k : f(n));
}

/** The delay the shift identity uses: 12 frames (0.5 s), less when a segment is shorter than twice that. */
export function shiftFrames(l: Layout): number {
  let shortest = Number.POSITIVE_INFINITY;
  for (let k = 0; k + 1 < l.bounds.length; k++)
    shortest = Math.min(shortest, l.bounds[k + 1]! - l.bounds[k]!);
  return Math.max(1, Math.min(12, Math.floor(shortest / 2)));
}
