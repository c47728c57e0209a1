/**
 * AMA, audio-modality adherence. Seed §E.3: "Audio-adherence prompts check requested sounds, music,
 * dialogue, ambience, and audio style or emotion, while excluding audio-visual synchronization.
 * They use audio_track evidence when audio is requested and mark the metric not applicable when no
 * audio requirement exists." Seed §E.4: "an item marked not_applicable must not prompt an invented
 * audio expectation"; "Audio scores range from 1.0 for clearly satisfied, matched, appropriate, and
 * synchronized requirements to 0.0 for missing, unusable, contradicted, or unrelated sound.
 * Intermediate scores capture minor mismatches (0.75), partial support with an important property
 * missing (0.5), and weak, generic, faint, or poorly synchronized audio (0.25)."
 */
import type { MetricPrompt } from './metric-prompt.js';

export const AMA_PROMPT: MetricPrompt = {
  metric: 'AMA',
  version: 'ama-2',
  procedure: [
    'Audio-modality adherence: requested sounds, music, dialogue, ambience, and audio style or emotion; audio-visual synchronization is excluded (AVC owns it).',
    'Categories: sound_effects | music | dialogue | ambience | style_emotion. Single-requirement items, judged on audio_track evidence.',
    'When the request names no audio requirement, write one item with "not_applicable": true and no invented audio expectation.',
    'Scope: "shot", "cross_shot" or "full_video" as the requirement is placed.',
  ].join('\n'),
  rubric:
    'AMA owns adherence to the named audio requirement, judged on the audio_track; an item marked not_applicable must not prompt an invented audio expectation.',
  anchors: [
    'clearly satisfied, matched, appropriate and synchronized',
    'a minor mismatch',
    'partial support: an important property missing',
    'weak, generic, faint or poorly synchronized audio',
    'missing, unusable, contradicted or unrelated sound',
  ],
};
