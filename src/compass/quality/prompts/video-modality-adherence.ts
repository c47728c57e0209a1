/**
 * VMA, video-modality adherence. Seed §E.3: "Video-modality checks assess requested camera behavior,
 * shot count or continuous-take structure, narrative rhythm and focus, and required subjects,
 * props, actions, or scenes in intended segments. They evaluate prompt/spec adherence rather than
 * internal visual quality, spatial consistency, or physical plausibility"; "Checklist-generation
 * prompts use single-requirement items and scope them to shots, cross-shot transitions, or the full
 * video as appropriate"; "Minimal-prompt video-adherence prompts ground checks in keyframes and the
 * story summary … without inventing absent details." Seed §E.4: "Video adherence scores range from
 * 1.0 for clearly present, correctly timed and placed content to 0.0 for missing, contradicted,
 * misplaced, or unrelated content. Scores of 0.75, 0.5, and 0.25 represent progressively more
 * substantial issues, from minor problems to weak or ambiguously localized adherence"; "One-take
 * means a single continuous shot with no cuts".
 */
import type { MetricPrompt } from './metric-prompt.js';

export const VMA_PROMPT: MetricPrompt = {
  metric: 'VMA',
  version: 'vma-2',
  procedure: [
    'Video-modality adherence: prompt/spec adherence, not internal visual quality, spatial consistency or physical plausibility.',
    'Categories: camera (requested camera behaviour and framing) | structure (shot count, or one continuous take with no cuts) | rhythm_focus (narrative rhythm and story focus) | content (required subjects, props, actions or scenes in their intended segments).',
    'Single-requirement items; for a full-video story-focus check, ask whether the sequence preserves the intended focus rather than spending most of its time on unrelated actions.',
    'Scope: "shot", "cross_shot" (transitions) or "full_video" as appropriate.',
  ].join('\n'),
  rubric:
    'VMA owns adherence to the named prompt/spec requirement: camera, shot structure (one take = a single continuous shot with no cuts), rhythm and focus, required content in its intended segment.',
  anchors: [
    'clearly present, correctly timed and placed',
    'present with a minor problem',
    'present with a substantial issue (partly wrong, mistimed or misplaced)',
    'weak or ambiguously localized adherence',
    'missing, contradicted, misplaced or unrelated',
  ],
};
