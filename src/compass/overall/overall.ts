/**
 * Overall per model (SPEC §3.3 step 4) on one leaderboard (`video` or `joint`): the mean over runs
 * of the mean case Overall, its standard deviation, the groups, the coverage, every video judged
 * below the published frame rate and, on the joint table, every video without an audio track.
 */
import { mean, sampleSd } from '../../stats/mean.js';
import { DEFAULT_QUALITY_OPTIONS } from '../quality/video.js';
import type { OverallResult, VideoEvaluation } from '../schemas/evaluation.js';
import type { BoardTable, ModelOverall } from '../schemas/leaderboard.js';
import { caseOverall, keyframeControl, videoOnlyAdherence } from './aggregate.js';
import { groupsSdOverRuns } from './tables.js';

/** The published judge rate ("all reported MLLM-judged results use 8-FPS sampling"). */
const PUBLISHED_FPS = DEFAULT_QUALITY_OPTIONS.fps;

/**
 * Overall per model (SPEC §3.3 step 4) on one table, over the videos given (the table's cases,
 * optionally one factor's level).
 */
export function modelOverall(
  videos: readonly VideoEvaluation[],
  model: string,
  table: BoardTable = 'video',
): ModelOverall {
  const mine = videos.filter((v) => v.model === model);
  const runs = [...new Set(mine.map((v) => v.run))].sort((a, b) => a - b);
  const perRun: number[] = [];
  const flagged = new Set<string>();
  let caseCount = 0;
  for (const r of runs) {
    const inRun = mine.filter((v) => v.run === r);
    const byCase = new Map<string, OverallResult[]>();
    for (const v of inRun) byCase.set(v.case_id, [...(byCase.get(v.case_id) ?? []), v.overall]);
    const scores: number[] = [];
    for (const per of byCase.values()) {
      const co = caseOverall(per);
      const side = table === 'joint' ? (co.joint_av ?? co) : co;
      // every group of the table's formula missing or incomplete for the model is flagged on its row
      for (const g of side.missing) flagged.add(g);
      for (const g of co.incomplete ?? []) {
        const shown = table === 'joint' ? g : videoOnlyIncomplete(g);
        if (shown) flagged.add(shown);
      }
      if (side.score !== null && side.score !== undefined) scores.push(side.score);
    }
    caseCount = byCase.size;
    if (scores.length) perRun.push(mean(scores));
  }
  const m = perRun.length ? mean(perRun) : null;
  const sd = perRun.length > 1 ? sampleSd(perRun) : 0;
  const g = (f: (v: VideoEvaluation) => number | null) => {
    const xs = mine.map(f).filter((x): x is number => x !== null);
    return xs.length ? mean(xs) : null;
  };
  // Table 7: each group's standard deviation over runs, beside Overall's
  const groupsSd = groupsSdOverRuns(mine, (v) => groupsOf(v, table));
  return {
    model,
    overall: m,
    overall_sd: sd,
    runs: runs.length,
    cases: caseCount,
    flagged: [...flagged].sort(),
    ...(groupsSd ? { groups_sd: groupsSd } : {}),
    ...(table === 'joint'
      ? {
          no_audio_track: [
            ...new Set(
              mine
                .filter((v) => v.overall.joint_av?.no_audio_track)
                .map((v) => `${v.case_id}__${v.prompt_mode}`),
            ),
          ].sort(),
        }
      : {}),
    coverage: {
      present: mine.filter((v) => v.run === runs[0] && (v.status ?? 'scored') === 'scored').length,
      expected: mine.filter((v) => v.run === runs[0]).length,
    },
    // every video judged below the published 8 fps, capped by --frame-budget or not
    below_rate: [
      ...new Set(
        mine
          .filter(
            (v) =>
              (v.status ?? 'scored') === 'scored' &&
              v.quality.frames.count > 0 &&
              v.quality.frames.effective_fps < PUBLISHED_FPS,
          )
          .map((v) => `${v.case_id}__${v.prompt_mode} at ${v.quality.frames.effective_fps.toFixed(2)} fps`),
      ),
    ].sort(),
    groups: {
      keyframe_control: g((v) => keyframeControl(v.response.groups)),
      keyframe_fidelity: g((v) => v.response.groups.keyframe_fidelity),
      temporal_organization: g((v) => v.response.groups.temporal_organization),
      visual_quality: g((v) => v.quality.groups.visual_quality.score),
      spatiotemporal_coherence: g((v) => v.quality.groups.spatiotemporal_coherence.score),
      // the video-only table counts no audio metric: Instruction Adherence is VMA alone there
      instruction_adherence: g((v) =>
        table === 'joint'
          ? v.quality.groups.instruction_adherence.score
          : videoOnlyAdherence(v.quality.metrics),
      ),
      // the joint table only: a video without an audio track counts AV Coordination 0 (marked)
      ...(table === 'joint'
        ? {
            av_coordination: g((v) =>
              v.overall.joint_av?.no_audio_track ? 0 : v.quality.groups.av_coordination.score,
            ),
          }
        : {}),
    },
  };
}

/**
 * An incomplete group as the video-only table flags it: AV Coordination and AMA are not applicable
 * there (issue 54), so "av_coordination: AVC" is dropped and "instruction_adherence: VMA AMA" keeps VMA.
 */
function videoOnlyIncomplete(g: string): string | undefined {
  const [group, metrics = ''] = g.split(': ');
  if (group === 'av_coordination') return undefined;
  const kept = metrics.split(' ').filter((m) => m && m !== 'AMA' && m !== 'AVC');
  return kept.length ? `${group}: ${kept.join(' ')}` : undefined;
}

/** One video's groups on a table, as the table counts them (Table 7's standard deviation over runs). */
function groupsOf(v: VideoEvaluation, table: BoardTable): Record<string, number | null> {
  return {
    keyframe_control: keyframeControl(v.response.groups),
    visual_quality: v.quality.groups.visual_quality?.score ?? null,
    spatiotemporal_coherence: v.quality.groups.spatiotemporal_coherence?.score ?? null,
    instruction_adherence:
      table === 'joint'
        ? (v.quality.groups.instruction_adherence?.score ?? null)
        : videoOnlyAdherence(v.quality.metrics),
    ...(table === 'joint'
      ? {
          av_coordination: v.overall.joint_av?.no_audio_track
            ? 0
            : (v.quality.groups.av_coordination?.score ?? null),
        }
      : {}),
  };
}
