/**
 * Aggregation (SPEC §3.3 steps 3–4). Groups: Visual Quality = mean(SVQ, DVQ); Spatiotemporal
 * Coherence = mean(AC, SOC, PR); Instruction Adherence = mean(VMA, AMA) (AMA only where it
 * applies); AV Coordination = AVC. A group is the mean of the metrics of it that were scored; a
 * metric that applies but could not be scored (unresolved, not measured) is named in `incomplete`;
 * a group with no scored metric is null. Overall, per case and prompt mode = mean(Keyframe
 * Fidelity, Temporal Organization, Visual Quality, Spatiotemporal Coherence, Instruction Adherence)
 * over the groups that could be measured — a missing group is left out and flagged, never counted
 * as zero; per case = the mean over the prompt modes; per model = the mean over cases.
 */
import { QUALITY_GROUPS, type QualityGroup, type QualityMetric } from './metrics.js';

export type MetricStatus = 'scored' | 'unresolved' | 'not_applicable' | 'not_measured';

export interface MetricResult {
  status: MetricStatus;
  score: number | null;
  reason?: string;
}

export interface GroupResult {
  score: number | null;
  incomplete: QualityMetric[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function qualityGroups(
  metrics: Readonly<Record<QualityMetric, MetricResult>>,
): Record<QualityGroup, GroupResult> {
  const out = {} as Record<QualityGroup, GroupResult>;
  for (const [g, ms] of Object.entries(QUALITY_GROUPS) as [QualityGroup, readonly QualityMetric[]][]) {
    const scored = ms.filter((m) => metrics[m].status === 'scored').map((m) => metrics[m].score!);
    const incomplete = ms.filter(
      (m) => metrics[m].status === 'unresolved' || metrics[m].status === 'not_measured',
    );
    out[g] = { score: scored.length ? mean(scored) : null, incomplete };
  }
  return out;
}

export const OVERALL_GROUPS = [
  'keyframe_fidelity',
  'temporal_organization',
  'visual_quality',
  'spatiotemporal_coherence',
  'instruction_adherence',
] as const;
export type OverallGroup = (typeof OVERALL_GROUPS)[number];

export interface OverallResult {
  score: number | null;
  /** Groups left out because they could not be measured. */
  missing: OverallGroup[];
}

/** Overall of one case in one prompt mode. */
export function overallOf(groups: Partial<Record<OverallGroup, number | null>>): OverallResult {
  const have = OVERALL_GROUPS.filter((g) => typeof groups[g] === 'number');
  return {
    score: have.length ? mean(have.map((g) => groups[g]!)) : null,
    missing: OVERALL_GROUPS.filter((g) => typeof groups[g] !== 'number'),
  };
}

/** Overall of one case: the mean over its prompt modes that have an Overall; flagged when any is missing. */
export function caseOverall(perMode: readonly OverallResult[]): OverallResult {
  const have = perMode.filter((o) => o.score !== null);
  return {
    score: have.length ? mean(have.map((o) => o.score!)) : null,
    missing: [...new Set(perMode.flatMap((o) => o.missing))],
  };
}
