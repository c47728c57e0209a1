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
 *    t(k) is the hold's frame nearest the keyframe's target (placement.ts).
 *  - The pixel score: PSNR/SSIM (on luma, as `compareRaw` measures) of f*(k), at the pixel size
 *    from the same decode, against the keyframe made like a frame (`imagesAsLuma`); f*(k)'s own
 *    cosine (`cos`) is stage 1's, filled in by the scan when stage 1 sampled that frame.
 * One rule, two ways of reading: `StageTwoAlong` (stage2-along.ts) matches the windows as stage 1's
 * frames stream by, `refine` (below) seeks to them afterwards (a variable-rate video above the cap,
 * or one above twice it); both feed each window's frames to one `WindowMatch` (window-match.ts),
 * which picks f*(k), takes the hold and states the one limit both share (`STAGE2_MAX_KEPT` frames
 * per window; a refinement that reached it records the frames it dropped, `dropped`).
 * Presence, persistence and uniqueness keep using stage 1's runs; a refinement names the run it
 * refined, and placement uses it only when it places the keyframe from that same run.
 */

import { InternalError } from '../../errors.js';
import { frameAt, frameTime } from '../../media/probe.js';
import { compareRaw, type SsimReference } from '../../media/quality.js';
import type { RawImage } from '../../media/raw.js';
import type { VideoInfo } from '../../media/video-info.js';
import { psnrOfMse, streamWindowLuma } from '../../media/window.js';
import type { ScanRefine } from '../schemas/scan.js';
import { placingRun } from './runs.js';
import { type WindowFrame, WindowMatch, type WindowResult } from './window-match.js';

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
  /** Keyframes' luma at `size`, and 601 luma at `full`, made like frames (media/frame-like.ts). */
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
function windows(
  s: Pick<StageTwoInput, 'info' | 'times' | 'sims' | 'sampleFps' | 'vfr' | 'gamma' | 'holdEps'>,
): (Window | null)[] {
  const n = s.times.length;
  return s.sims.map((sim, k) => {
    const run = placingRun(sim, s.gamma, s.holdEps);
    if (!run) return null;
    const a = Math.max(0, run[0] - 1);
    const b = Math.min(n - 1, run[1] + 1);
    // stage 1's times are its sampled frames' own (above the cap, every few frames): the window
    // runs from just after the sample before it (the video's start, when none) to just before the
    // sample after it (the video's end, when none)
    const t0 = a === 0 ? 0 : Math.min(s.times[a]!, sampleEnd(s.times, a - 1, s.sampleFps, s.vfr));
    const t1 = b === n - 1 ? Number.POSITIVE_INFINITY : sampleEnd(s.times, b, s.sampleFps, s.vfr);
    const first = Math.min(s.info.frames - 1, frameAt(s.info, t0));
    const last = Math.max(first, Math.min(s.info.frames - 1, frameAt(s.info, t1 - 1e-6)));
    return { k, run: [run[0], run[1]], first, last };
  });
}

/** Stage 2 for every keyframe stage 1 matched: its refinement, or null. */
export async function refine(s: StageTwoInput): Promise<(ScanRefine | null)[]> {
  const out: (ScanRefine | null)[] = s.sims.map(() => null);
  for (const g of overlapping(windows(s))) {
    const found = await matchGroup(s, g);
    // the pixel score on f*(k), from the same decode at the pixel size
    g.forEach((w, i) => {
      const r = found[i];
      if (r) out[w.k] = refinement(s, w, r);
    });
  }
  return out;
}

/** The windows, sorted, in groups of overlapping ones: each group is read in one pass. */
function overlapping(wins: readonly (Window | null)[]): Window[][] {
  const sorted = wins.filter((w): w is Window => w !== null).sort((x, y) => x.first - y.first);
  const groups: Window[][] = [];
  for (const w of sorted) {
    const g = groups[groups.length - 1];
    if (g && w.first <= Math.max(...g.map((x) => x.last)) + 1) g.push(w);
    else groups.push([w]);
  }
  return groups;
}

type Found = WindowResult<WindowFrame, (() => RawImage) | undefined>;

/** Read one group of windows and match each (null: the decoder gave none of its frames; it then threw). */
async function matchGroup(s: StageTwoInput, g: readonly Window[]): Promise<(Found | null)[]> {
  const first = Math.min(...g.map((w) => w.first));
  const last = Math.max(...g.map((w) => w.last));
  const matches = g.map(
    (w) =>
      new WindowMatch<WindowFrame, (() => RawImage) | undefined>(
        keyframe(s.luma, w.k, 'luma').data,
        s.holdTolerance_db,
        s.holdMatch_db,
      ),
  );
  for await (const f of streamWindowLuma(s.info, first, last, s.size, s.signal, s.threads, s.full)) {
    g.forEach((w, i) => {
      if (f.index >= w.first && f.index <= w.last) matches[i]?.add({ index: f.index, y: f.y }, f.full);
    });
  }
  return matches.map((m) => m.result());
}

function refinement(s: StageTwoInput, w: Window, r: Found): ScanRefine | null {
  if (!r.extra) return null;
  const cmp = compareRaw(r.extra(), keyframe(s.pixels, w.k, 'pixel-size'), s.reference?.(w.k));
  const lp = psnrOfMse(r.mse);
  const hold: [number, number] = [r.hold[0].index, r.hold[1].index];
  return {
    run: w.run,
    window: [w.first, w.last],
    frame: r.best.index,
    t_s: frameTime(s.info, r.best.index),
    hold,
    hold_s: [frameTime(s.info, hold[0]), frameEnd(s.info, hold[1])],
    luma_psnr_db: Number.isFinite(lp) ? lp : null,
    psnr_db: cmp.psnr_db,
    ssim: cmp.ssim,
    cos: null,
    ...(r.dropped ? { dropped: r.dropped } : {}),
  };
}

function keyframe(images: readonly RawImage[], k: number, what: string): RawImage {
  const im = images[k];
  if (!im) throw new InternalError(`stage 2: no ${what} keyframe ${k} of ${images.length}`);
  return im;
}
