/** Pure renderers of Compass keyframe-response results. */
import { METRICS } from '../compass/response/report.js';
import type { ResponseSummary } from '../compass/score.js';
import type { SensitivityResult } from '../compass/sensitivity.js';
import { textTable } from './table.js';

const f3 = (x: number) => x.toFixed(3);

/** The leaderboard: one row per model, sorted by the two groups' mean (best first). */
export function compassTable(s: ResponseSummary): string {
  const head = ['model', 'videos', ...METRICS, 'KF fidelity', 'temporal org.'];
  const models = Object.entries(s.models).sort(
    ([a, x], [b, y]) =>
      y.all.groups.keyframe_fidelity +
        y.all.groups.temporal_organization -
        (x.all.groups.keyframe_fidelity + x.all.groups.temporal_organization) || a.localeCompare(b),
  );
  const body = models.map(([m, v]) => [
    m,
    String(v.all.n),
    ...METRICS.map((k) => f3(v.all.metrics[k])),
    f3(v.all.groups.keyframe_fidelity),
    f3(v.all.groups.temporal_organization),
  ]);
  return [`embedder ${s.embedder}, γ = ${s.gamma}`, ...textTable(head, body)].join('\n');
}

export function sensitivityLines(r: SensitivityResult): string[] {
  const at = (x: { psnrLow: number; ssimLow: number; fusion: number }) =>
    `PSNR low ${x.psnrLow} dB, SSIM low ${x.ssimLow}, fusion ${x.fusion}`;
  return [
    `${r.outputs} outputs, ${r.keyframes} keyframes, ${r.models.length} models, ${r.settings.length} settings`,
    `default (${at(r.default)}): mean KFS ${f3(r.default.mean_kfs)}`,
    `largest change of mean KFS: ${r.max_delta_mean_kfs.toFixed(4)} (at ${at(r.max_delta_at)})`,
    r.min_spearman_rho === null || r.min_rho_at === null
      ? 'Spearman ρ of the model ranking: needs at least two models'
      : `lowest Spearman ρ of the model ranking vs the default: ${r.min_spearman_rho.toFixed(4)} (at ${at(r.min_rho_at)})`,
  ];
}
