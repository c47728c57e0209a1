/**
 * Aggregation into Overall (SPEC §3.3 step 4; docs/compass.md, "How the leaderboard is computed";
 * the quality groups it reads: quality/groups.ts).
 *
 * Overall of one case in one prompt mode follows the seed: "Overall averages the two prompt-mode
 * scores after joint keyframe-control aggregation" (§4.2, Table 3). Our reading: Keyframe Fidelity
 * and Temporal Organization are first averaged into one keyframe-control score, which enters the
 * mean with the general-quality groups as one group:
 *   video-only  = mean(keyframe control, Visual Quality, Spatiotemporal Coherence, Instruction Adherence)
 *   joint AV    = the same and AV Coordination (0 for a video without an audio track, marked)
 * over the groups that could be measured — a missing group is left out and flagged, never counted
 * as zero; per case = the mean over the prompt modes; per model = the mean over cases.
 */

import { mean } from '../../stats/mean.js';
import { QUALITY_GROUP_NAMES, type QualityGroup, type QualityMetric } from '../quality/metrics.js';
import { OVERALL_GROUPS, type OverallGroup, type OverallResult } from '../schemas/evaluation.js';
import type { GroupResult, MetricResult } from '../schemas/quality.js';

/** Keyframe control: Keyframe Fidelity and Temporal Organization aggregated into one score (§4.2). */
export function keyframeControl(groups: Partial<Record<OverallGroup, number | null>>): number | null {
  const xs = [groups.keyframe_fidelity, groups.temporal_organization].filter(
    (x): x is number => typeof x === 'number',
  );
  return xs.length ? mean(xs) : null;
}

/** The quality groups of Overall after keyframe control, in order. */
const QUALITY_IN_OVERALL = ['visual_quality', 'spatiotemporal_coherence', 'instruction_adherence'] as const;

/**
 * How the two keyframe-response groups enter Overall (`--keyframe-control`): `combined` (the
 * default, our reading of "after joint keyframe-control aggregation": one group, their mean) or
 * `separate` (two groups of their own, as kfbench did before issue 44).
 */
export const KEYFRAME_CONTROL_READINGS = ['combined', 'separate'] as const;
export type KeyframeControlReading = (typeof KEYFRAME_CONTROL_READINGS)[number];

/**
 * How the three general quality groups enter Overall (`--video-quality`): `groups` (the default:
 * Visual Quality, Spatiotemporal Coherence and Instruction Adherence each a group of Overall) or
 * `one` (Table 3's "Video Quality" column read as one group, their mean, beside keyframe control
 * and, on the joint table, AV Coordination: "Gemini-Omni-Flash leads in Video Quality (0.861) and
 * AV Coordination (0.640)", §4.2). The seed does not say which; docs/compass.md, "How the
 * leaderboard is computed".
 */
export const VIDEO_QUALITY_READINGS = ['groups', 'one'] as const;
export type VideoQualityReading = (typeof VIDEO_QUALITY_READINGS)[number];

/** The quality part of Overall under a reading: the three groups, or their mean as one. */
function qualityPart(
  groups: Partial<Record<OverallGroup, number | null>>,
  videoQuality: VideoQualityReading,
): (number | null | undefined)[] {
  const xs = QUALITY_IN_OVERALL.map((g) => groups[g]);
  if (videoQuality === 'groups') return xs;
  const have = xs.filter((x): x is number => typeof x === 'number');
  return [have.length ? mean(have) : null];
}

/**
 * Instruction Adherence on the video-only table: VMA alone. "On the video-only table no audio metric
 * counts" (issue 54): AMA is not applicable there, whatever the case asks, so a silent model is not
 * charged for the audio it was never meant to make. Null when VMA was not scored.
 */
export function videoOnlyAdherence(
  metrics: Readonly<Partial<Record<QualityMetric, MetricResult>>> | undefined,
): number | null {
  const vma = metrics?.VMA;
  return vma?.status === 'scored' && typeof vma.score === 'number' ? vma.score : null;
}

/** What overallOf reads of a video's quality report. */
export interface QualityForOverall {
  groups: Readonly<Record<QualityGroup, GroupResult>>;
  /** With the metrics, the video-only Overall's Instruction Adherence is VMA alone (videoOnlyAdherence). */
  metrics?: Readonly<Partial<Record<QualityMetric, MetricResult>>> | undefined;
  audio_track?: boolean | undefined;
}

/**
 * Overall of one case in one prompt mode: video-only, and with `quality` (the video's quality
 * report) the joint audio-video Overall and the groups scored from only some of their metrics.
 * `groups.instruction_adherence` is the joint table's (mean of VMA and AMA where it applies); when
 * `quality.metrics` is given the video-only Overall takes VMA alone (no audio metric counts there).
 */
export function overallOf(
  groups: Partial<Record<OverallGroup, number | null>>,
  quality?: QualityForOverall,
  reading: KeyframeControlReading = 'combined',
  videoQuality: VideoQualityReading = 'groups',
): OverallResult {
  const response =
    reading === 'combined'
      ? [keyframeControl(groups)]
      : [groups.keyframe_fidelity, groups.temporal_organization];
  const present = (xs: (number | null | undefined)[]) => xs.filter((x): x is number => typeof x === 'number');
  const videoGroups = quality?.metrics
    ? { ...groups, instruction_adherence: videoOnlyAdherence(quality.metrics) }
    : groups;
  const have = present([...response, ...qualityPart(videoGroups, videoQuality)]);
  const out: OverallResult = {
    score: have.length ? mean(have) : null,
    missing: OVERALL_GROUPS.filter((g) => typeof videoGroups[g] !== 'number'),
  };
  if (!quality) return out;
  const jointHave = present([...response, ...qualityPart(groups, videoQuality)]);
  const av = quality.groups.av_coordination;
  // AV Coordination enters where it was scored; a video without an audio track scores 0 (marked)
  // once audio was judged (AVC then settled as not applicable, nothing incomplete); where it could
  // not be measured (no audio judge, unresolved) it is left out and listed as missing
  const avScored = typeof av.score === 'number';
  const noTrack = !avScored && quality.audio_track === false && av.incomplete.length === 0;
  const avValue = avScored ? av.score! : noTrack ? 0 : null;
  const joint = [...jointHave, ...(avValue !== null ? [avValue] : [])];
  out.joint_av = {
    score: joint.length ? mean(joint) : null,
    missing: [
      ...OVERALL_GROUPS.filter((g) => typeof groups[g] !== 'number'),
      ...(avValue === null && av.incomplete.length ? (['av_coordination'] as const) : []),
    ],
    ...(noTrack ? { no_audio_track: true as const } : {}),
  };
  out.incomplete = QUALITY_GROUP_NAMES.filter(
    (g) => quality.groups[g].incomplete.length && typeof quality.groups[g].score === 'number',
  ).map((g) => `${g}: ${quality.groups[g].incomplete.join(' ')}`);
  return out;
}

/** Overall of one case: the mean over its prompt modes that have an Overall; flagged when any is missing. */
export function caseOverall(perMode: readonly OverallResult[]): OverallResult {
  const have = perMode.filter((o) => o.score !== null);
  const out: OverallResult = {
    score: have.length ? mean(have.map((o) => o.score!)) : null,
    missing: [...new Set(perMode.flatMap((o) => o.missing))],
  };
  if (perMode.some((o) => o.joint_av)) {
    const joint = perMode.flatMap((o) => (o.joint_av?.score != null ? [o.joint_av.score] : []));
    out.joint_av = {
      score: joint.length ? mean(joint) : null,
      missing: [...new Set(perMode.flatMap((o) => o.joint_av?.missing ?? o.missing))],
    };
  }
  const inc = perMode.flatMap((o) => o.incomplete ?? []);
  if (inc.length) out.incomplete = [...new Set(inc)];
  return out;
}
