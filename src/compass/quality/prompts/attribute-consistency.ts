/**
 * AC, attribute consistency. Seed §E.3: "Attribute Consistency classifies recurring characters,
 * animals, and props from the sample context, then creates identity or attribute persistence checks
 * anchored to relevant keyframes"; "Items prioritize entities visible in keyframes or central to the
 * prompt and link attributes to the keyframes that anchor them"; "Attribute, spatial, and physical
 * procedures prefer 4–8, 2–5, and 3–5 items respectively"; "check recurring or central subjects
 * using one identity cue per item. Each check uses the matching entity-type dimension and cites
 * every keyframe that visibly anchors the attribute." Seed §E.4: "The attribute rubric checks
 * whether named entities and identity cues remain recognizable across the scoped evidence, allowing
 * for prompt-requested changes"; "scores range from stable matches to missing, replaced, or
 * persistently wrong cues."
 */
import type { MetricPrompt } from './metric-prompt.js';

export const AC_PROMPT: MetricPrompt = {
  metric: 'AC',
  version: 'ac-2',
  procedure: [
    'Attribute consistency: first classify the recurring entities of the sample as character | animal | prop, prioritizing entities visible in the keyframes or central to the prompt.',
    'Then write 4–8 identity or attribute persistence checks, one identity cue per item; the dimension is the entity type (character, animal or prop).',
    'Anchor each item to every keyframe that visibly shows the attribute (its anchors list); prompt-requested changes are allowed, but check whether the new state persists.',
    'Scope: "cross_shot" or "full_video" across the spans where the entity recurs; "shot" for a change inside one shot.',
  ].join('\n'),
  rubric:
    'AC owns whether the named entities and their identity cues stay recognizable across the scoped evidence, allowing prompt-requested changes.',
  anchors: [
    'the entity and cue match the anchoring keyframes wherever visible',
    'a minor, brief deviation of the cue',
    'the cue drifts noticeably in part of the scope',
    'the cue is mostly wrong or the entity hard to recognize',
    'the entity is missing, replaced, or the cue persistently wrong',
  ],
};
