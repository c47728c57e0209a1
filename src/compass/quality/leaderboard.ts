/**
 * The Compass leaderboard from evaluated videos: Overall (mean ± sd over runs) and the six groups
 * per model, overall and by keyframe count, structure, prompt mode and conditioning. Every model
 * on the same cases: a missing or undecodable video counts with 0 (`zero`), or every model is
 * restricted to the videos all of them have (`skip`); each row carries its coverage.
 */

import { unresolvedShare } from '../../judge/unresolved.js';
import type { Checklist, Factor, Leaderboard, ModelOverall, VideoEvaluation } from '../results.js';
import { commonRows, type MissingPolicy } from '../score.js';
import { modelOverall } from './overall.js';

export type { Factor, Leaderboard } from '../results.js';

export const FACTORS: Record<Factor, (v: VideoEvaluation) => string> = {
  keyframes: (v: VideoEvaluation) => String(v.n_keyframes).padStart(2, '0'),
  structure: (v: VideoEvaluation) => v.structure,
  prompt_mode: (v: VideoEvaluation) => v.prompt_mode,
  conditioning: (v: VideoEvaluation) => v.conditioning,
};

/** Which Overall ranks the rows: the video-only one (default) or the joint audio-video one. */
export type RankBy = 'video' | 'joint_av';

const orderBy = (rankBy: RankBy) => (rows: ModelOverall[]) => {
  const key = (m: ModelOverall) =>
    (rankBy === 'joint_av' ? m.overall_av : m.overall) ?? Number.NEGATIVE_INFINITY;
  return rows.sort((a, b) => key(b) - key(a) || a.model.localeCompare(b.model));
};

export function leaderboard(
  all: readonly VideoEvaluation[],
  models: readonly string[],
  meta: { judge: string; embedder: string; runs: number; segmenter?: string },
  policy: MissingPolicy = 'zero',
  checklists: readonly Checklist[] = [],
  rankBy: RankBy = 'video',
): Leaderboard {
  const order = orderBy(rankBy);
  // checklists kept with an item count outside the published preference, per metric (seed E.3)
  const outside: Record<string, number> = {};
  for (const c of checklists) if (c.outside_preferred_size) outside[c.metric] = (outside[c.metric] ?? 0) + 1;
  const videos = commonRows(all, models, policy, (v) => (v.status ?? 'scored') === 'scored');
  // coverage counts every expected video, also those --missing skip leaves out
  const withCoverage =
    (from: readonly VideoEvaluation[]) =>
    (o: ModelOverall): ModelOverall => ({ ...o, coverage: modelOverall(from, o.model).coverage });
  const present = models.filter((m) => videos.some((v) => v.model === m));
  const levelsOf = (f: Factor): Leaderboard['by'][Factor] => {
    const key = FACTORS[f];
    const levels = [...new Set(videos.map(key))].sort();
    return Object.fromEntries(
      levels.map((l) => {
        const sub = videos.filter((v) => key(v) === l);
        const subAll = all.filter((v) => key(v) === l);
        return [
          l,
          order(
            present
              .filter((m) => sub.some((v) => v.model === m))
              .map((m) => withCoverage(subAll)(modelOverall(sub, m))),
          ),
        ];
      }),
    );
  };
  const by: Leaderboard['by'] = {
    keyframes: levelsOf('keyframes'),
    structure: levelsOf('structure'),
    prompt_mode: levelsOf('prompt_mode'),
    conditioning: levelsOf('conditioning'),
  };
  // the quality metrics asked of the judge for the judged videos: how many came back unresolved
  let asked = 0;
  let unresolved = 0;
  for (const v of all)
    if ((v.status ?? 'scored') === 'scored')
      for (const m of Object.values(v.quality.metrics))
        if (m.status === 'scored' || m.status === 'unresolved') {
          asked++;
          if (m.status === 'unresolved') unresolved++;
        }
  return {
    ...meta,
    missing: policy,
    ranked_by: rankBy,
    ...(Object.keys(outside).length ? { checklists_outside_preferred_size: outside } : {}),
    unresolved: unresolvedShare(unresolved, asked),
    models: order(present.map((m) => withCoverage(all)(modelOverall(videos, m)))),
    by,
  };
}
