/**
 * `compass response` as text: the six metrics with a header, then one row per keyframe under a
 * header whose column names carry their units (`_s` seconds of the video, `_db` decibels), then a
 * line saying what the columns are. `--json` prints the report itself, not this.
 */

import type { ResponseReport } from '../compass/schemas/response.js';
import { METRICS } from '../compass/schemas/response.js';
import { textTable } from './table.js';

const f3 = (x: number) => x.toFixed(3);
const orDash = (x: number | null, f: (x: number) => string) => (x === null ? '—' : f(x));

/** The per-keyframe columns, in the order printed. */
const RESPONSE_COLUMNS = [
  'keyframe',
  'target_s',
  'found_s',
  'peak_s',
  'shot',
  'cos',
  'psnr_db',
  'ssim',
  ...METRICS,
] as const;

/**
 * The text report of one video. `targets`: each keyframe's target time in the case (`t_target_s`;
 * a multi-shot keyframe has none and shows "—").
 */
export function responseLines(
  r: ResponseReport,
  targets: ReadonlyMap<string, number | undefined>,
  segmenter: string,
): string[] {
  const kf = r.keyframes.map((k) => [
    k.kf_id,
    orDash(targets.get(k.kf_id) ?? null, f3),
    k.matched ? orDash(k.t_best_s, f3) : 'not found',
    f3(k.t_peak_s),
    orDash(k.shot, String),
    f3(k.cos),
    orDash(k.psnr_db, (x) => x.toFixed(2)),
    orDash(k.ssim, f3),
    ...METRICS.map((m) => f3(k.scores[m])),
  ]);
  return [
    `case ${r.case_id}, embedder ${r.embedder}, γ = ${r.gamma}, ${r.shots.length} shot${r.shots.length === 1 ? '' : 's'} (segmenter ${segmenter})`,
    '',
    ...textTable(
      ['metric', 'score'],
      METRICS.map((m) => [m, f3(r.metrics[m])]),
    ),
    `keyframe fidelity ${f3(r.groups.keyframe_fidelity)}, temporal organization ${f3(r.groups.temporal_organization)}`,
    '',
    ...textTable(RESPONSE_COLUMNS, kf),
    '',
    "seconds of the video: target_s the case's target time (— none: multi-shot), found_s t(k) the frame of the hold nearest the target (f*'s without one), peak_s the time of f* its most similar frame, both frames' presentation times;",
    'shot: the detected shot holding t(k), from 0; cos: cosine similarity of the KFS frame to the keyframe; psnr_db: its PSNR in dB, ssim its SSIM (— unmatched); cos, ssim and the six scores are 0–1',
  ];
}
