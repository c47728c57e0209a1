/**
 * The Compass leaderboards from evaluated videos (seed §4.2, Table 3; docs/compass.md, "How the
 * leaderboard is computed"): Overall (mean ± sd over runs) and the groups per model, overall and by
 * keyframe count, structure, prompt mode and conditioning, in two tables:
 *  - `joint`, the joint audio-video leaderboard ("Seedance 2.0 ranks first overall at 0.807 on the
 *    115-sample joint audio-video leaderboard"): the models that answered with audio (some video
 *    of theirs has an audio track), over the common set of cases every one of them answered in
 *    every prompt mode, AV Coordination in the mean (0 for a video without an audio track, marked);
 *    it exists only when audio was judged (`--judge-audio`) and ranks by default then;
 *  - `video`, the video-only leaderboard: every model over all cases, without AV Coordination.
 * On the video table every model is on the same cases: a missing or undecodable video counts with 0
 * (`zero`), or every model is restricted to the videos all of them have (`skip`); each row carries
 * its coverage.
 */

import { UsageError } from '../../errors.js';
import { unresolvedShare } from '../../judge/unresolved.js';
import { commonRows } from '../response/models.js';
import { embedderNotice } from '../response/paper-scale.js';
import type { VideoEvaluation } from '../schemas/evaluation.js';
import type {
  BoardTable,
  Factor,
  Leaderboard,
  LeaderboardTable,
  MissingPolicy,
  ModelOverall,
} from '../schemas/leaderboard.js';
import type { Checklist } from '../schemas/quality.js';
import type { KeyframeControlReading, VideoQualityReading } from './aggregate.js';
import { modelOverall } from './overall.js';
import { densityLevel, metricsByPromptMode, settingLevel } from './tables.js';

const FACTORS: Record<Factor, (v: VideoEvaluation) => string> = {
  keyframes: (v: VideoEvaluation) => String(v.n_keyframes).padStart(2, '0'),
  structure: (v: VideoEvaluation) => v.structure,
  prompt_mode: (v: VideoEvaluation) => v.prompt_mode,
  conditioning: (v: VideoEvaluation) => v.conditioning,
};

/** Which table ranks: the joint audio-video one or the video-only one (`--rank-by`). */
export type RankBy = BoardTable;

/**
 * Which cases the joint table's common set holds (`--joint-cases`): `answered` (the default: the
 * cases every model with audio answered with a decodable video, a silent one scoring AV
 * Coordination 0, marked) or `with-audio` (only the cases where every one of those videos has an
 * audio track). The seed's "115-sample joint audio-video leaderboard" (§4.2) and "115-sample common
 * set" (App. C) do not say which; docs/compass.md, "How the leaderboard is computed".
 */
export const JOINT_CASES_READINGS = ['answered', 'with-audio'] as const;
export type JointCasesReading = (typeof JOINT_CASES_READINGS)[number];

/** The readings a leaderboard's Overall and common set were computed under (defaults: the first of each). */
export interface BoardReadings {
  keyframeControl?: KeyframeControlReading | undefined;
  videoQuality?: VideoQualityReading | undefined;
  jointCases?: JointCasesReading | undefined;
}

/** Each table's Overall, in words (written into leaderboard.json and every report), by reading. */
export function formulaOf(
  table: BoardTable,
  reading: KeyframeControlReading = 'combined',
  readings: Omit<BoardReadings, 'keyframeControl'> = {},
): string {
  const one = readings.videoQuality === 'one';
  const head =
    (one ? 'Video Quality = mean(Visual Quality, Spatiotemporal Coherence, Instruction Adherence); ' : '') +
    (reading === 'combined'
      ? 'keyframe control = mean(Keyframe Fidelity, Temporal Organization); per case and prompt mode: mean(keyframe control, '
      : 'per case and prompt mode: mean(Keyframe Fidelity, Temporal Organization, ');
  const quality = one ? 'Video Quality' : 'Visual Quality, Spatiotemporal Coherence, Instruction Adherence';
  const tails = [
    ...(reading === 'separate' ? [' (--keyframe-control separate: the two response groups kept apart)'] : []),
    ...(one ? [' (--video-quality one: the three quality groups as one)'] : []),
  ];
  const set =
    readings.jointCases === 'with-audio'
      ? 'the common set of cases (every video of it with an audio track, --joint-cases with-audio)'
      : 'the common set of cases';
  return table === 'joint'
    ? `${head}${quality}, AV Coordination), AV Coordination 0 for a video without an audio track; per case: the mean of its prompt modes; per model: the mean over ${set}${tails.join('')}`
    : `${head}${quality}); per case: the mean of its prompt modes; per model: the mean over all cases${tails.join('')}`;
}

/** The default reading's formulas. */
export const FORMULAS: Record<BoardTable, string> = { joint: formulaOf('joint'), video: formulaOf('video') };

const isScored = (v: VideoEvaluation) => (v.status ?? 'scored') === 'scored';

/**
 * Audio was judged: some judged video has AVC asked or settled for want of an audio track (a file
 * written before `audio_track` was recorded never counts).
 */
function audioJudged(all: readonly VideoEvaluation[]): boolean {
  return all.some(
    (v) =>
      isScored(v) && v.quality.audio_track !== undefined && v.quality.metrics.AVC?.status !== 'not_measured',
  );
}

/**
 * The joint table's models and cases: the models some of whose judged videos carry an audio track,
 * and the cases every one of them answered (a scored video; with `with-audio`, one with an audio
 * track) in every prompt mode the case was evaluated in. Empty when audio was not judged.
 */
function jointSet(
  all: readonly VideoEvaluation[],
  models: readonly string[],
  jointCases: JointCasesReading = 'answered',
): { models: string[]; without: string[]; cases: string[] } {
  if (!audioJudged(all)) return { models: [], without: [], cases: [] };
  const withAudio = models.filter((m) =>
    all.some((v) => v.model === m && isScored(v) && v.quality.audio_track),
  );
  const first = all.filter((v) => v.run === 0);
  const caseIds = [...new Set(first.map((v) => v.case_id))].sort();
  const cases = withAudio.length
    ? caseIds.filter((id) => {
        const rows = first.filter((v) => v.case_id === id);
        const modes = [...new Set(rows.map((v) => v.prompt_mode))];
        return withAudio.every((m) =>
          modes.every((mode) =>
            rows.some(
              (v) =>
                v.model === m &&
                v.prompt_mode === mode &&
                isScored(v) &&
                (jointCases === 'answered' || v.quality.audio_track === true),
            ),
          ),
        );
      })
    : [];
  return { models: withAudio, without: models.filter((m) => !withAudio.includes(m)), cases };
}

const orderRows = (rows: ModelOverall[]) =>
  rows.sort(
    (a, b) =>
      (b.overall ?? Number.NEGATIVE_INFINITY) - (a.overall ?? Number.NEGATIVE_INFINITY) ||
      a.model.localeCompare(b.model),
  );

/** One table: its rows over `videos` (the table's videos), coverage counted over `all` of a model's. */
function boardTable(
  table: BoardTable,
  videos: readonly VideoEvaluation[],
  all: readonly VideoEvaluation[],
  models: readonly string[],
  readings: BoardReadings,
): LeaderboardTable {
  // coverage counts every expected video, also those the table leaves out
  const withCoverage =
    (from: readonly VideoEvaluation[]) =>
    (o: ModelOverall): ModelOverall => ({ ...o, coverage: modelOverall(from, o.model).coverage });
  const present = models.filter((m) => videos.some((v) => v.model === m));
  const levelsOf = (f: Factor): LeaderboardTable['by'][Factor] => levelsBy(FACTORS[f]);
  const levelsBy = (key: (v: VideoEvaluation) => string): Record<string, ModelOverall[]> => {
    const levels = [...new Set(videos.map(key))].sort();
    return Object.fromEntries(
      levels.map((l) => {
        const sub = videos.filter((v) => key(v) === l);
        const subAll = all.filter((v) => key(v) === l);
        return [
          l,
          orderRows(
            present
              .filter((m) => sub.some((v) => v.model === m))
              .map((m) => withCoverage(subAll)(modelOverall(sub, m, table))),
          ),
        ];
      }),
    );
  };
  const ids = [...new Set(videos.map((v) => v.case_id))].sort();
  return {
    table,
    formula: formulaOf(table, readings.keyframeControl, readings),
    cases: { count: ids.length, ids },
    models: orderRows(present.map((m) => withCoverage(all)(modelOverall(videos, m, table)))),
    by: {
      keyframes: levelsOf('keyframes'),
      structure: levelsOf('structure'),
      prompt_mode: levelsOf('prompt_mode'),
      conditioning: levelsOf('conditioning'),
    },
    keyframe_density: levelsBy((v) => densityLevel(v.n_keyframes)),
    domain: levelsBy((v) => v.domain ?? 'unknown'),
    setting: levelsBy(settingLevel),
  };
}

/**
 * Both leaderboards; the one `rankBy` names (by default the joint one whenever it exists, else the
 * video-only one) at the top level, the other in `other`. `rankBy: 'joint'` without a joint table
 * (no audio judged, or no model's video has an audio track) is a usage error.
 */
export function leaderboard(
  all: readonly VideoEvaluation[],
  models: readonly string[],
  meta: {
    judge: string;
    embedder: string;
    runs: number;
    segmenter?: string | undefined;
  } & BoardReadings,
  policy: MissingPolicy = 'zero',
  checklists: readonly Checklist[] = [],
  rankBy?: RankBy,
): Leaderboard {
  // the readings the videos' Overall was computed under (for the formula) and the common set's
  const { keyframeControl, videoQuality, jointCases, ...shown } = meta;
  const readings: BoardReadings = { keyframeControl, videoQuality, jointCases };
  // checklists kept with an item count outside the published preference, per metric (seed E.3)
  const outside: Record<string, number> = {};
  for (const c of checklists) if (c.outside_preferred_size) outside[c.metric] = (outside[c.metric] ?? 0) + 1;
  const video = boardTable('video', commonRows(all, models, policy, isScored), all, models, readings);
  const js = jointSet(all, models, jointCases);
  const joint = js.models.length
    ? {
        ...boardTable(
          'joint',
          all.filter((v) => js.models.includes(v.model) && js.cases.includes(v.case_id)),
          all,
          js.models,
          readings,
        ),
        ...(js.without.length ? { models_without_audio: js.without } : {}),
      }
    : undefined;
  const ranked = rankBy ?? (joint ? 'joint' : 'video');
  if (ranked === 'joint' && !joint)
    throw new UsageError(
      audioJudged(all)
        ? '--rank-by joint: no model has a video with an audio track, so there is no joint audio-video leaderboard'
        : '--rank-by joint: audio was not judged (evaluate with --judge-audio), so there is no joint audio-video leaderboard',
    );
  const [top, other] = ranked === 'joint' ? [joint!, video] : [video, joint];
  // the quality metrics asked of the judge for the judged videos: how many came back unresolved
  let asked = 0;
  let unresolved = 0;
  for (const v of all)
    if (isScored(v))
      for (const m of Object.values(v.quality.metrics))
        if (m.status === 'scored' || m.status === 'unresolved') {
          asked++;
          if (m.status === 'unresolved') unresolved++;
        }
  const notice = embedderNotice(meta.embedder);
  const items = itemCounts(all);
  return {
    ...shown,
    ...(notice ? { embedder_notice: notice } : {}),
    missing: policy,
    dropped_items: items.dropped,
    metrics_by_prompt_mode: metricsByPromptMode(all, models),
    ...(Object.keys(items.kept).length ? { kept_by_rule: items.kept } : {}),
    ...(Object.keys(outside).length ? { checklists_outside_preferred_size: outside } : {}),
    unresolved: unresolvedShare(unresolved, asked),
    ...top,
    ...(other ? { other } : {}),
  };
}

/** The judged items dropped (and kept by `--item-rule snap`) over every judged video and run, by reason. */
function itemCounts(all: readonly VideoEvaluation[]): {
  dropped: Record<string, number>;
  kept: Record<string, number>;
} {
  const dropped: Record<string, number> = {};
  const kept: Record<string, number> = {};
  const add = (
    to: Record<string, number>,
    from: Readonly<Record<string, number | undefined>> | undefined,
  ) => {
    for (const [k, n] of Object.entries(from ?? {})) if (n) to[k] = (to[k] ?? 0) + n;
  };
  for (const v of all)
    if (isScored(v))
      for (const m of Object.values(v.quality.metrics)) {
        add(dropped, m.dropped);
        add(kept, m.kept_by_rule);
      }
  return { dropped, kept };
}

/** The same leaderboard ranked by the other table (`compass report --rank-by`); unchanged when it already is. */
export function rerank(lb: Leaderboard, rankBy: RankBy): Leaderboard {
  const current = lb.table ?? 'video';
  if (current === rankBy) return lb;
  if (!lb.other)
    throw new UsageError(
      `--rank-by ${rankBy}: this leaderboard has only the ${current === 'joint' ? 'joint audio-video' : 'video-only'} table${rankBy === 'joint' ? ' (audio was not judged, or no model has a video with an audio track)' : ''}`,
    );
  const {
    other,
    table,
    formula,
    cases,
    models_without_audio,
    models,
    by,
    keyframe_density,
    domain,
    setting,
    ...meta
  } = lb;
  return {
    ...meta,
    ...other,
    other: {
      table: current,
      formula: formula ?? FORMULAS.video,
      cases: cases ?? { count: 0, ids: [] },
      ...(models_without_audio ? { models_without_audio } : {}),
      models,
      by,
      ...(keyframe_density ? { keyframe_density } : {}),
      ...(domain ? { domain } : {}),
      ...(setting ? { setting } : {}),
    },
  };
}
