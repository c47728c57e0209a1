/**
 * Every Compass judge prompt, one versioned file per metric (seed §E.3 checklist procedures, §E.4
 * rubric sections) plus the checklist-generation and grouped-judge templates that place them.
 */
import type { QualityMetric } from '../metrics.js';
import { AC_PROMPT } from './attribute-consistency.js';
import { AMA_PROMPT } from './audio-modality-adherence.js';
import { AVC_PROMPT } from './av-coordination.js';
import { DVQ_PROMPT } from './dynamic-visual-quality.js';
import type { MetricPrompt } from './metric-prompt.js';
import { PR_PROMPT } from './physical-rationality.js';
import { SOC_PROMPT } from './spatial-orientation-consistency.js';
import { SVQ_PROMPT } from './static-visual-quality.js';
import { VMA_PROMPT } from './video-modality-adherence.js';

export const METRIC_PROMPTS: Record<QualityMetric, MetricPrompt> = {
  SVQ: SVQ_PROMPT,
  DVQ: DVQ_PROMPT,
  AC: AC_PROMPT,
  SOC: SOC_PROMPT,
  PR: PR_PROMPT,
  VMA: VMA_PROMPT,
  AMA: AMA_PROMPT,
  AVC: AVC_PROMPT,
};
