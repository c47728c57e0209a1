/**
 * The keyframe strip's layout (src/web/strip-lanes.ts): at the strip's minimum width no two labels
 * of a lane are closer than a label and its gap, so none overlap at any wider width either; the
 * minimum is what spreads neighbours a label apart, capped to fit a 1280-px window.
 */
import { describe, expect, it } from 'vitest';
import { LABEL_GAP_PX, LABEL_PX, STRIP_MAX_MIN_PX, stripLayout } from '../../src/web/strip-lanes.js';

const STEP = LABEL_PX + LABEL_GAP_PX;

function overlaps(positions: number[]): string[] {
  const s = stripLayout(positions);
  const out: string[] = [];
  for (let i = 0; i < positions.length; i++)
    for (let j = i + 1; j < positions.length; j++)
      if (s.lanes[i] === s.lanes[j] && Math.abs(positions[i]! - positions[j]!) * s.minWidthPx < STEP - 1e-6)
        out.push(`${i} and ${j} in lane ${s.lanes[i]}`);
  return out;
}

describe('stripLayout', () => {
  it('three keyframes far apart: one lane, the width that keeps them a label apart', () => {
    const s = stripLayout([0.25, 0.5, 0.75]);
    expect(s.laneCount).toBe(1);
    expect(s.minWidthPx).toBe(Math.ceil(STEP / 0.25));
  });

  it('twelve evenly spaced (the mini ot-12): capped at the widest minimum, two lanes, nothing overlapping', () => {
    const at = Array.from({ length: 12 }, (_, k) => (k + 0.5) / 12);
    const s = stripLayout(at);
    expect(s.minWidthPx).toBe(STRIP_MAX_MIN_PX);
    expect(s.laneCount).toBe(2);
    expect(s.lanes).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    expect(overlaps(at)).toEqual([]);
  });

  it('targets at the same time or a frame apart get lanes of their own, in any input order', () => {
    const at = [0.9, 0.1, 0.1, 0.1001, 0.5, 0.11];
    expect(overlaps(at)).toEqual([]);
    expect(stripLayout(at).laneCount).toBe(4);
  });
});
