/**
 * SOC, spatial orientation consistency. Seed §E.3: "Spatial-orientation checks assess visible
 * relative positions and scale proportions, treating changes as failures only when motion,
 * viewpoint shifts, or scene transitions do not explain them"; "Attribute, spatial, and physical
 * procedures prefer 4–8, 2–5, and 3–5 items respectively; … spatial checks use cross-shot or
 * full-video scope as appropriate"; "Checks use only clearly visible relations and name the
 * subjects and relation being evaluated." Seed §E.4: "The spatial rubric evaluates relations,
 * ordering, and proportions while accounting for visible movement, scene changes, and viewpoint."
 * and "MonST3R sensor context, when present, is auxiliary camera-motion context and does not provide
 * object masks, boxes, depth, or pose evidence" — kfbench's sensor context is its measured camera
 * motion per shot (media/motion.ts), and the rubric carries the same caveat (issue 54 item 7).
 */
import type { MetricPrompt } from './metric-prompt.js';

export const SOC_PROMPT: MetricPrompt = {
  metric: 'SOC',
  version: 'soc-3',
  procedure: [
    'Spatial orientation consistency: keyframe-grounded relative positions (left/right, front/behind, facing) and plausible scale proportions.',
    'Categories: relative_position | orientation | scale. Write 2–5 items, each naming the subjects and the relation evaluated; use only clearly visible relations.',
    'A change is a failure only when subject motion, viewpoint shifts or scene transitions do not explain it.',
    'Scope: "cross_shot" or "full_video" as appropriate.',
  ].join('\n'),
  rubric:
    'SOC owns relations, ordering and proportions, accounting for visible movement, scene changes and viewpoint (camera-induced layout changes are not drift). The measured camera motion, when given, is auxiliary camera-motion context only: it provides no object masks, boxes, depth or pose evidence, so every relation must be seen in the frames.',
  anchors: [
    'the relation and proportions hold wherever visible, or change only as motion or viewpoint explains',
    'a minor, brief inconsistency',
    'a noticeable unexplained change in part of the scope',
    'the relation is mostly broken or proportions clearly wrong',
    'the relation is contradicted throughout the scope',
  ],
};
