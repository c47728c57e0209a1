/**
 * Stage 2 of keyframe matching ("a staged matching pipeline for locating keyframes in exact
 * temporal windows", KeyFrame-Compass): stage 1 (the embedder, `scan.ts`) says where keyframe k is —
 * the placing run of sampled frames with cosine ≥ γ (`placement.ts`); stage 2 says which frame.
 *
 *  - The window: the placing run and one sampled frame either side, as frames of the file. Windows
 *    that overlap are read together; each is read at the video's own rate by seeking to it
 *    (media/window.ts), so stage 2 decodes the windows and their lead-in only.
 *  - f*(k): the window's frame whose luma, at the working size `matchSize`, has the smallest mean
 *    squared difference from the keyframe's (the highest PSNR); ties go to the earliest frame.
 *  - The hold: the frames around f*(k), contiguous, inside the window, that match the keyframe as
 *    well as f*(k) does: each frame's own luma MSE against the keyframe within `holdMatch_db` of
 *    f*(k)'s (a frozen or duplicated frame matches equally; a held still under live grain differs
 *    from the keyframe by its grain alone, as f*(k) does; a neighbour of a lossless match does not
 *    match losslessly, so it is not held). A frame is never held for being close to f*(k) itself:
 *    in calm real footage every frame of a shot is within 40 dB of every other, and t(k) would be
 *    the middle of the shot (issue 44 item 7). `holdTolerance_db` (null by default, off) restores
 *    that second test: frames whose luma is within that PSNR of f*(k)'s join the hold too.
 *    t(k) is the middle of the hold's time span.
 *  - The pixel score: PSNR/SSIM (on luma, as `compareRaw` measures) of f*(k), at the pixel size
 *    from the same decode, against the keyframe made like a frame (`imagesAsLuma`); f*(k)'s own
 *    cosine (`cos`) is stage 1's, filled in by the scan when stage 1 sampled that frame.
 * One rule, two ways of reading: `StageTwoAlong` matches the windows as stage 1's frames stream by,
 * `refine` seeks to them afterwards (a variable-rate video above the cap, or one above twice it);
 * both pick f*(k) by least luma MSE and take the hold by `holdAround`/`inHold`. Their limits differ
 * and are stated here: riding along, a window keeps at most `MAX_KEPT` (600) frames — a longer one
 * drops its earliest frames unless f*(k) is among them, and its hold is cut there; read by seeking,
 * each window (with the windows overlapping it) is kept whole.
 * Presence, persistence and uniqueness keep using stage 1's runs; a refinement names the run it
 * refined, and placement uses it only when it places the keyframe from that same run.
 */

import type { FramePair } from '../../media/pairs.js';
import type { VideoInfo } from '../../media/probe.js';
import { frameAt, frameTime } from '../../media/probe.js';
import { compareRaw, type ImageComparison, type SsimReference } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import { fullRangeLuma, lumaMse, psnrOfMse, streamWindowLuma } from '../../media/window.js';
import type { ScanRefine } from '../results.js';
import { placingRun } from './placement.js';

export interface StageTwoInput {
  info: VideoInfo;
  /** Stage 1's sampled-frame times and similarity curves. */
  times: readonly number[];
  sims: readonly (readonly number[])[];
  sampleFps: number;
  vfr: boolean;
  /** The match decision whose placing runs are refined. */
  gamma: number;
  holdEps: number;
  /** Keyframes' luma at `size`, and full-range luma at `full`, made like frames (`imagesAsLuma`). */
  luma: readonly RawImage[];
  pixels: readonly RawImage[];
  /** Keyframe k's own SSIM statistics (`ssimReference` of `pixels[k]`), when the caller keeps them. */
  reference?: ((k: number) => SsimReference) | undefined;
  size: { width: number; height: number };
  full: { width: number; height: number };
  holdTolerance_db: number | null;
  holdMatch_db: number;
  threads?: number | undefined;
  signal?: AbortSignal | undefined;
}

import { holdAround, inHold } from './hold.js';

export { holdAround, inHold };

interface Window {
  k: number;
  run: [number, number];
  first: number;
  last: number;
}

/** End of sampled frame j's interval on stage 1's time axis. */
function sampleEnd(times: readonly number[], j: number, fps: number, vfr: boolean): number {
  if (vfr && j + 1 < times.length) return times[j + 1]!;
  return times[j]! + 1 / fps;
}

/** End of frame n's display interval in the file. */
function frameEnd(info: VideoInfo, n: number): number {
  return n + 1 < info.frames ? frameTime(info, n + 1) : Math.max(info.duration_s, frameTime(info, n));
}

/** Each keyframe's window (null when stage 1 does not match it), in frames of the file. */
export function windows(
  s: Pick<StageTwoInput, 'info' | 'times' | 'sims' | 'sampleFps' | 'vfr' | 'gamma' | 'holdEps'>,
): (Window | null)[] {
  const n = s.times.length;
  return s.sims.map((sim, k) => {
    const run = placingRun(sim, s.gamma, s.holdEps);
    if (!run) return null;
    const a = Math.max(0, run[0] - 1);
    const b = Math.min(n - 1, run[1] + 1);
    const t0 = s.times[a]!;
    const t1 = sampleEnd(s.times, b, s.sampleFps, s.vfr);
    const first = Math.min(s.info.frames - 1, frameAt(s.info, t0));
    const last = Math.max(first, Math.min(s.info.frames - 1, frameAt(s.info, t1 - 1e-6)));
    return { k, run: [run[0], run[1]], first, last };
  });
}

/** Stage 2 for every keyframe stage 1 matched: its refinement, or null. */
export async function refine(s: StageTwoInput): Promise<(ScanRefine | null)[]> {
  const wins = windows(s);
  const out: (ScanRefine | null)[] = wins.map(() => null);
  // overlapping windows are read in one pass
  const sorted = wins.filter((w): w is Window => w !== null).sort((x, y) => x.first - y.first);
  const groups: Window[][] = [];
  for (const w of sorted) {
    const g = groups[groups.length - 1];
    if (g && w.first <= Math.max(...g.map((x) => x.last)) + 1) g.push(w);
    else groups.push([w]);
  }
  const found: { w: Window; frame: number; mse: number; hold: [number, number]; full: () => RawImage }[] = [];
  for (const g of groups) {
    const first = g[0]!.first;
    const last = Math.max(...g.map((x) => x.last));
    const frames: Uint8Array[] = [];
    const mses: number[][] = g.map(() => []);
    const best = g.map(() => ({
      frame: -1,
      mse: Number.POSITIVE_INFINITY,
      full: undefined as (() => RawImage) | undefined,
    }));
    for await (const f of streamWindowLuma(s.info, first, last, s.size, s.signal, s.threads, s.full)) {
      frames.push(f.y);
      g.forEach((w, i) => {
        if (f.index < w.first || f.index > w.last) return;
        const mse = lumaMse(f.y, s.luma[w.k]!.data);
        mses[i]![f.index - w.first] = mse;
        if (mse < best[i]!.mse) best[i] = { frame: f.index, mse, full: f.full };
      });
    }
    g.forEach((w, i) => {
      const b = best[i]!;
      if (b.frame < 0 || !b.full) return; // the decoder gave none of its frames (it then threw)
      const at = (n: number) => frames[n - first]!;
      const same = (n: number) =>
        inHold(at(n), at(b.frame), mses[i]![n - w.first]!, b.mse, s.holdTolerance_db, s.holdMatch_db);
      const hold = holdAround(b.frame, w.first, w.last, same);
      found.push({ w, frame: b.frame, mse: b.mse, hold, full: b.full });
    });
  }
  // the pixel score on f*(k), from the same decode at the pixel size
  for (const f of found) {
    const cmp = compareRaw(fullRangeLuma(f.full()), s.pixels[f.w.k]!, s.reference?.(f.w.k));
    const lp = psnrOfMse(f.mse);
    out[f.w.k] = {
      run: f.w.run,
      window: [f.w.first, f.w.last],
      frame: f.frame,
      t_s: frameTime(s.info, f.frame),
      hold: f.hold,
      hold_s: [frameTime(s.info, f.hold[0]), frameEnd(s.info, f.hold[1])],
      luma_psnr_db: Number.isFinite(lp) ? lp : null,
      psnr_db: cmp.psnr_db,
      ssim: cmp.ssim,
      cos: null,
    };
  }
  return out;
}

/** A frame stage 2 keeps while a window is open: its order among the frames read, file frame, time and luma. */
interface Kept {
  order: number;
  index: number;
  time_s: number;
  y: Uint8Array | null;
}

interface Open {
  start: number;
  frames: Kept[];
  /** Each kept frame's luma MSE against the keyframe (NaN: no luma). */
  mses: number[];
  best: number;
  mse: number;
  /** f*'s frame at the pixel size, as luma, and at the embedder's size (only the best frame's are kept). */
  full: (() => RawImage) | undefined;
  small: RawImage | undefined;
}

interface RunResult {
  run: [number, number];
  window: [number, number];
  best: Kept;
  mse: number;
  full: () => RawImage;
  small: RawImage | undefined;
  hold: [Kept, Kept];
}

/** A frame read: its kept record (made once, on demand), its pixel-size luma and its embedder-size copy. */
interface Source {
  kept: () => Kept;
  full: () => RawImage;
  small: RawImage;
}

/** Frames of one window kept at most (about 20 s at 30 fps, 37 kB each at 256×144): a longer hold is cut there. */
const MAX_KEPT = 600;

/**
 * Stage 2 riding along stage 1: the decoder adds each frame's luma at the working size
 * (`FramePair.work`), and each keyframe's γ-runs — with one sampled frame either side — are matched
 * in pixels as they stream by. Every frame of the video is read (`push` for the frames stage 1
 * samples, `between` for the ones it skips when it samples below the video's rate), no frame is
 * decoded again, and frames outside every window are never compared. At the end, the run that
 * places each keyframe (`placingRun`) gives its refinement; the others are dropped.
 */
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
      full: pair.fullLuma,
      small: pair.small,
    };
  }

  /** A frame stage 1 does not sample (between two sampled frames), in order. */
  between(pair: FramePair): void {
    const f = this.frame(pair);
    this.since.push(f);
    for (let k = 0; k < this.open.length; k++) {
      const w = this.open[k];
      if (w) this.add(k, w, f.kept(), f);
    }
  }

  /** Sampled frame j (in order) with its similarity to each keyframe. */
  push(j: number, pair: FramePair, sims: readonly number[]): void {
    const f = this.frame(pair);
    for (let k = 0; k < sims.length; k++) {
      const on = sims[k]! >= this.gamma;
      let w = this.open[k];
      if (on && !w) {
        w = {
          start: j,
          frames: [],
          mses: [],
          best: -1,
          mse: Number.POSITIVE_INFINITY,
          full: undefined,
          small: undefined,
        };
        this.open[k] = w;
        // the window opens one sampled frame early, with the frames read since
        for (const g of [...(this.prev ? [this.prev] : []), ...this.since]) this.add(k, w, g.kept(), g);
      }
      if (w) this.add(k, w, f.kept(), f);
      if (!on && w) this.close(k, j - 1);
    }
    this.prev = f;
    this.since = [];
  }

  private add(k: number, w: Open, f: Kept, src: Source): void {
    if (w.frames.length >= MAX_KEPT) {
      if (w.best === 0) return;
      w.frames.shift();
      w.mses.shift();
      w.best--;
    }
    w.frames.push(f);
    const mse = f.y ? lumaMse(f.y, this.luma[k]!.data) : Number.NaN;
    w.mses.push(mse);
    if (!f.y) return;
    if (mse < w.mse) {
      w.mse = mse;
      w.best = w.frames.length - 1;
      w.full = src.full;
      w.small = src.small;
    }
  }

  private close(k: number, last: number): void {
    const w = this.open[k]!;
    this.open[k] = undefined;
    if (w.best < 0 || !w.full) return;
    const F = w.frames;
    const by = F[w.best]!.y!;
    const same = (i: number) => {
      const y = F[i]?.y;
      return !!y && inHold(y, by, w.mses[i]!, w.mse, this.holdTolerance_db, this.holdMatch_db);
    };
    const [h0, h1] = holdAround(w.best, 0, F.length - 1, same);
    this.done[k]!.push({
      run: [w.start, last],
      window: [F[0]!.index, F[F.length - 1]!.index],
      best: F[w.best]!,
      mse: w.mse,
      full: w.full,
      small: w.small,
      hold: [F[h0]!, F[h1]!],
    });
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
    compare: (k: number, frame: () => RawImage) => ImageComparison = (k, f) => compareRaw(f(), pixels[k]!),
  ): (ScanRefine | null)[] {
    const n = sims[0]?.length ?? 0;
    for (let k = 0; k < this.open.length; k++) if (this.open[k]) this.close(k, n - 1);
    const T = this.times;
    const end = (f: Kept) =>
      f.order + 1 < T.length ? T[f.order + 1]! : f.time_s + (lastDuration ?? 1 / fps);
    return sims.map((s, k) => {
      const run = placingRun(s, this.gamma, holdEps);
      const r = run && this.done[k]!.find((x) => x.run[0] === run[0] && x.run[1] === run[1]);
      if (!r) return null;
      this.small[k] = r.small;
      const cmp = compare(k, r.full);
      const lp = psnrOfMse(r.mse);
      return {
        run: r.run,
        window: r.window,
        frame: r.best.index,
        t_s: r.best.time_s,
        hold: [r.hold[0].index, r.hold[1].index],
        hold_s: [r.hold[0].time_s, end(r.hold[1])],
        luma_psnr_db: Number.isFinite(lp) ? lp : null,
        psnr_db: cmp.psnr_db,
        ssim: cmp.ssim,
        cos: null,
      };
    });
  }
}
