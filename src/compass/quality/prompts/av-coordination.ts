/**
 * AVC, audio-visual coordination. Seed App. D: "Audio-Visual Coordination judges intrinsic
 * audio–video semantic and temporal agreement independently of the prompt." The seed's §E.3/§E.4
 * print no AVC-specific procedure or anchors; kfbench's reading (issue 54 item 3; docs/compass.md,
 * "AV Coordination, independently of the prompt"): AVC's items and its judgement come from the
 * video and its sound alone —
 *  - its checklist is fixed (`AVC_CHECKLIST`), the same for every case and prompt mode, never
 *    generated from the request (a checklist is written without the video, so anything it could
 *    add would come from the prompt);
 *  - its grouped-judge call (`AV_TEMPLATE`) shows the sampled frames, the measured shots and the
 *    audio track — no prompt, no story summary, no keyframes, no requested structure.
 * Anchors are worded after the audio rubric's ("1.0 for clearly satisfied, matched, appropriate,
 * and synchronized … 0.0 for missing, unusable, contradicted, or unrelated sound", §E.4).
 */
import type { ChecklistItem } from '../../schemas/quality.js';
import type { MetricPrompt } from './metric-prompt.js';

export const AVC_PROMPT: MetricPrompt = {
  metric: 'AVC',
  version: 'avc-3',
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

/** AVC's checklist: one item per category of the procedure, the same for every case and prompt mode. */
export const AVC_CHECKLIST: readonly ChecklistItem[] = [
  {
    item_id: 'AVC-1',
    question:
      'Do the sounds fit their visible sources and the scene shown (what is heard is what is seen making it)?',
    scope: 'full_video',
    anchors: [],
    dimension: 'semantic_match',
  },
  {
    item_id: 'AVC-2',
    question: 'Do sounds start and stop with the visible events that make them (no audible lead or lag)?',
    scope: 'full_video',
    anchors: [],
    dimension: 'temporal_sync',
  },
  {
    item_id: 'AVC-3',
    question:
      'Does the sound follow the cuts and scene changes of the video (it changes where the picture does)?',
    scope: 'cross_shot',
    anchors: [],
    dimension: 'transition',
  },
];

/**
 * The grouped judge's question for AVC alone: the video and its sound, nothing of the request.
 * Keeps the grouped template's reply contract and its evidence rules (seed §E.4).
 */
export const AV_TEMPLATE = `You are judging a generated video against checklists for these metrics: {{metrics}}.

The video lasts {{duration_s}} s. {{shown}} Its audio track is attached after the images. Judge the sound and the picture of this video against each other only: you are not told what the video was asked to show, and nothing here depends on it.
Measured evidence you may cite (from perception tools, not from a model):
{{evidence}}

Checklists (score every item unless the evidence is genuinely insufficient; the metric's score is the mean of its valid item scores, recomputed by the parser):
{{checklists}}

Rubric, one section per metric (what it owns, and the score anchors with their meanings):
{{rubric}}

Score each item on these anchors only: 1.0, 0.75, 0.5, 0.25, 0.0. Every score must rest on observable evidence: timestamped observations inside the video (t_start_s ≤ t_end_s, in seconds), each described concretely enough to support pass, partial or fail; generic judgments without timestamped observations are insufficient. {{time_rule}}
"support" is the verdict the evidence supports: "pass" (score 1.0), "partial" (0.75, 0.5 or 0.25) or "fail" (0.0).

Answer with strict JSON only, one object per metric and one result per item, in this shape:
{"metrics":[{"metric":"{{first_metric}}","items":[{"item_id":"…","score":0.75,"support":"partial","evidence":[{"t_start_s":1.0,"t_end_s":2.5,"observation":"…"}]}]}]}`;
