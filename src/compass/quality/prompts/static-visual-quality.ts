/**
 * SVQ, static visual quality. Seed §E.3: "Static Visual Quality evaluates frame-level clarity,
 * artifacts, color and lighting aesthetics, and style stability, excluding anatomy, physical
 * behavior, prompt adherence, and identity or attribute drift"; "Static checks favor 3–6
 * single-subdimension items, using shot or segment scope for localized quality and full-video scope
 * for style consistency or pervasive issues". Seed §E.4: "The static visual rubric judges
 * frame-level clarity, artifacts, color and lighting, and style consistency within the checklist
 * item's scope."
 */
import type { MetricPrompt } from './metric-prompt.js';

export const SVQ_PROMPT: MetricPrompt = {
  metric: 'SVQ',
  version: 'svq-2',
  procedure: [
    'Static visual quality owns frame-level clarity (sharpness, blur), visual artifacts, colour and lighting aesthetics, and style stability.',
    'It excludes anatomy, physical behaviour, prompt adherence, and identity or attribute drift (other metrics own them).',
    'Categories: clarity | artifacts | color_lighting | style_consistency. Write 3–6 items, each on a single subdimension.',
    'Scope: "shot" (or a keyframe-to-keyframe segment) for localized quality; "full_video" for style consistency or pervasive issues.',
  ].join('\n'),
  rubric:
    "SVQ owns frame-level clarity, artifacts, colour and lighting, and style consistency within the item's scope.",
  anchors: [
    'clean, sharp frames with consistent style throughout the scope',
    'minor, brief blemishes that do not distract',
    'noticeable blur, artifacts or lighting problems in part of the scope',
    'frequent or distracting defects over much of the scope',
    'frames unusable: pervasive corruption, heavy artifacts or broken style',
  ],
};
