/**
 * `compass evaluate`: both axes end to end — keyframe response (scan cache) and video quality
 * (checklists once per case, prompt mode and metric; then the grouped judge per video) — and the
 * aggregation of SPEC §3.3 step 4. Every judge call goes through the judge cache, so an interrupted
 * run resumes and a repeated run makes no calls. `runs` > 1 repeats the quality judging with
 * separately cached answers (run k's questions carry `#run k` in their protocol version), for a
 * mean and standard deviation per model.
 */
import { runPool } from '../../concurrency/pool.js';
import type { Embedder } from '../../embed/embedder.js';
import { InternalError, PartialError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import { CallBudgetSpent, type Judge } from '../../judge/judge.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases/cases.js';
import type { KeyframeControlReading, VideoQualityReading } from '../overall/aggregate.js';
import type { ResponseOptions, ScanOptions } from '../response/options.js';
import { type ResponseRow, type ScoreRun, scoreModels } from '../response/score.js';
import type { ScanCache } from '../scan/cache.js';
import type { VideoEvaluation } from '../schemas/response.js';
import { type Checklist, generateChecklist } from './checklist.js';
import type { EvaluationCache } from './eval-cache.js';
import { FileHashes } from './eval-cache.js';
import { checklistMetrics, evaluateVideo, type VideoTaskContext } from './evaluate-video.js';
import type { QualityMetric } from './metrics.js';
import type { SegmentFn } from './segment.js';
import { DEFAULT_QUALITY_OPTIONS, type QualityOptions } from './video.js';

export type { ModelOverall, VideoEvaluation } from '../schemas/response.js';
export { checklistMetrics, zeroEvaluation } from './evaluate-video.js';

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

/** What a task of the pool gives: its checklist or evaluation, absent where the budget stopped it. */
type TaskResult = { kind: 'checklist'; cl?: Checklist } | { kind: 'video'; v?: VideoEvaluation };

export async function evaluateCompass(o: EvaluateInput): Promise<EvaluateResult> {
  const q = { ...DEFAULT_QUALITY_OPTIONS, ...o.quality };
  // one read of each file for the scan cache's key, the segmentation's and the questions'
  const hashes = new FileHashes();
  const response = await scoreModels({
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
  });
  const cases = new Map(o.cases.map((c) => [c.case_id, c]));
  const runs = Math.max(1, o.runs ?? 1);
  const limits = { maxCalls: o.maxCalls };

  // One pool for both phases: every checklist task (case × mode × metric), then every video (run ×
  // row), all started as soon as the pool has room — more tasks than call slots, so videos decode
  // and encode their frames while the checklists are with the judge. A video waits only for its
  // case's checklists, which were queued before it, so the pool never waits on a task it has not
  // started. Results land in their slot: the output order is the sequential one (checklists by
  // case, mode, metric; videos by run, then row) whatever order calls finish in.
  const { tasks, ready, checklistSlots } = planTasks(o, response, q, runs);
  const total = response.rows.length * runs;
  const checklistProgress = phaseReporter(o.onProgress, 'checklists', 'questions');
  const judgeProgress = phaseReporter(o.onProgress, 'judge', 'videos');
  checklistProgress.start(checklistSlots);
  judgeProgress.start(total, runs > 1 ? `${runs} runs` : undefined);
  const checklistOf = (caseId: string, mode: PromptMode, metric: QualityMetric) => {
    const d = ready.get(keyOf(caseId, mode, metric));
    if (!d) throw new InternalError(`evaluate: no checklist task for ${keyOf(caseId, mode, metric)}`);
    return d;
  };
  const videoCtx: VideoTaskContext = {
    judge: o.judge,
    encoder: o.encoder,
    q,
    cache: o.evaluationCache,
    keyframeControl: o.keyframeControl,
    videoQuality: o.videoQuality,
    hashes,
    limits,
    progress: judgeProgress,
    checklist: (caseId, mode, metric) => checklistOf(caseId, mode, metric).promise,
  };
  const pool = await runPool(
    tasks,
    async (t, _i, signal): Promise<TaskResult> => {
      if (t.kind === 'checklist') {
        const slot = checklistOf(t.c.case_id, t.mode, t.metric);
        try {
          const cl = await generateChecklist(
            o.judge.withSignal(signal, limits),
            o.encoder,
            t.c,
            t.mode,
            t.metric,
          );
          slot.resolve(cl);
          checklistProgress.done(`${t.c.case_id}__${t.mode} ${t.metric}`);
          return { kind: 'checklist', cl };
        } catch (e) {
          slot.resolve(undefined);
          if (e instanceof CallBudgetSpent) return { kind: 'checklist' };
          throw e;
        }
      }
      const c = cases.get(t.row.case_id);
      if (!c) throw new InternalError(`evaluate: row of case ${t.row.case_id}, not among the cases scored`);
      return { kind: 'video', v: await evaluateVideo(videoCtx, c, t.row, t.run, t.video, signal) };
    },
    // the backend's own limit keeps `concurrency` calls in flight; tasks waiting for it cost little
    { concurrency: Math.max(1, o.concurrency ?? 16) * 8, signal: o.signal },
  );
  checklistProgress.finish();
  judgeProgress.finish();
  const { checklists, videos, skipped } = collect(tasks, pool.results, checklistSlots, response, runs);
  return { response, checklists, videos, skipped };
}

/** A task of the pool: a checklist (case × mode × metric) or a video (run × row), with its output slot. */
type Task =
  | { kind: 'checklist'; c: LoadedCase; mode: PromptMode; metric: QualityMetric; slot: number }
  | { kind: 'video'; run: number; row: ResponseRow; video: string; slot: number };

const keyOf = (caseId: string, mode: PromptMode, metric: QualityMetric) => `${caseId}/${mode}/${metric}`;

/**
 * Every checklist task, then every video task (see evaluateCompass), and each checklist's promise
 * (`ready`, keyed by `keyOf`) that its case's videos wait for.
 */
function planTasks(o: EvaluateInput, response: ScoreRun, q: QualityOptions, runs: number) {
  const tasks: Task[] = [];
  const ready = new Map<string, Deferred<Checklist | undefined>>();
  let checklistSlots = 0;
  for (const c of o.cases)
    for (const mode of o.modes)
      for (const metric of checklistMetrics(c, mode, q)) {
        tasks.push({ kind: 'checklist', c, mode, metric, slot: checklistSlots++ });
        ready.set(keyOf(c.case_id, mode, metric), deferred());
      }
  for (let run = 0; run < runs; run++)
    for (const [i, row] of response.rows.entries())
      tasks.push({
        kind: 'video',
        run,
        row,
        video: videoPath(o.videos, row.model, row.case_id, row.prompt_mode),
        slot: run * response.rows.length + i,
      });
  return { tasks, ready, checklistSlots };
}

/** The pool's results in their slots: the sequential order, whatever order calls finished in. */
function collect(
  tasks: readonly Task[],
  results: readonly (TaskResult | undefined)[],
  checklistSlots: number,
  response: ScoreRun,
  runs: number,
) {
  const checklistSlot: (Checklist | undefined)[] = new Array(checklistSlots);
  const videoSlot: { t: Extract<Task, { kind: 'video' }>; v: VideoEvaluation | undefined }[] = new Array(
    response.rows.length * runs,
  );
  for (const [i, t] of tasks.entries()) {
    const r = results[i];
    if (t.kind === 'checklist') checklistSlot[t.slot] = r?.kind === 'checklist' ? r.cl : undefined;
    else videoSlot[t.slot] = { t, v: r?.kind === 'video' ? r.v : undefined };
  }
  const checklists = checklistSlot.filter((c): c is Checklist => !!c);
  const videos: VideoEvaluation[] = [];
  // videos the budget stopped before segmentation come first: they were not scored at all
  const skipped: string[] = [...response.skipped];
  for (const { t, v } of videoSlot.filter((x) => !!x)) {
    if (v) videos.push(v);
    else skipped.push(`${t.video}${runs > 1 ? ` (run ${t.run + 1})` : ''}`);
  }
  return { checklists, videos, skipped };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (v: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Throw exit 5 when the budget left videos unjudged (the rest are written first by the caller). */
export function budgetCheck(r: EvaluateResult): void {
  if (r.skipped.length)
    throw new PartialError(
      `${r.skipped.length} video(s) not judged: the call budget ran out (run again to resume)`,
      r.skipped,
    );
}
