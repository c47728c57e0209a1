/**
 * Tables KeyFrame-Compass prints beyond the leaderboard's factors (issue 54 item 6), computed from
 * the evaluated videos:
 *  - the keyframe-density buckets of Table 5 — "instruction scores fall from 0.849 at 3 keyframes
 *    to 0.756 for 9&12" (§4.3): 3, 6 and 9&12 keyframes (`densityLevel`);
 *  - each quality metric per model and prompt mode — "For all four proprietary models,
 *    segment-specific prompts lower VMA by 0.060–0.260 versus minimal prompts" (§4.3);
 *  - each group's standard deviation over repeated runs — "Low standard deviations across five
 *    evaluation runs indicate that aggregated MLLM scores are stable … Table 7 reports group-score
 *    macro-averages" (App. C), beside Overall's.
 */
import { mean, sampleSd } from '../../stats/mean.js';
import { QUALITY_METRICS, type QualityMetric } from '../quality/metrics.js';
import type { VideoEvaluation } from '../schemas/evaluation.js';

/** Table 5's keyframe-density bucket of a case: "3", "6", "9&12" (another count: its own). */
export function densityLevel(n: number): string {
  if (n === 9 || n === 12) return '9&12';
  return String(n);
}

/**
 * The structure–duration setting of a video's case (§3.4: "three video structure-duration
 * settings"; §4.1: "single-pass workflows for videos of 10 seconds or shorter and agent-mode
 * multi-pass workflows for longer videos"): the structure, and whether the case asks for at most
 * 10 s or more. "unknown" for a row written before the duration was recorded.
 */
export function settingLevel(v: Pick<VideoEvaluation, 'structure' | 'duration_s'>): string {
  if (v.duration_s === undefined) return `${v.structure}, duration unknown`;
  return `${v.structure}, ${v.duration_s <= 10 ? '≤ 10 s' : '> 10 s'}`;
}

const isScored = (v: VideoEvaluation) => (v.status ?? 'scored') === 'scored';

/**
 * The mean of each quality metric per prompt mode and model, over the scored videos where it was
 * scored (every run); null where it never was (not applicable, not measured).
 */
export function metricsByPromptMode(
  all: readonly VideoEvaluation[],
  models: readonly string[],
): Record<string, Record<string, Record<QualityMetric, number | null>>> {
  const modes = [...new Set(all.map((v) => v.prompt_mode))].sort();
  return Object.fromEntries(
    modes.map((mode) => [
      mode,
      Object.fromEntries(
        models
          .filter((m) => all.some((v) => v.model === m && v.prompt_mode === mode))
          .map((m) => {
            const mine = all.filter((v) => v.model === m && v.prompt_mode === mode && isScored(v));
            const of = (k: QualityMetric) => {
              const xs = mine.flatMap((v) => {
                const r = v.quality.metrics[k];
                return r?.status === 'scored' && typeof r.score === 'number' ? [r.score] : [];
              });
              return xs.length ? mean(xs) : null;
            };
            return [
              m,
              Object.fromEntries(QUALITY_METRICS.map((k) => [k, of(k)])) as Record<
                QualityMetric,
                number | null
              >,
            ];
          }),
      ),
    ]),
  );
}

/**
 * Each group's standard deviation over runs (Table 7): per run the group's mean over the model's
 * videos, then the sample standard deviation of those means. Undefined with one run.
 */
export function groupsSdOverRuns(
  mine: readonly VideoEvaluation[],
  group: (v: VideoEvaluation) => Record<string, number | null | undefined>,
): Record<string, number | null> | undefined {
  const runs = [...new Set(mine.map((v) => v.run))].sort((a, b) => a - b);
  if (runs.length < 2) return undefined;
  const perRun = runs.map((r) => mine.filter((v) => v.run === r).map(group));
  const names = [...new Set(perRun.flat().flatMap((g) => Object.keys(g)))];
  return Object.fromEntries(
    names.map((g) => {
      const means = perRun.flatMap((vs) => {
        const xs = vs.flatMap((x) => (typeof x[g] === 'number' ? [x[g] as number] : []));
        return xs.length ? [mean(xs)] : [];
      });
      return [g, means.length === runs.length ? sampleSd(means) : null];
    }),
  );
}
