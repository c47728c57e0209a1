/**
 * `compass evaluate`'s two axes in their order: the keyframe response first (every video scanned,
 * from the scan cache when it holds the scan, and cut into shots), then the video quality over the
 * response's rows (their status and shots), then each video's Overall from both (SPEC §3.3 step
 * 4). The axes know nothing of each other: this module alone hands the one's rows to the other.
 */

import { defined } from '../../defined.js';
import type { Embedder } from '../../embed/embedder.js';
import { PartialError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import type { OnProgress } from '../../progress.js';
import { FileHashes } from '../../store/file-hashes.js';
import type { LoadedCase, PromptMode } from '../cases/cases.js';
import type { KeyframeControlReading, VideoQualityReading } from '../overall/aggregate.js';
import { videoEvaluation } from '../overall/evaluation.js';
import type { EvaluationCache } from '../quality/eval-cache.js';
import { judgeQuality } from '../quality/evaluate.js';
import { DEFAULT_QUALITY_OPTIONS, type QualityOptions } from '../quality/video.js';
import type { ScoreRun } from '../response/input.js';
import { scoreModels } from '../response/models.js';
import type { ResponseOptions } from '../response/options.js';
import type { ScanCache } from '../scan/cache.js';
import type { ScanOptions } from '../scan/options.js';
import type { SegmentFn } from '../scan/segmenter.js';
import type { VideoEvaluation } from '../schemas/evaluation.js';
import type { Checklist } from '../schemas/quality.js';

export interface EvaluateInput {
  cases: readonly LoadedCase[];
  videos: string;
  models: readonly string[];
  modes: readonly PromptMode[];
  embedder: Embedder;
  judge: Judge;
  encoder: ImageEncoder;
  response?: Partial<ResponseOptions>;
  scan?: Partial<ScanOptions>;
  quality?: Partial<QualityOptions>;
  cache?: ScanCache | undefined;
  /**
   * The evaluation cache (in the judge cache's file): a video whose grouped questions were all
   * answered before under the same inputs is reported from those answers without being decoded.
   */
  evaluationCache?: EvaluationCache | undefined;
  /** How Keyframe Fidelity and Temporal Organization enter Overall (default `combined`, seed §4.2). */
  keyframeControl?: KeyframeControlReading | undefined;
  /** How the three quality groups enter Overall (default `groups`; `one`: Table 3's Video Quality column). */
  videoQuality?: VideoQualityReading | undefined;
  /** Shot segmentation by the judge (the published evaluator's; absent = the pixel detector). */
  segment?: SegmentFn | undefined;
  runs?: number;
  /**
   * Make at most this many judge calls, checklists included (re-asks of a question already asked
   * aside); what the budget did not reach is listed in `skipped` (exit 5; run again to resume).
   */
  maxCalls?: number | undefined;
  /** A longer video is a failed video, decided before it is decoded (see scoreModels). */
  maxDuration?: number | undefined;
  /** Judge calls in flight at once (the backend's own limit still applies); 16 by default. */
  concurrency?: number;
  /** Videos scanned at once in the response phase (`--jobs`, see scoreModels); 1 by default. */
  jobs?: number;
  /** Ctrl-C: no new call starts once it aborts. */
  signal?: AbortSignal | undefined;
  /**
   * Phases `scan` (videos, see scoreModels), `checklists` (one question per case, mode and metric)
   * and `judge` (one item per video and run); the last two run side by side in one pool.
   */
  onProgress?: OnProgress;
}

export interface EvaluateResult {
  response: ScoreRun;
  checklists: Checklist[];
  videos: VideoEvaluation[];
  /** Videos not judged because the call budget ran out. */
  skipped: string[];
}

/** `compass evaluate`: both axes end to end (see the module's comment), and each video's Overall. */
export async function evaluateCompass(o: EvaluateInput): Promise<EvaluateResult> {
  const q = { ...DEFAULT_QUALITY_OPTIONS, ...o.quality };
  // one read of each file for the scan cache's key, the segmentation's and the questions'
  const hashes = new FileHashes();
  const response = await scoreModels(
    defined({
      cases: o.cases,
      videos: o.videos,
      models: o.models,
      modes: o.modes,
      embedder: o.embedder,
      response: o.response,
      scan: o.scan,
      cache: o.cache,
      hashes,
      segment: o.segment,
      maxCalls: o.maxCalls,
      maxDuration: o.maxDuration,
      jobs: o.jobs,
      signal: o.signal,
      onProgress: o.onProgress,
    }),
  );
  const judged = await judgeQuality(
    {
      cases: o.cases,
      videos: o.videos,
      modes: o.modes,
      judge: o.judge,
      encoder: o.encoder,
      quality: q,
      evaluationCache: o.evaluationCache,
      ...(o.runs !== undefined ? { runs: o.runs } : {}),
      maxCalls: o.maxCalls,
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      signal: o.signal,
      onProgress: o.onProgress,
    },
    response.rows,
    hashes,
  );
  const cases = new Map(o.cases.map((c) => [c.case_id, c]));
  const readings = { keyframeControl: o.keyframeControl, videoQuality: o.videoQuality };
  const videos = judged.videos.map(({ row, run, quality }) =>
    // judgeQuality judged only rows of these cases
    videoEvaluation(row, run, quality, readings, cases.get(row.case_id)!),
  );
  // videos the budget stopped before segmentation come first: they were not scored at all
  const skipped = [...response.skipped, ...judged.skipped];
  return { response, checklists: judged.checklists, videos, skipped };
}

/**
 * How many judge calls of an evaluation the judge cache already answers (for `--dry-run`): the
 * evaluation is walked with a call budget of 0, so every question the cache holds is answered from
 * it (checklists, segmentations, grouped calls — through the evaluation cache, as a real run would)
 * and nothing is asked. Scans come from the scan cache when given (a scan it lacks is made, and
 * kept there); a video whose grouped answers are not all cached is decoded before its first
 * question meets the budget. What it returns is exact; the calls still to ask are the plan's
 * total less it (an upper bound: a metric whose checklist comes back unresolved is never asked).
 */
export async function cachedCalls(o: Omit<EvaluateInput, 'maxCalls'>): Promise<number> {
  const before = o.judge.stats.cached;
  await evaluateCompass({ ...o, maxCalls: 0 });
  return o.judge.stats.cached - before;
}

/** Throw exit 5 when the budget left videos unjudged (the rest are written first by the caller). */
export function budgetCheck(r: EvaluateResult): void {
  if (r.skipped.length)
    throw new PartialError(
      `${r.skipped.length} video(s) not judged: the call budget ran out (run again to resume)`,
      r.skipped,
    );
}
