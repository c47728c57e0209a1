/**
 * AVC, audio-visual coordination. Seed App. D: "Audio-Visual Coordination judges intrinsic
 * audio–video semantic and temporal agreement independently of the prompt." The seed's §E.3/§E.4
 * print no AVC-specific procedure or anchors; kfbench's reading: items on semantic and temporal
 * agreement between the audio track and the picture, with anchors worded after the audio rubric's
 * ("1.0 for clearly satisfied, matched, appropriate, and synchronized … 0.0 for missing, unusable,
 * contradicted, or unrelated sound", §E.4).
 */
import type { MetricPrompt } from './metric-prompt.js';

export const AVC_PROMPT: MetricPrompt = {
  metric: 'AVC',
  version: 'avc-2',
  procedure: [
    'Audio-visual coordination: intrinsic audio–video semantic and temporal agreement, independently of the prompt.',
    'Categories: semantic_match (sounds fit their visible sources and the scene) | temporal_sync (sounds start and stop with the visible events that make them) | transition (sound follows cuts and scene changes). Single-criterion items.',
    'Scope: "shot" for a localized event, "cross_shot" at cuts, "full_video" for pervasive agreement.',
  ].join('\n'),
  rubric: 'AVC owns the agreement of sound and picture, semantic and temporal, whatever the prompt asked.',
  anchors: [
    'sound and picture clearly match and are synchronized',
    'a minor mismatch or small offset',
    'partly matched: an important event unsounded or off',
    'weak, generic or poorly synchronized',
    'unrelated, contradicted or missing sound',
  ],
};
