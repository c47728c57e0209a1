/**
 * Stage 2's one rule for placing a keyframe's exact frame inside its window ("a staged matching
 * pipeline for locating keyframes in exact temporal windows", KeyFrame-Compass, Figure 2; our
 * stages: docs/compass.md, "Staged matching"). Both ways of reading stage 2 — riding along stage 1
 * (`stage2-along.ts`) and seeking to the windows afterwards (`refine`, `stage2.ts`) — feed each
 * window's frames, in order, to one `WindowMatch`; it alone picks f*(k) (least luma MSE against the
 * keyframe, ties: the earliest) and takes the hold around it (`holdAround`/`inHold`, hold.ts).
 *
 * Its limit, the same on both paths: a window keeps at most `STAGE2_MAX_KEPT` frames (600: about
 * 20 s at 30 fps, 37 kB each at 256×144). A longer window drops its earliest frames — unless f*(k)
 * is the earliest kept, when each later frame is dropped instead, uncompared — and its hold is cut
 * there. The refinement then records how many frames were dropped (`dropped` in the scan's
 * `refined`), never a silent cap; its `window` stays the frames read.
 */
import { InternalError } from '../../errors.js';
import { lumaMse } from '../../media/window.js';
import { holdAround, inHold } from './hold.js';

/** Frames one window keeps at most, on both ways of reading stage 2. */
export const STAGE2_MAX_KEPT = 600;

/** A frame of a window: its frame number in the file and its luma at the working size (null: none). */
export interface WindowFrame {
  index: number;
  y: Uint8Array | null;
}

/** A window's f*(k), its MSE, what the caller kept for it, its hold, the frames kept and the frames dropped. */
export interface WindowResult<F extends WindowFrame, X> {
  best: F;
  mse: number;
  extra: X;
  hold: [F, F];
  /** The window: the first and the last frame added (kept or not). */
  window: [F, F];
  /** Frames not kept (the limit reached); 0 when none. */
  dropped: number;
}

/** One keyframe's window, matched frame by frame as its frames arrive in order. */
export class WindowMatch<F extends WindowFrame, X> {
  private readonly frames: F[] = [];
  /** Each kept frame's luma MSE against the keyframe (NaN: no luma). */
  private readonly mses: number[] = [];
  private best = -1;
  private mse = Number.POSITIVE_INFINITY;
  /** What the caller keeps for f*(k) alone (e.g. its frame at the pixel size). */
  private extra: X | undefined;
  private dropped = 0;
  private first: F | undefined;
  private last: F | undefined;

  constructor(
    private readonly key: Uint8Array,
    private readonly holdTolerance_db: number | null,
    private readonly holdMatch_db: number,
    private readonly maxKept: number = STAGE2_MAX_KEPT,
  ) {}

  /** The window's next frame; `extra` is kept only while the frame is f*(k). */
  add(f: F, extra: X): void {
    this.first ??= f;
    this.last = f;
    if (this.frames.length >= this.maxKept) {
      this.dropped++;
      if (this.best === 0) return;
      this.frames.shift();
      this.mses.shift();
      if (this.best > 0) this.best--;
    }
    this.frames.push(f);
    const mse = f.y ? lumaMse(f.y, this.key) : Number.NaN;
    this.mses.push(mse);
    if (f.y && mse < this.mse) {
      this.mse = mse;
      this.best = this.frames.length - 1;
      this.extra = extra;
    }
  }

  /** f*(k) and its hold; null when no frame with luma arrived. */
  result(): WindowResult<F, X> | null {
    const F = this.frames;
    const best = F[this.best];
    if (!best?.y || this.extra === undefined || !this.first || !this.last) return null;
    const by = best.y;
    const same = (i: number) => {
      const y = F[i]?.y;
      const mse = this.mses[i];
      return (
        !!y && mse !== undefined && inHold(y, by, mse, this.mse, this.holdTolerance_db, this.holdMatch_db)
      );
    };
    const [h0, h1] = holdAround(this.best, 0, F.length - 1, same);
    return {
      best,
      mse: this.mse,
      extra: this.extra,
      hold: [at(F, h0), at(F, h1)],
      window: [this.first, this.last],
      dropped: this.dropped,
    };
  }
}

function at<F>(frames: readonly F[], i: number): F {
  const f = frames[i];
  if (f === undefined) throw new InternalError(`stage 2: window frame ${i} of ${frames.length} missing`);
  return f;
}
