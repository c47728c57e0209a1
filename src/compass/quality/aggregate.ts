/**
 * Aggregation (SPEC §3.3 steps 3–4). Groups: Visual Quality = mean(SVQ, DVQ); Spatiotemporal
 * Coherence = mean(AC, SOC, PR); Instruction Adherence = mean(VMA, AMA) (AMA only where it
 * applies); AV Coordination = AVC. A group is the mean of the metrics of it that were scored; a
 * metric that applies but could not be scored (unresolved, not measured) is named in `incomplete`;
 * a group with no scored metric is null. Overall, per case and prompt mode = mean(Keyframe
 * Fidelity, Temporal Organization, Visual Quality, Spatiotemporal Coherence, Instruction Adherence)
 * over the groups that could be measured — a missing group is left out and flagged, never counted
 * as zero; per case = the mean over the prompt modes; per model = the mean over cases. Beside it,
 * the joint audio-video Overall (`joint_av`): the same five groups and AV Coordination where it
 * applies (the seed's headline is a "joint audio-video leaderboard"); a group scored from only
 * some of its metrics is listed in `incomplete` ("instruction_adherence: AMA").
 */

import { mean } from '../../stats/mean.js';
import {
  type GroupResult,
  type MetricResult,
  OVERALL_GROUPS,
  type OverallGroup,
  type OverallResult,
} from '../results.js';
import { groupMetrics, QUALITY_GROUP_NAMES, type QualityGroup, type QualityMetric } from './metrics.js';

export {
  type GroupResult,
  type MetricResult,
  type MetricStatus,
  OVERALL_GROUPS,
  type OverallGroup,
  type OverallResult,
} from '../results.js';

export function qualityGroups(
  metrics: Readonly<Record<QualityMetric, MetricResult>>,
): Record<QualityGroup, GroupResult> {
  const group = (g: QualityGroup): GroupResult => {
    const ms = groupMetrics(g);
    const scored = ms.filter((m) => metrics[m].status === 'scored').map((m) => metrics[m].score!);
    const incomplete = ms.filter(
      (m) => metrics[m].status === 'unresolved' || metrics[m].status === 'not_measured',
    );
    return { score: scored.length ? mean(scored) : null, incomplete };
  };
  return {
    visual_quality: group('visual_quality'),
    spatiotemporal_coherence: group('spatiotemporal_coherence'),
    instruction_adherence: group('instruction_adherence'),
    av_coordination: group('av_coordination'),
  };
}

/**
 * Overall of one case in one prompt mode: video-only, and with `quality` (the video's quality
 * groups) the joint audio-video Overall and the groups scored from only some of their metrics.
 */
export function overallOf(
  groups: Partial<Record<OverallGroup, number | null>>,
  quality?: Readonly<Record<QualityGroup, GroupResult>>,
): OverallResult {
  const have = OVERALL_GROUPS.filter((g) => typeof groups[g] === 'number');
  const out: OverallResult = {
    score: have.length ? mean(have.map((g) => groups[g]!)) : null,
    missing: OVERALL_GROUPS.filter((g) => typeof groups[g] !== 'number'),
  };
  if (!quality) return out;
  const av = quality.av_coordination;
  // AV Coordination enters where it was scored; it is missing where it applies but was not measured
  const avScored = typeof av.score === 'number';
  const joint = [...have.map((g) => groups[g]!), ...(avScored ? [av.score!] : [])];
  out.joint_av = {
    score: joint.length ? mean(joint) : null,
    missing: [...out.missing, ...(!avScored && av.incomplete.length ? (['av_coordination'] as const) : [])],
  };
  out.incomplete = QUALITY_GROUP_NAMES.filter(
    (g) => quality[g].incomplete.length && typeof quality[g].score === 'number',
  ).map((g) => `${g}: ${quality[g].incomplete.join(' ')}`);
  return out;
}

/** Overall of one case: the mean over its prompt modes that have an Overall; flagged when any is missing. */
export function caseOverall(perMode: readonly OverallResult[]): OverallResult {
  const have = perMode.filter((o) => o.score !== null);
  const out: OverallResult = {
    score: have.length ? mean(have.map((o) => o.score!)) : null,
    missing: [...new Set(perMode.flatMap((o) => o.missing))],
  };
  if (perMode.some((o) => o.joint_av)) {
    const joint = perMode.flatMap((o) => (o.joint_av?.score != null ? [o.joint_av.score] : []));
    out.joint_av = {
      score: joint.length ? mean(joint) : null,
      missing: [...new Set(perMode.flatMap((o) => o.joint_av?.missing ?? o.missing))],
    };
  }
  const inc = perMode.flatMap((o) => o.incomplete ?? []);
  if (inc.length) out.incomplete = [...new Set(inc)];
  return out;
}
