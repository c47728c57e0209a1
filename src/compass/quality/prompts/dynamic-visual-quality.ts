/**
 * DVQ, dynamic visual quality. Seed §E.3: "Dynamic quality assigns temporal artifacts to distinct
 * owners: jumps or replacements, stagnant intervals, in-place morphing, recurring within-shot
 * flicker, or boundary glitches"; "Dynamic checks use full-video scope for recurring artifacts,
 * cross-shot scope for boundary glitches, localized segments when appropriate, and one artifact
 * criterion per item". Seed §E.4: "The dynamic visual rubric assesses temporal defects such as
 * discontinuities, stutter or repetition, implausible morphing, and flicker or instability."
 */
import type { MetricPrompt } from './metric-prompt.js';

export const DVQ_PROMPT: MetricPrompt = {
  metric: 'DVQ',
  version: 'dvq-2',
  procedure: [
    'Dynamic visual quality owns temporal artifacts, each assigned to one owner category:',
    'jump_replacement (sudden jumps or replacements) | stagnation (stagnant, frozen intervals) | morphing (in-place morphing) | flicker (recurring within-shot flicker) | boundary_glitch (glitches at shot or segment boundaries).',
    'One artifact criterion per item.',
    'Scope: "full_video" for recurring artifacts; "cross_shot" for boundary glitches; "shot" (a localized segment) when appropriate.',
  ].join('\n'),
  rubric:
    'DVQ owns temporal defects: discontinuities, stutter or repetition, implausible morphing, flicker or instability.',
  anchors: [
    'smooth, stable motion with no temporal defect in the scope',
    'a minor, brief temporal defect',
    'a noticeable defect (a jump, a frozen stretch, morphing or flicker) in part of the scope',
    'repeated or severe temporal defects that distract',
    'motion broken throughout: the defect dominates the scope',
  ],
};
