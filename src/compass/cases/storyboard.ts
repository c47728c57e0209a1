/**
 * `compass grid`: a case's keyframes as one storyboard grid image, in their order (for generators
 * that take one conditioning image; the prompt templates say how to read it).
 */
import { type GridOptions, gridFiles } from '../../media/grid.js';
import type { LoadedCase } from './cases.js';

export async function storyboardGrid(
  c: LoadedCase,
  out: string,
  opts: GridOptions = {},
): Promise<{ case_id: string; keyframes: number; out: string; width: number; height: number }> {
  const size = await gridFiles(
    c.keyframes.map((k) => k.image),
    out,
    opts,
  );
  return { case_id: c.case_id, keyframes: c.keyframes.length, out, ...size };
}
