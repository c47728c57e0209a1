/**
 * One video's row of evaluation.jsonl: its keyframe response (the response axis's row) and its
 * quality report (the quality axis's), with its Overall under the readings (aggregate.ts). A
 * missing or undecodable video enters with 0 for both keyframe-response groups.
 */
import type { LoadedCase } from '../cases/cases.js';
import type { VideoEvaluation } from '../schemas/evaluation.js';
import type { QualityReport } from '../schemas/quality.js';
import type { ResponseRow } from '../schemas/response.js';
import { type KeyframeControlReading, overallOf, type VideoQualityReading } from './aggregate.js';

/** How Overall reads the groups (`--keyframe-control`, `--video-quality`). */
export interface OverallReadings {
  keyframeControl?: KeyframeControlReading | undefined;
  videoQuality?: VideoQualityReading | undefined;
}

/** One video's evaluation in run `run` from its response row and quality report, Overall under the readings. */
export function videoEvaluation(
  row: ResponseRow,
  run: number,
  quality: QualityReport,
  readings: OverallReadings,
  c: Pick<LoadedCase, 'domain' | 'duration_s'>,
): VideoEvaluation {
  // a missing or undecodable video: 0 on both keyframe-response groups, as on every quality metric
  const response = row.status === 'scored' ? row.groups : { keyframe_fidelity: 0, temporal_organization: 0 };
  return {
    case_id: row.case_id,
    model: row.model,
    prompt_mode: row.prompt_mode,
    run,
    status: row.status,
    structure: row.structure,
    n_keyframes: row.n_keyframes,
    conditioning: row.conditioning,
    domain: c.domain,
    duration_s: c.duration_s,
    response: { metrics: row.metrics, groups: row.groups },
    quality,
    overall: overallOf(
      {
        ...response,
        visual_quality: quality.groups.visual_quality.score,
        spatiotemporal_coherence: quality.groups.spatiotemporal_coherence.score,
        instruction_adherence: quality.groups.instruction_adherence.score,
      },
      quality,
      readings.keyframeControl,
      readings.videoQuality,
    ),
  };
}
