/**
 * The generation prompt templates (`assets/prompts/compass-gen-<mode>-<structure>.md`): minimal /
 * segment-specific × multi-shot / one-take, rendered for a case. The case's own prompt text for
 * the mode is placed in the template; the keyframe schedule comes from the case.
 */
import { loadTemplate, render } from '../../judge/prompts.js';
import type { Case, PromptMode } from './cases.js';

export function generationPrompt(
  c: Case,
  mode: PromptMode,
): { template: string; version: string; text: string } {
  const t = loadTemplate(`compass-gen-${mode}-${c.structure}`);
  const n = c.keyframes.length;
  const keyframes =
    c.structure === 'one_take'
      ? c.keyframes.map((k, i) => `- keyframe ${i + 1} (${k.kf_id}) at ${k.t_target_s} s`)
      : c.keyframes.map(
          (k, i) =>
            `- keyframe ${i + 1} (${k.kf_id}): shot ${(k.shot_index ?? 0) + 1}, ${k.shot_position ?? 'representative'}`,
        );
  const shots = new Set(c.keyframes.map((k) => k.shot_index ?? 0)).size;
  const text = render(t, {
    n,
    duration_s: c.duration_s,
    shots,
    keyframes: keyframes.join('\n'),
    conditioning:
      c.conditioning === 'storyboard_grid'
        ? `given as one storyboard grid (read it row by row, left to right: cell 1 is keyframe 1)`
        : 'given as an ordered list of images',
    prompt: mode === 'minimal' ? c.prompts.minimal : c.prompts.segment_specific,
    story: c.story_summary,
    audio: c.audio?.requested ? 'Generate a matching audio track.' : 'No audio is needed.',
  });
  return { template: t.name, version: t.version, text };
}

/** `compass prompts` as one call: the case's generation prompt in each of `modes`. */
export function casePrompts(c: Case, modes: readonly PromptMode[]) {
  return modes.map((mode) => ({ case_id: c.case_id, mode, ...generationPrompt(c, mode) }));
}
