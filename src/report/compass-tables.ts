/**
 * Renderers of the Compass tables beyond the leaderboard rows (issue 54 item 6; compass/quality/
 * tables.ts): each quality metric per prompt mode and model (§4.3), and the breakdowns a report
 * walks, Table 5's keyframe-density buckets among them.
 */
import { QUALITY_METRICS } from '../compass/quality/metrics.js';
import type { Leaderboard } from '../compass/schemas/leaderboard.js';
import { mdText } from './escape.js';
import { textTable } from './table.js';

type Levels = Leaderboard['by'][keyof Leaderboard['by']];

/** The breakdowns of a table, the keyframe-density buckets (3, 6, 9&12; Table 5) after the factors. */
export function breakdowns(
  t: Pick<Leaderboard, 'by' | 'keyframe_density' | 'domain' | 'setting'>,
): [string, Levels][] {
  const more: [string, Levels | undefined][] = [
    ['keyframe density (Table 5)', t.keyframe_density],
    ['domain', t.domain],
    ['structure–duration setting', t.setting],
  ];
  return [
    ...(Object.entries(t.by) as [string, Levels][]),
    ...more.filter((x): x is [string, Levels] => x[1] !== undefined),
  ];
}

const SEED =
  'as §4.3 compares them: "segment-specific prompts lower VMA by 0.060–0.260 versus minimal prompts"';

function rows(lb: Leaderboard): { mode: string; rows: string[][] }[] {
  const f = (x: number | null | undefined) => (typeof x === 'number' ? x.toFixed(3) : '—');
  return Object.entries(lb.metrics_by_prompt_mode ?? {}).map(([mode, models]) => ({
    mode,
    rows: Object.entries(models).map(([m, ms]) => [m, ...QUALITY_METRICS.map((k) => f(ms[k]))]),
  }));
}

/** Each quality metric per prompt mode and model, as terminal lines (none for an older file). */
export function metricsByModeLines(lb: Leaderboard): string[] {
  return rows(lb).flatMap(({ mode, rows: r }) => [
    '',
    `quality metrics, prompt mode ${mode} (${SEED})`,
    ...textTable(['model', ...QUALITY_METRICS], r),
  ]);
}

/** The same as Markdown sections. */
export function metricsByModeMarkdown(lb: Leaderboard): string[] {
  return rows(lb).flatMap(({ mode, rows: r }) => [
    '',
    `## Quality metrics, prompt mode ${mdText(mode)}`,
    '',
    `${mdText(SEED)}.`,
    '',
    `| model | ${QUALITY_METRICS.join(' | ')} |`,
    `|${['model', ...QUALITY_METRICS].map(() => '---').join('|')}|`,
    ...r.map((x) => `| ${x.map(mdText).join(' | ')} |`),
  ]);
}
