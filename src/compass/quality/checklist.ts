/**
 * Checklist generation (SPEC §3.3 step 1; the paper's appendix E.3): for a case, a prompt mode and
 * one metric, the judge sees the request, the story summary and the keyframes — never a video —
 * and writes atomic, observable items, as many as the seed's procedure for that metric prefers
 * (`CHECKLIST_SIZES`). Answers are cached like every judge call and written to
 * `checklists.jsonl`, so every model is judged against the same items.
 * The prompt is src/compass/quality/prompts/checklist-generation.ts with the metric's procedure from its own
 * file there. Reply contract: {"items":[{"item_id","question","scope","anchors":[kf_id…],
 * "dimension", "not_applicable"?}]}.
 */
import { z } from 'zod';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { render } from '../../judge/prompts.js';
import type { LoadedCase, PromptMode } from '../cases/cases.js';
import { type Checklist, ChecklistItem } from '../schemas/quality.js';
import { METRIC_NAMES, type QualityMetric } from './metrics.js';
import { AVC_CHECKLIST } from './prompts/av-coordination.js';
import { METRIC_PROMPTS } from './prompts/by-metric.js';
import { checklistTemplate } from './prompts/checklist-generation.js';

const CHECKLIST_PROTOCOL = 'compass-checklist';

/**
 * Items per checklist, per metric, as published (seed E.3): "Static checks favor 3–6
 * single-subdimension items"; "Attribute, spatial, and physical procedures prefer 4–8, 2–5, and
 * 3–5 items respectively". The others keep 3–8.
 */
export const CHECKLIST_SIZES: Record<QualityMetric, readonly [number, number]> = {
  SVQ: [3, 6],
  DVQ: [3, 8],
  AC: [4, 8],
  SOC: [2, 5],
  PR: [3, 5],
  VMA: [3, 8],
  AMA: [3, 8],
  AVC: [3, 8],
};

/**
 * The reply schema for one case and metric: at least one item, unique ids, anchors among the
 * keyframes. The published sizes are preferences ("favor", "prefer"), not limits: a list outside
 * `CHECKLIST_SIZES` is kept and flagged (`outside_preferred_size`), never re-asked or unresolved;
 * only an empty list is.
 */
export function checklistSchema(kfIds: readonly string[], _metric?: QualityMetric) {
  const known = new Set(kfIds);
  return z.object({ items: z.array(ChecklistItem).min(1) }).superRefine((v, ctx) => {
    const ids = new Set<string>();
    for (const [i, it] of v.items.entries()) {
      if (ids.has(it.item_id))
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'item_id'],
          message: `item_id ${it.item_id} repeats`,
        });
      ids.add(it.item_id);
      for (const a of it.anchors)
        if (!known.has(a))
          ctx.addIssue({ code: 'custom', path: ['items', i, 'anchors'], message: `unknown keyframe ${a}` });
    }
  });
}

function keyframeLines(c: LoadedCase): string {
  return c.keyframes
    .map((k) =>
      c.structure === 'one_take'
        ? `  - ${k.kf_id}: at ${k.t_target_s} s`
        : `  - ${k.kf_id}: shot ${(k.shot_index ?? 0) + 1}, ${k.shot_position ?? 'representative'}`,
    )
    .join('\n');
}

export function checklistQuestion(
  c: LoadedCase,
  mode: PromptMode,
  metric: QualityMetric,
  images: Awaited<ReturnType<ImageEncoder['fromFile']>>[],
) {
  const t = checklistTemplate(metric);
  const prompt = render(t, {
    metric,
    metric_name: METRIC_NAMES[metric],
    procedure: METRIC_PROMPTS[metric].procedure,
    structure: c.structure === 'one_take' ? 'one continuous take' : 'multi-shot',
    duration_s: c.duration_s,
    n: c.keyframes.length,
    keyframes: keyframeLines(c),
    mode: mode === 'minimal' ? 'minimal' : 'segment-specific',
    prompt: mode === 'minimal' ? c.prompts.minimal : c.prompts.segment_specific,
    min: CHECKLIST_SIZES[metric][0],
    max: CHECKLIST_SIZES[metric][1],
    story: `- story summary: ${c.story_summary}`,
    mode_rule:
      mode === 'minimal'
        ? 'The prompt is minimal: ground every item in the keyframes and the story summary; only expectations inferable from the keyframes or the story summary count; do not invent absent details.'
        : 'Use the segment-by-segment prompt and the story summary.',
  });
  return {
    prompt,
    images,
    labels: c.keyframes.map((k) => k.kf_id),
    protocol: { name: CHECKLIST_PROTOCOL, version: t.version },
    schema: checklistSchema(
      c.keyframes.map((k) => k.kf_id),
      metric,
    ),
  };
}

/**
 * The metrics whose checklist the judge writes from the sample specification: every one but AVC,
 * whose items are fixed (`AVC_CHECKLIST`: "independently of the prompt", App. D).
 */
export const generatedChecklist = (metric: QualityMetric) => metric !== 'AVC';

export async function generateChecklist(
  judge: Judge,
  encoder: ImageEncoder,
  c: LoadedCase,
  mode: PromptMode,
  metric: QualityMetric,
): Promise<Checklist> {
  if (!generatedChecklist(metric))
    return { case_id: c.case_id, prompt_mode: mode, metric, items: AVC_CHECKLIST.map((i) => ({ ...i })) };
  const images = await Promise.all(c.keyframes.map((k) => encoder.fromFile(k.image)));
  const v = await judge.ask(checklistQuestion(c, mode, metric, images));
  if (v.answer) {
    const [min, max] = CHECKLIST_SIZES[metric];
    const n = v.answer.items.length;
    return {
      case_id: c.case_id,
      prompt_mode: mode,
      metric,
      items: v.answer.items,
      ...(n < min || n > max ? { outside_preferred_size: true as const } : {}),
    };
  }
  return {
    case_id: c.case_id,
    prompt_mode: mode,
    metric,
    items: [],
    unresolved: v.unresolved ?? 'no answer',
    raw: v.raw,
  };
}
