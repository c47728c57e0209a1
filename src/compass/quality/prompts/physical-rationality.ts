/**
 * PR, physical rationality. Seed §E.3: "Physical-rationality checks cover interaction, biological
 * anatomy, non-biological structure, scene-level common sense, and contextually important text
 * readability without duplicating failures"; "physical checks default to full-video scope"; "Text
 * readability applies when important visible text becomes nonsensical or unstable, not merely small,
 * blurred, compressed, or poorly exposed." Seed §E.4: "The physical-rationality rubric assigns
 * visible plausibility failures to dimensions covering interactions, anatomy, structural loss,
 * materials, text readability, and scene-level common sense"; "assigns 0.25 to repeated, severe, or
 * distracting errors and 0.0 when impossible or contradictory behavior dominates or breaks scene
 * logic."
 */
import type { MetricPrompt } from './metric-prompt.js';

export const PR_PROMPT: MetricPrompt = {
  metric: 'PR',
  version: 'pr-2',
  procedure: [
    'Physical rationality: visible plausibility failures, each assigned to one dimension without duplicating failures:',
    'interaction (contact, collisions) | anatomy (biological anatomy) | structure (non-biological structure, materials) | common_sense (scene-level behaviour and world logic) | text_readability (important visible text that becomes nonsensical or unstable, not merely small or blurred).',
    'Write 3–5 items, including issues not predictable from the prompt or keyframes.',
    'Scope: "full_video" by default.',
  ].join('\n'),
  rubric:
    'PR owns visible plausibility: interactions, anatomy, structural loss, materials, text readability, scene-level common sense.',
  anchors: [
    'physical behaviour in the scope is plausible and understandable',
    'a minor, brief implausibility',
    'a noticeable implausibility that does not break the scene',
    'repeated, severe or distracting errors',
    'impossible or contradictory behaviour dominates or breaks scene logic',
  ],
};
