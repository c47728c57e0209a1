/**
 * The keyframe-response report of one video for one case: the six metrics per keyframe and for
 * the case, the two groups, and the shots with the keyframes assigned to them. A pure function
 * of a `Scan` and the metric constants, so re-scoring with other constants costs no decoding.
 */
import { InternalError } from '../../errors.js';
import { mean } from '../../stats/mean.js';
import type { LoadedCase } from '../cases/cases.js';
import {
  type KeyframeResponse,
  METRICS,
  type MetricScores,
  type ResponseReport,
} from '../schemas/response.js';
import type { Scan } from '../schemas/scan.js';
import { fidelity, kfsFrame } from './fidelity.js';
import { localize, shotAt } from './localization.js';
import { DEFAULT_RESPONSE_OPTIONS, type ResponseOptions } from './options.js';
import { ordering } from './ordering.js';
import { persistence } from './persistence.js';
import { type Placement, place, runSpan } from './placement.js';
import { presence } from './presence.js';
import { uniqueness } from './uniqueness.js';

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

function resolveGamma(o: Pick<ResponseOptions, 'gamma'>, embedderDefault: number | undefined): number {
  return o.gamma ?? embedderDefault ?? 0.8;
}

const unmatched = (x: Placement): Placement => ({
  ...x,
  matched: false,
  t_s: null,
  hold: null,
  peakRun: null,
  runs: [],
  refined: undefined,
});

/**
 * The report of a video that is missing or cannot be decoded: every keyframe unmatched, every
 * metric 0 (leaderboards compare models on the same cases).
 */
export function zeroResponse(
  c: Pick<LoadedCase, 'case_id' | 'keyframes'>,
  embedder: { id: string; defaultThreshold: number | undefined },
  opts: Partial<ResponseOptions> = {},
): ResponseReport {
  const zero = Object.fromEntries(METRICS.map((m) => [m, 0])) as MetricScores;
  return {
    case_id: c.case_id,
    embedder: embedder.id,
    gamma: resolveGamma({ ...DEFAULT_RESPONSE_OPTIONS, ...opts }, embedder.defaultThreshold),
    metrics: { ...zero },
    groups: { keyframe_fidelity: 0, temporal_organization: 0 },
    keyframes: c.keyframes.map((kf) => ({
      kf_id: kf.kf_id,
      matched: false,
      t_best_s: null,
      t_peak_s: 0,
      cos: 0,
      psnr_db: null,
      ssim: null,
      shot: null,
      aligned_shot: null,
      persistence_s: null,
      runs: 0,
      shared_hold: false,
      scores: { ...zero },
    })),
    shots: [],
    sample_fps: 0,
  };
}

export function scoreResponse(
  c: Pick<LoadedCase, 'case_id' | 'structure' | 'keyframes'>,
  scan: Scan,
  embedder: { id: string; defaultThreshold: number | undefined },
  opts: Partial<ResponseOptions> = {},
): ResponseReport {
  const o = { ...DEFAULT_RESPONSE_OPTIONS, ...opts };
  const K = c.keyframes.length;
  // a scan of another case's keyframes (the scan cache keys scans by the keyframe files)
  if (scan.sims.length !== K || scan.peaks.length !== K)
    throw new InternalError(
      `case ${c.case_id}: ${K} keyframes, but its scan holds ${scan.sims.length} similarity curves and ${scan.peaks.length} peaks`,
    );
  const gamma = resolveGamma(o, embedder.defaultThreshold);
  // a one-take keyframe whose target lies past the video's end cannot be reached: a miss
  const p = c.keyframes.map((kf, k) => {
    const target = c.structure === 'one_take' ? kf.t_target_s : undefined;
    const x = place(scan, k, gamma, o, target);
    return target !== undefined && target > scan.video.duration_s ? unmatched(x) : x;
  });
  const pres = presence(p);
  const fid = fidelity(p, scan.peaks, o);
  const ord = ordering(p);
  const { scores: loc, alignment } = localize(c.structure, c.keyframes, p, scan.shots, o);
  const per = persistence(p, scan.sample_fps, o, scan.video.vfr ? (r) => runSpan(scan, r) : undefined);
  const uni = uniqueness(p, scan, o);
  const shotOf = p.map((x) => (x.t_s === null ? null : shotAt(scan.shots, x.t_s)));
  const keyframes: KeyframeResponse[] = c.keyframes.map((kf, k) => {
    const x = p[k]!;
    // the KFS frame: both of KFS's terms, and so what `compass sensitivity` recomputes KFS from
    const peak = kfsFrame(x, scan.peaks[k]!, o);
    return {
      kf_id: kf.kf_id,
      matched: x.matched,
      t_best_s: x.t_s === null ? null : r6(x.t_s),
      t_peak_s: r6(x.t_peak_s),
      cos: r6(x.matched ? peak.cos : x.cos),
      psnr_db: x.matched && peak.psnr_db !== null ? r6(peak.psnr_db) : null,
      ssim: x.matched ? r6(peak.ssim) : null,
      shot: shotOf[k] ?? null,
      aligned_shot: c.structure === 'multi_shot' ? (alignment[kf.shot_index ?? 0] ?? null) : null,
      persistence_s: per.seconds[k] === null ? null : r6(per.seconds[k]!),
      runs: uni.runs[k]!,
      shared_hold: uni.sharedHold[k]!,
      scores: {
        presence: pres[k]!,
        fidelity: r6(fid[k]!),
        ordering: r6(ord.perKeyframe[k]!),
        localization: r6(loc[k]!),
        persistence: r6(per.scores[k]!),
        uniqueness: r6(uni.scores[k]!),
      },
    };
  });
  const metrics: MetricScores = {
    presence: r6(mean(pres)),
    fidelity: r6(mean(fid)),
    ordering: r6(ord.score),
    localization: r6(mean(loc)),
    persistence: r6(mean(per.scores)),
    uniqueness: r6(mean(uni.scores)),
  };
  return {
    case_id: c.case_id,
    embedder: embedder.id,
    gamma,
    metrics,
    groups: {
      keyframe_fidelity: r6((metrics.presence + metrics.fidelity) / 2),
      temporal_organization: r6(
        (metrics.ordering + metrics.localization + metrics.persistence + metrics.uniqueness) / 4,
      ),
    },
    keyframes,
    shots: scan.shots.map((s, i) => ({
      index: i,
      start_s: r6(s.start_s),
      end_s: r6(s.end_s),
      keyframes: c.keyframes.flatMap((kf, k) => (shotOf[k] === i ? [kf.kf_id] : [])),
    })),
    sample_fps: scan.sample_fps,
  };
}
