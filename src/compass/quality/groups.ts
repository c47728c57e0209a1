/**
 * The quality groups (SPEC §3.3 step 3; docs/compass.md, "How the leaderboard is computed"):
 * Visual Quality = mean(SVQ, DVQ); Spatiotemporal Coherence = mean(AC, SOC, PR); Instruction
 * Adherence = mean(VMA, AMA) (AMA only where it applies); AV Coordination = AVC. A group is the mean
 * of the metrics of it that were scored; a metric that applies but could not be scored
 * (unresolved, not measured) is named in `incomplete`; a group with no scored metric is null.
 */
import { mean } from '../../stats/mean.js';
import type { GroupResult, MetricResult } from '../schemas/quality.js';
import { groupMetrics, type QualityGroup, type QualityMetric } from './metrics.js';

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
