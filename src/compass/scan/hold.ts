/**
 * The hold around a keyframe's exact frame f*(k): which frames match the keyframe as well as f*(k)
 * does (stage2.ts, both ways of reading stage 2; docs/compass.md, "The hold").
 */
import { lumaMse, psnrOfMse } from '../../media/window.js';

/**
 * Two frames closer than this (luma PSNR, dB) are one picture to every measure kfbench reports:
 * the pixel score's saturation (`psnrHigh`, appendix B's 50 dB). f*(k)'s match is counted no better
 * than this when its hold is decided, so that a keyframe cut from the video itself (matched
 * losslessly, issue 56) is still held over a freeze whose re-encoded copies are a level apart.
 */
const SAME_PICTURE_DB = 50;
const SAME_PICTURE_MSE = (255 * 255) / 10 ** (SAME_PICTURE_DB / 10);

/**
 * A frame belongs to f*'s hold: its MSE against the keyframe within `match_db` of f*'s
 * (10^(match_db/10) times it at most; f*'s counted as no better than `SAME_PICTURE_DB`), or — only
 * when `tolerance_db` is set (not the default) — its luma within that PSNR of f*'s.
 */
export function inHold(
  y: Uint8Array,
  best: Uint8Array,
  mse: number,
  bestMse: number,
  tolerance_db: number | null,
  match_db: number,
): boolean {
  if (mse <= Math.max(bestMse, SAME_PICTURE_MSE) * 10 ** (match_db / 10)) return true;
  return tolerance_db !== null && psnrOfMse(lumaMse(y, best)) >= tolerance_db;
}

/**
 * The hold around f*(k) (frame `best`), the one rule both ways of reading stage 2 use (through
 * `WindowMatch`, window-match.ts): the contiguous frames from `lo` to `hi` around it that `held` accepts (`inHold`).
 */
export function holdAround(
  best: number,
  lo: number,
  hi: number,
  held: (n: number) => boolean,
): [number, number] {
  let h0 = best;
  let h1 = best;
  while (h0 - 1 >= lo && held(h0 - 1)) h0--;
  while (h1 + 1 <= hi && held(h1 + 1)) h1++;
  return [h0, h1];
}
