/**
 * The shape of one metric's judge prompt (one file per metric in this folder): its version (part of
 * every cache key that uses it: a changed prompt is a different question), the checklist
 * construction procedure (seed §E.3) and the grouped judge's rubric section with its score anchors
 * (seed §E.4: "Each metric receives its own rubric section defining evaluation ownership and
 * normalized score anchors without adding checklist fields").
 */
import type { QualityMetric } from '../metrics.js';

/** The five anchors, highest first (seed §E.4: 1.0, 0.75, 0.5, 0.25, 0.0). */
const ANCHOR_VALUES = [1, 0.75, 0.5, 0.25, 0] as const;

export interface MetricPrompt {
  metric: QualityMetric;
  /** `<metric>-<n>`: bumped whenever the text below changes. */
  version: string;
  /** Checklist generation: what the metric owns and excludes, its categories, item count and scopes. */
  procedure: string;
  /** The grouped judge: what the metric owns. */
  rubric: string;
  /** The meaning of 1.0, 0.75, 0.5, 0.25, 0.0, in that order. */
  anchors: readonly [string, string, string, string, string];
}

/** The anchors as the judge reads them: one line per score, with its meaning. */
export function anchorLines(p: MetricPrompt): string {
  return ANCHOR_VALUES.map((v, i) => `  ${v.toFixed(v === 1 || v === 0 ? 1 : 2)}: ${p.anchors[i]}`).join(
    '\n',
  );
}
