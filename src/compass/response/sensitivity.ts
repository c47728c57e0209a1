/**
 * `compass sensitivity` (KeyFrame-Compass appendix B): vary the pixel-score constants — the PSNR
 * lower anchor, the SSIM lower anchor and the fusion weight — on a grid, recompute KFS for every
 * scored video from its keyframes' (matched, cos, PSNR, SSIM), and report the largest change of
 * the mean KFS and the lowest Spearman ρ against the default — over per-video scores, as published
 * ("minimum Spearman rank correlation with the default setting was 0.997", over 436 outputs), and
 * over the model ranking (by mean KFS).
 * Matching (γ) is not varied: these constants scale the score, they do not decide a match.
 */
import { spearman } from '../../stats/rank.js';
import type { ResponseRow } from '../schemas/response.js';
import { pixelScore } from './fidelity.js';
import { DEFAULT_RESPONSE_OPTIONS, type ResponseOptions } from './options.js';

export interface SensitivityGrid {
  psnrLow: number[];
  ssimLow: number[];
  fusion: number[];
}

export const DEFAULT_GRID: SensitivityGrid = {
  psnrLow: [8, 10, 12, 14, 16],
  ssimLow: [0.5, 0.575, 0.65, 0.725, 0.8],
  fusion: [0.3, 0.4, 0.5, 0.6, 0.7],
};

interface SensitivitySetting {
  psnrLow: number;
  ssimLow: number;
  fusion: number;
  mean_kfs: number;
  delta_mean_kfs: number;
  /** ρ of the model means against the default's. */
  spearman_rho: number | null;
  /** ρ of the per-video KFS against the default's (the published figure). */
  spearman_rho_videos: number | null;
}

export interface SensitivityResult {
  outputs: number;
  keyframes: number;
  models: string[];
  default: { psnrLow: number; ssimLow: number; fusion: number; mean_kfs: number };
  max_delta_mean_kfs: number;
  max_delta_at: SensitivitySetting;
  min_spearman_rho: number | null;
  min_rho_at: SensitivitySetting | null;
  min_spearman_rho_videos: number | null;
  min_rho_videos_at: SensitivitySetting | null;
  settings: SensitivitySetting[];
}

/** What sensitivity reads of a response row: its model and its keyframes' similarities. */
export type SensitivityRow = Pick<ResponseRow, 'model'> & {
  keyframes: readonly Pick<ResponseRow['keyframes'][number], 'matched' | 'cos' | 'psnr_db' | 'ssim'>[];
};

function kfsOf(row: SensitivityRow, o: ResponseOptions): number {
  let s = 0;
  for (const k of row.keyframes) {
    if (!k.matched) continue;
    const p = pixelScore({ psnr_db: k.psnr_db, ssim: k.ssim ?? 0 }, o);
    s += o.fusion * p + (1 - o.fusion) * Math.max(0, k.cos);
  }
  return s / row.keyframes.length;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** ρ rounded, or null when undefined (constant scores). */
const finite = (x: number) => (Number.isFinite(x) ? r6(x) : null);

export function sensitivity(
  rows: readonly SensitivityRow[],
  grid: SensitivityGrid = DEFAULT_GRID,
  base: Partial<ResponseOptions> = {},
): SensitivityResult {
  const o0 = { ...DEFAULT_RESPONSE_OPTIONS, ...base };
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const evalAt = (o: ResponseOptions) => {
    const k = rows.map((r) => kfsOf(r, o));
    const mean = k.reduce((a, b) => a + b, 0) / Math.max(1, k.length);
    const byModel = models.map((m) => {
      const v = rows.flatMap((r, i) => (r.model === m ? [k[i]!] : []));
      return v.reduce((a, b) => a + b, 0) / v.length;
    });
    return { mean, byModel, byVideo: k };
  };
  const ref = evalAt(o0);
  const settings: SensitivitySetting[] = [];
  for (const psnrLow of grid.psnrLow)
    for (const ssimLow of grid.ssimLow)
      for (const fusion of grid.fusion) {
        const e = evalAt({ ...o0, psnrLow, ssimLow, fusion });
        settings.push({
          psnrLow,
          ssimLow,
          fusion,
          mean_kfs: r6(e.mean),
          delta_mean_kfs: r6(Math.abs(e.mean - ref.mean)),
          spearman_rho: models.length >= 2 ? r6(spearman(ref.byModel, e.byModel)) : null,
          spearman_rho_videos: finite(rows.length >= 2 ? spearman(ref.byVideo, e.byVideo) : Number.NaN),
        });
      }
  const maxAt = settings.reduce((a, b) => (b.delta_mean_kfs > a.delta_mean_kfs ? b : a));
  const withRho = settings.filter((s) => s.spearman_rho !== null && Number.isFinite(s.spearman_rho));
  const minAt = withRho.length ? withRho.reduce((a, b) => (b.spearman_rho! < a.spearman_rho! ? b : a)) : null;
  const withVideoRho = settings.filter((s) => s.spearman_rho_videos !== null);
  const minVideosAt = withVideoRho.length
    ? withVideoRho.reduce((a, b) => (b.spearman_rho_videos! < a.spearman_rho_videos! ? b : a))
    : null;
  return {
    outputs: rows.length,
    keyframes: rows.reduce((s, r) => s + r.keyframes.length, 0),
    models,
    default: { psnrLow: o0.psnrLow, ssimLow: o0.ssimLow, fusion: o0.fusion, mean_kfs: r6(ref.mean) },
    max_delta_mean_kfs: maxAt.delta_mean_kfs,
    max_delta_at: maxAt,
    min_spearman_rho: minAt?.spearman_rho ?? null,
    min_rho_at: minAt,
    min_spearman_rho_videos: minVideosAt?.spearman_rho_videos ?? null,
    min_rho_videos_at: minVideosAt,
    settings,
  };
}
