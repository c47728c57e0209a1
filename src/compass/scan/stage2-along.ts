/**
 * Stage 2 riding along stage 1 (stage2.ts states the rule; window-match.ts places the frame and
 * states the limit): the decoder adds each frame's luma at the working size (`FramePair.work`), and
 * each keyframe's γ-runs — with one sampled frame either side — are matched in pixels as they stream
 * by. Every frame of the video is read (`push` for the frames stage 1 samples, `between` for the
 * ones it skips when it samples below the video's rate), no frame is decoded again, and frames
 * outside every window are never compared. At the end, the run that places each keyframe
 * (`placingRun`) gives its refinement; the others are dropped.
 */
import { InternalError } from '../../errors.js';
import type { FramePair } from '../../media/pairs.js';
import { compareRaw, type ImageComparison } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import { psnrOfMse } from '../../media/window.js';
import type { ScanRefine } from '../schemas/scan.js';
import { placingRun } from './runs.js';
import { WindowMatch, type WindowResult } from './window-match.js';

/** A frame stage 2 keeps while a window is open: its order among the frames read, file frame, time and luma. */
interface Kept {
  order: number;
  index: number;
  time_s: number;
  y: Uint8Array | null;
}

/** What is kept of f*(k) alone: its frame at the pixel size, as luma, and at the embedder's size. */
interface Best {
  full: () => RawImage;
  small: RawImage;
}

interface Open {
  start: number;
  match: WindowMatch<Kept, Best>;
}

interface RunResult {
  run: [number, number];
  found: WindowResult<Kept, Best>;
}

/** A frame read: its kept record (made once, on demand), its pixel-size luma and its embedder-size copy. */
interface Source {
  kept: () => Kept;
  best: Best;
}

/** Stage 2 riding along stage 1 (above). */
export class StageTwoAlong {
  /** The last sampled frame, and the frames read since (not sampled). */
  private prev: Source | undefined;
  private since: Source[] = [];
  private readonly open: (Open | undefined)[];
  private readonly done: RunResult[][];
  /** Start time of every frame read, in order. */
  private readonly times: number[] = [];
  /**
   * After `finish`, each refined keyframe's f*(k) at the embedder's size: the scan embeds it when
   * stage 1 did not sample it, so that f*(k) has a cosine of its own (the KFS frame, fidelity.ts).
   */
  readonly small: (RawImage | undefined)[] = [];

  constructor(
    private readonly luma: readonly RawImage[],
    private readonly gamma: number,
    private readonly holdTolerance_db: number | null,
    private readonly holdMatch_db: number,
  ) {
    this.open = luma.map(() => undefined);
    this.done = luma.map(() => []);
  }

  /** A frame's luma is copied out once, and only when some window holds it. */
  private frame(pair: FramePair): Source {
    const order = this.times.length;
    this.times.push(pair.time_s);
    let kept: Kept | undefined;
    return {
      kept: () => {
        kept ??= { order, index: pair.index, time_s: pair.time_s, y: pair.work?.() ?? null };
        return kept;
      },
      best: { full: pair.fullLuma, small: pair.small },
    };
  }

  /** A frame stage 1 does not sample (between two sampled frames), in order. */
  between(pair: FramePair): void {
    const f = this.frame(pair);
    this.since.push(f);
    for (const w of this.open) w?.match.add(f.kept(), f.best);
  }

  /** Sampled frame j (in order) with its similarity to each keyframe. */
  push(j: number, pair: FramePair, sims: readonly number[]): void {
    const f = this.frame(pair);
    sims.forEach((sim, k) => {
      const on = sim >= this.gamma;
      let w = this.open[k];
      if (on && !w) {
        w = { start: j, match: new WindowMatch(this.keyLuma(k), this.holdTolerance_db, this.holdMatch_db) };
        this.open[k] = w;
        // the window opens one sampled frame early, with the frames read since
        for (const g of [...(this.prev ? [this.prev] : []), ...this.since]) w.match.add(g.kept(), g.best);
      }
      if (w) w.match.add(f.kept(), f.best);
      if (!on && w) this.close(k, w, j - 1);
    });
    this.prev = f;
    this.since = [];
  }

  private keyLuma(k: number): Uint8Array {
    const l = this.luma[k];
    if (!l) throw new InternalError(`stage 2: no luma for keyframe ${k} of ${this.luma.length}`);
    return l.data;
  }

  private close(k: number, w: Open, last: number): void {
    this.open[k] = undefined;
    const found = w.match.result();
    if (found) this.done[k]?.push({ run: [w.start, last], found });
  }

  /**
   * Each keyframe's refinement: the result of its placing run (γ and hold ε as stage 1 places it),
   * with the pixel score on f*(k) against `pixels` (full-range luma at the pixel size).
   * `lastDuration`: how long the video's last frame is shown (else one frame at `fps`).
   * `compare`: the pixel score of keyframe k on a frame (`FramePair.fullLuma`), e.g. remembered
   * from stage 1's when f*(k) is its best frame too.
   */
  finish(
    sims: readonly (readonly number[])[],
    holdEps: number,
    pixels: readonly RawImage[],
    fps: number,
    lastDuration: number | undefined,
    compare: (k: number, frame: () => RawImage) => ImageComparison = (k, f) =>
      compareRaw(f(), pixel(pixels, k)),
  ): (ScanRefine | null)[] {
    const n = sims[0]?.length ?? 0;
    this.open.forEach((w, k) => {
      if (w) this.close(k, w, n - 1);
    });
    const T = this.times;
    const end = (f: Kept) => T[f.order + 1] ?? f.time_s + (lastDuration ?? 1 / fps);
    return sims.map((s, k) => {
      const run = placingRun(s, this.gamma, holdEps);
      const r = run && this.done[k]?.find((x) => x.run[0] === run[0] && x.run[1] === run[1]);
      if (!r) return null;
      const { best, mse, extra, hold, window, dropped } = r.found;
      this.small[k] = extra.small;
      const cmp = compare(k, extra.full);
      const lp = psnrOfMse(mse);
      return {
        run: r.run,
        window: [window[0].index, window[1].index],
        frame: best.index,
        t_s: best.time_s,
        hold: [hold[0].index, hold[1].index],
        hold_s: [hold[0].time_s, end(hold[1])],
        luma_psnr_db: Number.isFinite(lp) ? lp : null,
        psnr_db: cmp.psnr_db,
        ssim: cmp.ssim,
        cos: null,
        ...(dropped ? { dropped } : {}),
      };
    });
  }
}

function pixel(pixels: readonly RawImage[], k: number): RawImage {
  const p = pixels[k];
  if (!p) throw new InternalError(`stage 2: no pixel-size keyframe ${k} of ${pixels.length}`);
  return p;
}
