/**
 * Fidelity (KFS). KeyFrame-Compass App. B: "For each input keyframe, the method selects the
 * response frame with the highest cosine similarity between L2-normalized DINOv3 features", and
 * "For matched keyframes, the pixel score uses PSNR and SSIM" — one frame, both terms on it. For a
 * matched keyframe, on its KFS frame (`kfsFrame`), the pixel score
 * p = ½·[clip((PSNR − psnrLow)/(psnrHigh − psnrLow)) + clip((SSIM − ssimLow)/(ssimHigh − ssimLow))]
 * is fused with that frame's cosine: KFS_k = fusion·p + (1 − fusion)·cos (SPEC: fusion ½). Identical
 * pixels (PSNR infinite) give the PSNR term 1. Unmatched keyframes score 0 and stay in the mean.
 *
 * The KFS frame (issue 44 item 6; before it, cos came from the highest-cosine frame and PSNR/SSIM
 * from stage 2's f*(k), two frames):
 *  - `tie` (default): stage 2's f*(k) — the frame most like the keyframe in pixels — when stage 1
 *    sampled it and its cosine is within `kfsTie` (0.001) of the best: a coarse embedder cannot
 *    tell a frame from its neighbours (the builtin's cosine of a keyframe with its own frame is
 *    0.9995, not 1), so the highest cosine among near-equal ones is the embedder's noise, and the
 *    staged pipeline's pixel match picks among them. Otherwise the highest-cosine frame.
 *  - `peak`: always the highest-cosine sampled frame (ties: the earliest), the seed's words
 *    taken literally.
 */

import type { ScanPeak } from '../schemas/scan.js';
import type { ResponseOptions } from './options.js';
import type { Placement } from './placement.js';

const clip01 = (x: number) => Math.min(1, Math.max(0, x));

export function pixelScore(
  peak: Pick<ScanPeak, 'psnr_db' | 'ssim'>,
  o: Pick<ResponseOptions, 'psnrLow' | 'psnrHigh' | 'ssimLow' | 'ssimHigh'>,
): number {
  const ps = peak.psnr_db === null ? 1 : clip01((peak.psnr_db - o.psnrLow) / (o.psnrHigh - o.psnrLow));
  const ss = clip01((peak.ssim - o.ssimLow) / (o.ssimHigh - o.ssimLow));
  return (ps + ss) / 2;
}

/** The frame whose cosine and pixel score KFS fuses: its cosine, PSNR, SSIM, and whether it is stage 2's f*(k). */
export interface KfsFrameScores {
  cos: number;
  psnr_db: number | null;
  ssim: number;
  staged: boolean;
}

export function kfsFrame(
  x: Pick<Placement, 'cos' | 'refined'>,
  peak: Pick<ScanPeak, 'cos' | 'psnr_db' | 'ssim'>,
  o: Pick<ResponseOptions, 'kfsFrame' | 'kfsTie'>,
): KfsFrameScores {
  const r = x.refined;
  if (o.kfsFrame === 'tie' && r && r.cos !== null && r.cos >= x.cos - o.kfsTie)
    return { cos: r.cos, psnr_db: r.psnr_db, ssim: r.ssim, staged: true };
  return { cos: peak.cos, psnr_db: peak.psnr_db, ssim: peak.ssim, staged: false };
}

export function fidelity(p: readonly Placement[], peaks: readonly ScanPeak[], o: ResponseOptions): number[] {
  return p.map((x, k) => {
    if (!x.matched) return 0;
    const f = kfsFrame(x, peaks[k]!, o);
    return o.fusion * pixelScore(f, o) + (1 - o.fusion) * Math.max(0, f.cos);
  });
}
