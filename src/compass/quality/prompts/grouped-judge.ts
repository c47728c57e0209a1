/**
 * The grouped judge prompt (seed §E.4). "The grouped judge receives the generated video, input
 * keyframes, filtered evaluation context, and precomputed checklists, resolves keyframe references,
 * and returns separate results for each metric. Related metrics are evaluated together, with
 * timestamped observable evidence required"; "Each checklist score must rest on observable
 * evidence, with video or audio evidence tied to timestamps and described concretely enough to
 * support pass, partial, or fail. Generic judgments without timestamped observations are
 * insufficient; when full video is attached, the template prefers time ranges over frame IDs"; "The
 * response format requires strict JSON with one object per checklist metric and a result for each
 * item, including its identifier, score, evidence, and support"; "Each metric receives its own
 * rubric section defining evaluation ownership and normalized score anchors". kfbench's reading of
 * `support`: the verdict the evidence supports, "pass" | "partial" | "fail" (1.0 pass, 0.0 fail,
 * between partial).
 */
import type { Template } from '../../../judge/prompts.js';
import { METRIC_NAMES, type QualityMetric } from '../metrics.js';
import { AV_TEMPLATE } from './av-coordination.js';
import { METRIC_PROMPTS } from './by-metric.js';
import { anchorLines } from './metric-prompt.js';

const GROUPED_TEMPLATE_VERSION = 'grouped-2';

/** What the judge is shown of the video: sampled frames labelled with their times, or the file. */
export type Attachment = 'frames' | 'video';

export const GROUPED_TEMPLATE = `You are judging a generated video against checklists for these metrics: {{metrics}}.

The video lasts {{duration_s}} s. {{shown}} Then the {{n}} keyframes the video was asked to reproduce, labelled with their ids; resolve every keyframe reference in the checklists to these images.
The request: {{structure}}; prompt ({{mode}}): {{prompt}}
Story summary: {{story}}
{{mode_rule}}
Measured evidence you may cite (from perception tools, not from a model):
{{evidence}}

Checklists (score every item unless the evidence is genuinely insufficient; the metric's score is the mean of its valid item scores, recomputed by the parser):
{{checklists}}

Rubric, one section per metric (what it owns, and the score anchors with their meanings):
{{rubric}}

Score each item on these anchors only: 1.0, 0.75, 0.5, 0.25, 0.0. Every score must rest on observable evidence: timestamped observations inside the video (t_start_s ≤ t_end_s, in seconds), each described concretely enough to support pass, partial or fail; generic judgments without timestamped observations are insufficient. {{time_rule}}
"support" is the verdict the evidence supports: "pass" (score 1.0), "partial" (0.75, 0.5 or 0.25) or "fail" (0.0). An item marked not_applicable in its checklist must not prompt an invented expectation: answer it with "not_applicable":true and no score.

Answer with strict JSON only, one object per metric and one result per item, in this shape:
{"metrics":[{"metric":"{{first_metric}}","items":[{"item_id":"…","score":0.75,"support":"partial","evidence":[{"t_start_s":1.0,"t_end_s":2.5,"observation":"…"}]}]}]}`;

export const TIME_RULES: Record<Attachment, string> = {
  frames:
    'Cite time ranges taken from the frames\' time labels ("t=…s"), never frame numbers or image positions.',
  video: 'The full video is attached: cite time ranges over frame IDs.',
};

/** The AV group alone (AVC): its question shows nothing of the request (av-coordination.ts). */
export const isAvOnly = (metrics: readonly QualityMetric[]) =>
  metrics.length > 0 && metrics.every((m) => m === 'AVC');

const AV_TEMPLATE_VERSION = 'grouped-av-1';

export function groupedTemplate(metrics: readonly QualityMetric[]): Template {
  const av = isAvOnly(metrics);
  return {
    name: 'compass-grouped',
    text: av ? AV_TEMPLATE : GROUPED_TEMPLATE,
    version: [
      av ? AV_TEMPLATE_VERSION : GROUPED_TEMPLATE_VERSION,
      ...metrics.map((m) => METRIC_PROMPTS[m].version),
    ].join('+'),
  };
}

/** The rubric sections of the asked metrics. */
export function rubricSections(metrics: readonly QualityMetric[]): string {
  return metrics
    .map((m) => `${m} (${METRIC_NAMES[m]}): ${METRIC_PROMPTS[m].rubric}\n${anchorLines(METRIC_PROMPTS[m])}`)
    .join('\n');
}
