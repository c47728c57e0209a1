/**
 * Where a case page's keyframe labels go on the strip above the timeline, so that no two overlap
 * at any window width: each label is a fixed-width box centred on its keyframe's position (a
 * fraction of the video's duration). The strip gets a minimum width at which neighbours are a
 * label apart (capped, so that a strip of close targets does not grow without end); labels that
 * still collide at that width go to further lanes (rows), each on the first lane where it fits.
 * Wider than the minimum, labels only move apart, so the lanes stay free of overlaps. Below the
 * minimum (a phone) the strip and its timeline scroll sideways together.
 */

/** A label's width in px (the 96-px keyframe image) and the gap kept between two labels. */
export const LABEL_PX = 96;
export const LABEL_GAP_PX = 6;
/** The widest minimum the strip asks for (it fits a 1280-px window: 1240 px of content). */
export const STRIP_MAX_MIN_PX = 1100;

export interface StripLayout {
  /** Lane (0 = top row) of each label, in the order given. */
  lanes: number[];
  /** How many lanes the strip has. */
  laneCount: number;
  /** The strip's minimum width in px (label centres span it; half a label of room on each side is extra). */
  minWidthPx: number;
}

export function stripLayout(positions: readonly number[]): StripLayout {
  const step = LABEL_PX + LABEL_GAP_PX;
  const sorted = [...positions].sort((a, b) => a - b);
  let need = 0;
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]! - sorted[i - 1]!;
    need = Math.max(need, gap > 0 ? step / gap : Number.POSITIVE_INFINITY);
  }
  const minWidthPx = Math.ceil(Math.min(STRIP_MAX_MIN_PX, Math.max(step, need)));
  // first fit, left to right, at the minimum width
  const order = positions.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const laneEnds: number[] = [];
  const lanes = new Array<number>(positions.length).fill(0);
  for (const { p, i } of order) {
    const x = p * minWidthPx;
    let lane = laneEnds.findIndex((end) => x - end >= step - 1e-9);
    if (lane < 0) lane = laneEnds.push(Number.NEGATIVE_INFINITY) - 1;
    laneEnds[lane] = x;
    lanes[i] = lane;
  }
  return { lanes, laneCount: Math.max(1, laneEnds.length), minWidthPx };
}
