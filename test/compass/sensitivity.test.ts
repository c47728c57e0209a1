/** compass sensitivity: Spearman ρ over per-video scores (as published) beside ρ over model means. */
import { describe, expect, it } from 'vitest';
import { type SensitivityRow, sensitivity } from '../../src/compass/response/sensitivity.js';
import { sensitivityLines } from '../../src/report/compass.js';

/** One keyframe per video: pixel score 0 (PSNR, SSIM at or below the anchors) or 1 (identical). */
const row = (model: string, cos: number, pixel: 0 | 1): SensitivityRow => ({
  model,
  keyframes: [{ matched: true, cos, psnr_db: pixel ? null : 10, ssim: pixel ? 1 : 0.5 }],
});

describe('compass sensitivity', () => {
  it('reports the lowest ρ over per-video KFS, which can fall while the model ranking holds', () => {
    const rows = [row('A', 0.9, 0), row('A', 0.82, 1), row('B', 0.85, 0), row('B', 0.81, 1)];
    // fusion ½: KFS = (p + cos)/2 → .45 .91 .425 .905 (ranks 2 4 1 3); fusion 0: KFS = cos → ranks 4 2 3 1
    // Σd² = 16 → ρ = 1 − 6·16/(4·15) = −0.6; model means keep A above B (ρ = 1)
    const r = sensitivity(rows, { psnrLow: [12], ssimLow: [0.65], fusion: [0.5, 0] });
    expect(r.settings.map((s) => s.spearman_rho_videos)).toEqual([1, -0.6]);
    expect(r.settings.map((s) => s.spearman_rho)).toEqual([1, 1]);
    expect(r.min_spearman_rho_videos).toBe(-0.6);
    expect(r.min_rho_videos_at).toMatchObject({ fusion: 0 });
    expect(r.min_spearman_rho).toBe(1);
    expect(sensitivityLines(r).join('\n')).toMatch(
      /lowest Spearman ρ of the per-video scores vs the default \(as published\): -0\.6000 over 4 outputs/,
    );
  });
});
