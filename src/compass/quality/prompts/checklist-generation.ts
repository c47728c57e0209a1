/**
 * The checklist-generation prompt (seed §E.3). "Checklist generation runs independently for each
 * metric, using a filtered sample specification, metric-specific construction procedure, and
 * response shape to produce inspection lenses without video access or scoring"; "Checklist items use
 * five semantic fields"; "The prompt builds atomic observable checks from sample specs, keyframes,
 * shots, narrowly interpreted hints, and metric procedures, anchoring claims to relevant keyframes
 * or leaving unanchored items empty." The metric's procedure comes from its own file
 * (`METRIC_PROMPTS`); the protocol version joins this template's with the metric's.
 */
import type { Template } from '../../../judge/prompts.js';
import type { QualityMetric } from '../metrics.js';
import { METRIC_PROMPTS } from './by-metric.js';

const CHECKLIST_TEMPLATE_VERSION = 'checklist-2';

export const CHECKLIST_TEMPLATE = `You are preparing an inspection checklist for a generated video. You will NOT see the video and you do not score anything: write the checklist from the sample specification alone (the request, its story summary and the keyframes), so that every video made from this request is judged against the same items.

Metric: {{metric}} ({{metric_name}}).
Construction procedure for this metric:
{{procedure}}

The sample specification:
- structure: {{structure}}, {{duration_s}} s, {{n}} keyframes (the images shown here, labelled with their ids)
{{keyframes}}
- prompt ({{mode}}): {{prompt}}
{{story}}

Write between {{min}} and {{max}} atomic items for this metric only. Each item asks one observable question that someone watching the video could answer from what is visible (or audible); read hints narrowly. Name the entity or property it checks. Anchor each claim to the keyframes it concerns ("anchors": their ids); leave "anchors" empty for an item no keyframe anchors. {{mode_rule}}
Scope words: "shot" (inside one shot, or one keyframe-to-keyframe segment of a one-take video), "cross_shot" (across a cut or a transition between segments) or "full_video".
"dimension" is the item's category from the procedure above.

Answer with strict JSON only, five fields per item, in this shape:
{"items":[{"item_id":"{{metric}}-1","question":"…","scope":"shot"|"cross_shot"|"full_video","anchors":["kf_id",…],"dimension":"…"}]}
An item that does not apply (see the procedure) adds "not_applicable":true.`;

export function checklistTemplate(metric: QualityMetric): Template {
  return {
    name: 'compass-checklist',
    text: CHECKLIST_TEMPLATE,
    version: `${CHECKLIST_TEMPLATE_VERSION}+${METRIC_PROMPTS[metric].version}`,
  };
}
