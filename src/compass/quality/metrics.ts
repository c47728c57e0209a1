/**
 * The video-quality metrics of SPEC §3.3, their groups, and when each applies. AMA (audio-modality
 * adherence) follows the prompt: omitted for minimal prompts (as published: "omitting AMA for
 * minimal prompts", App. C) and not applicable when the case requests no audio ("mark the metric
 * not applicable when no audio requirement exists", §E.3). AVC (audio–visual coordination) does
 * not: "Audio-Visual Coordination judges intrinsic audio–video semantic and temporal agreement
 * independently of the prompt" (App. D), so it applies to every case, and is judged on every video
 * that has an audio track (quality/video.ts settles a video without one).
 */
import type { Case, PromptMode } from '../cases/cases.js';

export const QUALITY_METRICS = ['SVQ', 'DVQ', 'AC', 'SOC', 'PR', 'VMA', 'AMA', 'AVC'] as const;
export type QualityMetric = (typeof QUALITY_METRICS)[number];

/** A record over the metrics, in the order of QUALITY_METRICS. */
export function byMetric<V>(f: (m: QualityMetric) => V): Record<QualityMetric, V> {
  return {
    SVQ: f('SVQ'),
    DVQ: f('DVQ'),
    AC: f('AC'),
    SOC: f('SOC'),
    PR: f('PR'),
    VMA: f('VMA'),
    AMA: f('AMA'),
    AVC: f('AVC'),
  };
}

export const METRIC_NAMES: Record<QualityMetric, string> = {
  SVQ: 'static visual quality',
  DVQ: 'dynamic visual quality',
  AC: 'attribute consistency',
  SOC: 'spatial orientation consistency',
  PR: 'physical rationality',
  VMA: 'video modality adherence',
  AMA: 'audio modality adherence',
  AVC: 'audio-visual coordination',
};

export const QUALITY_GROUP_NAMES = [
  'visual_quality',
  'spatiotemporal_coherence',
  'instruction_adherence',
  'av_coordination',
] as const;
export type QualityGroup = (typeof QUALITY_GROUP_NAMES)[number];

/** The grouped judge asks related metrics together; the groups also aggregate (SPEC §3.3 step 3). */
const QUALITY_GROUPS = {
  visual_quality: ['SVQ', 'DVQ'],
  spatiotemporal_coherence: ['AC', 'SOC', 'PR'],
  instruction_adherence: ['VMA', 'AMA'],
  av_coordination: ['AVC'],
} as const satisfies Record<QualityGroup, readonly QualityMetric[]>;

/** A group's metrics, as a plain list. */
export function groupMetrics(g: QualityGroup): readonly QualityMetric[] {
  return QUALITY_GROUPS[g];
}

export type Applicability = { applies: true } | { applies: false; reason: string };

export function applicability(
  c: Pick<Case, 'audio'>,
  mode: PromptMode,
  metric: QualityMetric,
): Applicability {
  if (metric === 'AMA' && mode === 'minimal')
    return { applies: false, reason: 'AMA is not judged for minimal prompts (as published)' };
  if (metric === 'AMA' && !c.audio?.requested)
    return { applies: false, reason: 'the case requests no audio' };
  return { applies: true };
}
