/**
 * Video quality of one video (SPEC §3.3): frames sampled uniformly at `fps` over the whole video
 * (8 by default, as published: "all reported MLLM-judged results use 8-FPS sampling"); only an
 * opt-in `budget` caps the frames (evenly spread), and the report then says so with the rate used), the keyframes, the
 * case's checklists and measured evidence go to the grouped judge, one call per group of related
 * metrics. Metrics that do not apply are `not_applicable`; AMA and AVC, which need the audio, are
 * `not_measured` (with the reason) unless the judge is declared to take audio — never zero.
 * Through the evaluation cache (`judgeVideoQualityCached`), a video whose questions were all
 * answered before, under the same inputs, is reported from those answers without being decoded.
 */
import { InternalError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { extractAudio } from '../../media/audio.js';
import { DEFAULT_MOTION_OPTIONS, motionMeter, type ShotMotion } from '../../media/motion.js';
import { probe } from '../../media/probe.js';
import type { VideoInfo } from '../../media/video-info.js';
import type { FileHashes } from '../../store/file-hashes.js';
import type { LoadedCase, PromptMode } from '../cases/cases.js';
import type { Checklist, QualityMetricReport, QualityReport } from '../schemas/quality.js';
import type { ScanShot } from '../schemas/scan.js';
import { caseContent, type EvaluationCache, entryKey } from './eval-cache.js';
import { evidenceText } from './evidence.js';
import {
  GROUPED_PROTOCOL,
  GroupedReply,
  type ItemRule,
  judgeGroup,
  judgementsOf,
  type MetricJudgement,
} from './grouped.js';
import { qualityGroups } from './groups.js';
import { judgeFrames, qualityTimes, sentRate } from './judge-frames.js';
import {
  applicability,
  groupMetrics,
  QUALITY_GROUP_NAMES,
  QUALITY_METRICS,
  type QualityMetric,
} from './metrics.js';
import { groupedTemplate } from './prompts/grouped-judge.js';

export interface QualityOptions {
  /** Frames per second sent to the judge. */
  fps: number;
  /** Opt-in: at most this many frames per video (spread evenly, lowering the rate); none by default. */
  budget: number | undefined;
  /** Width of the frames sent (the judge's encoder also caps the long side). */
  frameWidth: number;
  /** The judge accepts audio input: only then are AMA and AVC asked. */
  audio: boolean;
  /** `--item-rule`: an off-anchor score or contradicting support dropped (`strict`, default) or kept (`snap`). */
  itemRule?: ItemRule | undefined;
}

export const DEFAULT_QUALITY_OPTIONS: QualityOptions = {
  fps: 8,
  budget: undefined,
  frameWidth: 384,
  audio: false,
};

/** The inputs of one video's grouped questions. */
export interface VideoQualityInput {
  judge: Judge;
  encoder: ImageEncoder;
  c: LoadedCase;
  mode: PromptMode;
  video: string;
  checklists: ReadonlyMap<QualityMetric, Checklist>;
  shots: readonly ScanShot[];
  motion?: readonly string[];
  /** Without `motion`: measure the camera motion on the same decode as the judge's frames. */
  measureMotion?: boolean;
  options?: Partial<QualityOptions>;
  /** The video's probe when the caller has it already (one ffprobe per video, not one per use). */
  info?: VideoInfo;
}

/** What the report needs from the video itself (ffprobe and the decode); kept by the evaluation cache. */
interface VideoFacts {
  duration_s: number;
  has_audio: boolean;
  frames: QualityReport['frames'];
}

async function judgeVideoQuality(a: VideoQualityInput): Promise<QualityReport> {
  return (await askVideoQuality(a)).report;
}

/**
 * The metrics settled without asking (not applicable; audio requested but absent; audio not
 * measured; no checklist), and the groups left to ask, in group order.
 */
function settledMetrics(
  a: Pick<VideoQualityInput, 'c' | 'mode' | 'checklists'>,
  o: QualityOptions,
  has_audio: boolean,
): { metrics: Partial<Record<QualityMetric, QualityMetricReport>>; groups: QualityMetric[][] } {
  const metrics: Partial<Record<QualityMetric, QualityMetricReport>> = {};
  for (const m of QUALITY_METRICS) {
    const ap = applicability(a.c, a.mode, m);
    if (!ap.applies) metrics[m] = { status: 'not_applicable', score: null, reason: ap.reason };
    // one rule whatever the file holds: without an audio judge AMA and AVC are not measured, a
    // video without an audio track included; with one, a missing track is a measured 0
    else if ((m === 'AMA' || m === 'AVC') && !o.audio)
      metrics[m] = {
        status: 'not_measured',
        score: null,
        reason: 'needs the audio track; the judge is not declared to take audio input',
      };
    else if (!has_audio && m === 'AMA')
      metrics[m] = {
        status: 'scored',
        score: 0,
        reason: 'audio was requested and the video has no audio track',
      };
    // AVC is judged on every video that has an audio track, whatever the prompt asks (App. D);
    // without a track there is nothing to judge here, and the joint leaderboard scores it 0, marked
    else if (!has_audio && m === 'AVC')
      metrics[m] = {
        status: 'not_applicable',
        score: null,
        reason: 'the video has no audio track (AV Coordination 0 on the joint audio-video leaderboard)',
      };
    else {
      const cl = a.checklists.get(m);
      if (!cl || cl.items.length === 0)
        metrics[m] = {
          status: 'unresolved',
          score: null,
          reason: `no checklist for ${m}${cl?.unresolved ? ` (${cl.unresolved})` : ''}`,
        };
    }
  }
  const groups = QUALITY_GROUP_NAMES.map((g) =>
    groupMetrics(g).filter((m) => metrics[m] === undefined),
  ).filter((ask) => ask.length > 0);
  return { metrics, groups };
}

/** Every metric has its report (settled before the judge, or judged). */
function everyMetric(
  m: Partial<Record<QualityMetric, QualityMetricReport>>,
): m is Record<QualityMetric, QualityMetricReport> {
  return QUALITY_METRICS.every((k) => m[k] !== undefined);
}

/** The report from the settled metrics and each asked group's judgements. */
function reportOf(
  settled: Partial<Record<QualityMetric, QualityMetricReport>>,
  judged: readonly MetricJudgement[][],
  frames: QualityReport['frames'],
  audio_track: boolean,
): QualityReport {
  const metrics = { ...settled };
  for (const js of judged)
    for (const j of js)
      metrics[j.metric] = j.not_applicable
        ? { status: 'not_applicable', score: null, reason: j.not_applicable }
        : {
            status: j.score === null ? 'unresolved' : 'scored',
            score: j.score,
            ...(j.unresolved ? { reason: j.unresolved } : {}),
            items: j.items,
            dropped: j.dropped,
            ...(j.kept_by_rule ? { kept_by_rule: j.kept_by_rule } : {}),
            missing_items: j.missing_items,
          };
  if (!everyMetric(metrics))
    throw new InternalError('a quality report lacks a metric: neither settled nor judged');
  return { frames, metrics, groups: qualityGroups(metrics), audio_track };
}

/** Decode, ask every group, and report with what the evaluation cache keeps of it. */
async function askVideoQuality(
  a: VideoQualityInput,
): Promise<{ report: QualityReport; facts: VideoFacts; calls: { metrics: QualityMetric[]; key: string }[] }> {
  const o = { ...DEFAULT_QUALITY_OPTIONS, ...a.options };
  const info = a.info ?? (await probe(a.video));
  const { times, capped, effective_fps } = qualityTimes(info.duration_s, o);
  const settled = settledMetrics(a, o, info.has_audio);
  const meter = a.motion === undefined && a.measureMotion ? motionMeter(info) : undefined;
  const frames = await judgeFrames(info, a.encoder, times, o.frameWidth, meter?.side);
  const rate = sentRate(frames.length, times.length, info.duration_s, effective_fps);
  const keyframes = await Promise.all(a.c.keyframes.map((k) => a.encoder.fromFile(k.image)));
  const motion = a.motion ?? (meter ? motionLines(meter.shots([...a.shots])) : undefined);
  const evidence = evidenceText(a.c, a.shots, motion);
  const audio = o.audio ? await extractAudio(info) : null;
  // the groups are independent questions: asked together, applied in group order; every group's
  // call settles before the video's task does (none left on the wire)
  const settledCalls = await Promise.allSettled(
    settled.groups.map((ask) =>
      judgeGroup(a.judge, {
        c: a.c,
        mode: a.mode,
        metrics: ask,
        checklists: new Map(ask.map((m) => [m, a.checklists.get(m)!.items])),
        frames,
        keyframes,
        duration_s: info.duration_s,
        evidence,
        avEvidence: evidenceText(a.c, a.shots, motion, false),
        ...(audio && ask.some((m) => m === 'AMA' || m === 'AVC') ? { audio } : {}),
        itemRule: o.itemRule,
        budgetNote: capped
          ? ` at ${rate.toFixed(2)} fps (capped at ${o.budget} frames for this ${info.duration_s.toFixed(1)} s video)`
          : rate < o.fps
            ? ` at ${rate.toFixed(2)} fps (${frames.length} frames${(info.times ? info.mean_fps : info.fps) < o.fps ? ': every frame of this video' : ''})`
            : ` at ${o.fps} fps`,
      }),
    ),
  );
  const failedGroup = settledCalls.find((r) => r.status === 'rejected');
  if (failedGroup) throw failedGroup.reason;
  const replies = settledCalls.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const facts: VideoFacts = {
    duration_s: info.duration_s,
    has_audio: info.has_audio,
    frames: {
      count: frames.length,
      fps: o.fps,
      effective_fps: +rate.toFixed(6),
      capped_by_budget: capped,
    },
  };
  return {
    report: reportOf(
      settled.metrics,
      replies.map((r) => r.judgements),
      facts.frames,
      facts.has_audio,
    ),
    facts,
    calls: settled.groups.map((metrics, i) => ({ metrics, key: replies[i]!.key })),
  };
}

/** Camera motion per shot, as the judge's evidence lines. */
function motionLines(motion: readonly ShotMotion[]): string[] {
  return motion.map(
    (m, i) => `shot ${i + 1} [${m.start_s.toFixed(2)}, ${m.end_s.toFixed(2)}) s: ${m.motion}`,
  );
}

/**
 * The evaluation-cache key of one video's grouped questions: everything `askVideoQuality` reads
 * (the video's and keyframes' bytes, the case, the mode, the checklists, the shots and the camera
 * motion settings, the frame settings), the judge, the encoder and the run (see eval-cache.ts).
 */
export function groupedEntryKey(
  a: Omit<VideoQualityInput, 'motion'> & { run: number; hashes?: FileHashes | undefined },
): Promise<string> {
  const o = { ...DEFAULT_QUALITY_OPTIONS, ...a.options };
  return entryKey({
    kind: 'grouped',
    video: a.video,
    keyframes: a.c.keyframes,
    protocol: { name: GROUPED_PROTOCOL, version: groupedTemplate(QUALITY_METRICS).version },
    run: a.run,
    judge: a.judge,
    encoder: a.encoder,
    inputs: {
      case: caseContent(a.c),
      mode: a.mode,
      checklists: Object.fromEntries(a.checklists),
      shots: a.shots,
      quality: { fps: o.fps, budget: o.budget ?? null, frame_width: o.frameWidth, audio: o.audio },
      motion: DEFAULT_MOTION_OPTIONS,
    },
    hashes: a.hashes,
  });
}

/**
 * One video's quality through the evaluation cache: when it holds the judge-cache keys of this
 * video's questions under these very inputs (see eval-cache.ts) and the judge cache still holds
 * every answer, the report is rebuilt from them without decoding; otherwise the video is decoded
 * (camera motion included) and asked as usual, and its entry recorded.
 */
export async function judgeVideoQualityCached(
  a: Omit<VideoQualityInput, 'motion'> & {
    cache: EvaluationCache | undefined;
    /** The run index (run k's answers are cached apart). */
    run: number;
    hashes?: FileHashes | undefined;
  },
): Promise<QualityReport> {
  const o = { ...DEFAULT_QUALITY_OPTIONS, ...a.options };
  // the camera motion is measured on the decode of the judge's frames (one ffmpeg per video)
  const ask = async () => ({ ...a, info: await probe(a.video), measureMotion: true });
  if (!a.cache) return judgeVideoQuality(await ask());
  const key = await groupedEntryKey(a);
  const hit = a.cache.get(key, 'grouped');
  if (hit) {
    const settled = settledMetrics(a, o, hit.has_audio);
    const same =
      settled.groups.length === hit.calls.length &&
      settled.groups.every((g, i) => g.join() === hit.calls[i]!.metrics.join());
    const verdicts = same
      ? a.judge.recall(hit.calls.map((c) => ({ key: c.key, schema: GroupedReply })))
      : undefined;
    if (verdicts) {
      a.cache.hits++;
      return reportOf(
        settled.metrics,
        verdicts.map((v, i) =>
          judgementsOf(v, {
            metrics: settled.groups[i]!,
            checklists: new Map(settled.groups[i]!.map((m) => [m, checklistOf(a, m).items])),
            duration_s: hit.duration_s,
            itemRule: o.itemRule,
          }),
        ),
        hit.frames,
        hit.has_audio,
      );
    }
  }
  a.cache.misses++;
  const r = await askVideoQuality(await ask());
  a.cache.put(key, { v: 1, kind: 'grouped', ...r.facts, calls: r.calls });
  return r.report;
}

/** The case's checklist for a metric the judge is asked about (the caller passes one per asked metric). */
function checklistOf(a: Pick<VideoQualityInput, 'c' | 'mode' | 'checklists'>, m: QualityMetric): Checklist {
  const cl = a.checklists.get(m);
  if (!cl) throw new InternalError(`case ${a.c.case_id} (${a.mode}): no checklist for ${m}`);
  return cl;
}
