/**
 * Fidelity (KFS). For a matched keyframe, the pixel score of its best frame (stage 2's f*(k) when
 * it refined the placement, else the sampled frame of highest cosine)
 * p = ½·[clip((PSNR − psnrLow)/(psnrHigh − psnrLow)) + clip((SSIM − ssimLow)/(ssimHigh − ssimLow))]
 * is fused with the cosine: KFS_k = fusion·p + (1 − fusion)·cos (SPEC: fusion ½). Identical
 * pixels (PSNR infinite) give the PSNR term 1. Unmatched keyframes score 0 and stay in the mean.
 */
import type { ResponseOptions } from './options.js';
import type { Placement } from './placement.js';
import type { ScanPeak } from './scan.js';

const clip01 = (x: number) => Math.min(1, Math.max(0, x));

export function pixelScore(
  peak: Pick<ScanPeak, 'psnr_db' | 'ssim'>,
  o: Pick<ResponseOptions, 'psnrLow' | 'psnrHigh' | 'ssimLow' | 'ssimHigh'>,
): number {
  const ps = peak.psnr_db === null ? 1 : clip01((peak.psnr_db - o.psnrLow) / (o.psnrHigh - o.psnrLow));
  const ss = clip01((peak.ssim - o.ssimLow) / (o.ssimHigh - o.ssimLow));
  return (ps + ss) / 2;
}

export function fidelity(p: readonly Placement[], peaks: readonly ScanPeak[], o: ResponseOptions): number[] {
  return p.map((x, k) =>
    x.matched ? o.fusion * pixelScore(x.refined ?? peaks[k]!, o) + (1 - o.fusion) * Math.max(0, x.cos) : 0,
  );
}
