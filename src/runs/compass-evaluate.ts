/**
 * `compass evaluate` as one call: the cases taken, the judge, embedder and scan cache opened and
 * closed, both axes judged and scored, the leaderboard made and every file written (a folder whole
 * or not at all); and its dry run, the calls needed and how many the judge cache already holds.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LoadedCase } from '../compass/cases/cases.js';
import type { KeyframeControlReading, VideoQualityReading } from '../compass/overall/aggregate.js';
import { type JointCasesReading, leaderboard, type RankBy } from '../compass/overall/leaderboard.js';
import { type AudioDecision, videosCarrySound } from '../compass/quality/audio-default.js';
import { evaluationCacheIn } from '../compass/quality/eval-cache.js';
import { type EvaluationPlan, planEvaluation } from '../compass/quality/plan.js';
import { judgeSegmenter } from '../compass/quality/segment.js';
import type { QualityOptions } from '../compass/quality/video.js';
import {
  cachedCalls,
  type EvaluateInput,
  type EvaluateResult,
  evaluateCompass,
} from '../compass/run/evaluate.js';
import { EVALUATION_RUN_FILES, writeEvaluationRun } from '../compass/run/outputs.js';
import { type CompassRunInput, compassReads, compassRunRecord, runCases } from '../compass/run/run.js';
import type { Leaderboard } from '../compass/schemas/leaderboard.js';
import type { JudgeStats } from '../judge/types.js';
import { probe } from '../media/probe.js';
import { writeOutputFolder } from '../store/out-folder.js';
import { outputFiles, refuseOverlap } from '../store/path-overlap.js';
import { OUTPUTS_FILE, SETTINGS_FILE, writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import { compassToolSettings, type Tools, withTools } from './tools.js';

export interface CompassEvaluateInput extends CompassRunInput {
  /** The judge's settings, its cache file resolved. */
  judge: NonNullable<CompassRunInput['judge']>;
  quality: QualityOptions;
  /**
   * `quality.audio` was not set by a flag: judge audio when the videos carry sound tracks (the
   * default, issue 54 item 1; quality/audio-default.ts). Resolved before anything is asked.
   */
  audioByTracks?: boolean | undefined;
  /** The quality judging repeated this many times (mean ± sd). */
  runs: number;
  /** At most this many judge calls, checklists included (the rest is left for the next run). */
  maxCalls?: number | undefined;
  /**
   * Which leaderboard ranks: `joint` (audio-video, over the common set) or `video` (video-only,
   * all cases); by default the joint one whenever audio was judged and some model answered with audio.
   */
  rankBy?: RankBy | undefined;
  /** How Keyframe Fidelity and Temporal Organization enter Overall (`--keyframe-control`; default combined). */
  keyframeControl?: KeyframeControlReading | undefined;
  /** How the three quality groups enter Overall (`--video-quality`; default groups). */
  videoQuality?: VideoQualityReading | undefined;
  /** Which cases the joint table's common set holds (`--joint-cases`; default answered). */
  jointCases?: JointCasesReading | undefined;
}

/** What the evaluation reads, the same for a run and for a dry run's count of the cache. */
function evaluateInput(
  o: CompassEvaluateInput,
  cases: readonly LoadedCase[],
  tools: Tools,
): Omit<EvaluateInput, 'maxCalls'> {
  // a Compass run's tools hold a judge whenever the input has judge settings, as evaluate's always does
  const opened = tools.needJudge();
  const embedder = tools.needEmbedder();
  const cache = tools.scanCache;
  const evaluationCache = evaluationCacheIn(opened.cache);
  return {
    cases,
    videos: o.videos,
    models: o.models,
    modes: o.modes,
    embedder,
    judge: opened.judge,
    encoder: opened.encoder,
    response: o.response,
    scan: o.scan,
    quality: o.quality,
    cache,
    evaluationCache,
    runs: o.runs,
    keyframeControl: o.keyframeControl,
    videoQuality: o.videoQuality,
    concurrency: o.judge.concurrency,
    maxDuration: o.maxDuration_s,
    jobs: o.jobs,
    signal: o.signal,
    ...(o.segmenter === 'judge'
      ? {
          segment: judgeSegmenter(opened.judge, opened.encoder, probe, evaluationCache, {
            fps: o.quality.fps,
            frameWidth: o.quality.frameWidth,
            budget: o.quality.budget,
          }),
        }
      : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
  };
}

export interface CompassEvaluation {
  result: EvaluateResult;
  leaderboard: Leaderboard;
  judge: JudgeStats;
  /** Whether audio was judged, and whether a flag or the videos' tracks decided it. */
  audio: AudioDecision;
}

/** The input with `quality.audio` decided: by its flag, or (`audioByTracks`) by the videos' sound tracks. */
export async function withAudioDecided<T extends CompassEvaluateInput>(
  o: T,
  cases: readonly LoadedCase[],
): Promise<{ input: T; audio: AudioDecision }> {
  if (!o.audioByTracks) return { input: o, audio: { judged: o.quality.audio, by: 'flag' } };
  const judged = await videosCarrySound(
    { videos: o.videos, models: o.models, caseIds: cases.map((c) => c.case_id), modes: o.modes },
    probe,
  );
  return { input: { ...o, quality: { ...o.quality, audio: judged } }, audio: { judged, by: 'tracks' } };
}

/**
 * `compass evaluate`: both axes end to end, written to `out` (response, evaluation and checklist
 * rows, summary, leaderboard, run.json, settings.json, outputs.json). A call budget that runs out
 * or unresolved answers are in the result (`budgetCheck`, `leaderboard.unresolved`) for the caller
 * to decide on once the files are written.
 */
export async function evaluateCompassRun(
  given: CompassEvaluateInput & { out: string },
): Promise<CompassEvaluation> {
  const reads = compassReads(given);
  refuseOverlap({
    reads,
    writes: outputFiles(given.out, [...EVALUATION_RUN_FILES, SETTINGS_FILE, OUTPUTS_FILE]),
  });
  const { all, cases } = await runCases(given);
  const { input: o, audio } = await withAudioDecided(given, cases);
  return withTools(compassToolSettings(o, { judgeProgress: true }), async (tools) => {
    const judge = tools.needJudge();
    const t0 = Date.now();
    const r = await evaluateCompass({
      ...evaluateInput(o, cases, tools),
      ...(o.maxCalls !== undefined ? { maxCalls: o.maxCalls } : {}),
    });
    const lb = leaderboard(
      r.videos,
      o.models,
      {
        judge: judge.judge.name,
        embedder: tools.needEmbedder().id,
        runs: o.runs,
        segmenter: o.segmenter,
        keyframeControl: o.keyframeControl,
        videoQuality: o.videoQuality,
        jointCases: o.jointCases,
      },
      o.missing,
      r.checklists,
      o.rankBy,
    );
    const record = await compassRunRecord(o, {
      kind: 'compass evaluate',
      all,
      cases,
      complete: r.skipped.length === 0,
      embedder: tools.needEmbedder().id,
      judge,
      runs: o.runs,
      quality: o.quality,
      rankBy: o.rankBy,
      keyframeControl: o.keyframeControl,
      videoQuality: o.videoQuality,
      jointCases: o.jointCases,
    });
    // written beside out and moved into place: a failure leaves out as it was
    await writeOutputFolder(
      resolve(o.out),
      async (stage) => {
        await writeEvaluationRun(stage, r, lb, o.models, {
          wall_s: (Date.now() - t0) / 1000,
          judge: judge.judge.stats,
        });
        await writeShardRecord(stage, record);
        await writeOutputsRecord(stage, 'case_id');
      },
      { reads },
    );
    return { result: r, leaderboard: lb, judge: judge.judge.stats, audio };
  });
}

export interface CompassEvaluationPlan {
  plan: EvaluationPlan;
  /** Calls the judge cache already holds (0 when it is not made yet). */
  cached: number;
  /** The judge cache file, and whether it exists. */
  judgeCache: string;
  judgeCacheExists: boolean;
  /** Whether audio would be judged, and whether a flag or the videos' tracks decided it. */
  audio: AudioDecision;
}

/**
 * `compass evaluate --dry-run`: every call the evaluation needs and how many the judge cache holds.
 * It spends no call and reads the caches without creating one.
 */
export async function planCompassEvaluation(given: CompassEvaluateInput): Promise<CompassEvaluationPlan> {
  const { cases } = await runCases(given);
  const { input: o, audio } = await withAudioDecided(given, cases);
  const plan = await planEvaluation({
    cases,
    modes: o.modes,
    models: o.models,
    videos: o.videos,
    quality: o.quality,
    runs: o.runs,
    maxSide: o.judge.maxSide,
    segmenter: o.segmenter,
  });
  const judgeCache = o.judge.cache!;
  const judgeCacheExists = existsSync(judgeCache);
  const scanCache = o.scanCache !== undefined && existsSync(o.scanCache) ? o.scanCache : undefined;
  const cached = judgeCacheExists
    ? // only counts what the caches hold: both are opened read-only (issue 46 item 5)
      await withTools(compassToolSettings(o, { judgeProgress: true, readOnly: true, scanCache }), (tools) =>
        cachedCalls(evaluateInput(o, cases, tools)),
      )
    : 0;
  return { plan, cached, judgeCache, judgeCacheExists, audio };
}
