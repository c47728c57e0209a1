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
import { PartialError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import { CallBudgetSpent, type Judge } from '../../judge/judge.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases.js';
import type { ResponseOptions, ScanOptions } from '../response/options.js';
import type { ScanCache } from '../response/scan-cache.js';
import type { QualityMetricReport, VideoEvaluation } from '../results.js';
import { type ResponseRow, type ScoreRun, scoreModels } from '../score.js';
import type { SegmentFn } from '../segment.js';
import { type KeyframeControlReading, overallOf, qualityGroups } from './aggregate.js';
import { type Checklist, generateChecklist } from './checklist.js';
import type { EvaluationCache } from './eval-cache.js';
import { FileHashes } from './eval-cache.js';
import { applicability, byMetric, QUALITY_METRICS, type QualityMetric } from './metrics.js';
import {
  DEFAULT_QUALITY_OPTIONS,
  judgeVideoQualityCached,
  type QualityOptions,
  type QualityReport,
} from './video.js';

export type { ModelOverall, VideoEvaluation } from '../results.js';

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

/** The metrics a case needs checklists for in a mode (those that apply, and are not audio-only without audio). */
export function checklistMetrics(
  c: LoadedCase,
  mode: PromptMode,
  q: Pick<QualityOptions, 'audio'>,
): QualityMetric[] {
  return QUALITY_METRICS.filter(
    (m) => applicability(c, mode, m).applies && (q.audio || (m !== 'AMA' && m !== 'AVC')),
  );
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
  type Task =
    | { kind: 'checklist'; c: LoadedCase; mode: PromptMode; metric: QualityMetric; slot: number }
    | { kind: 'video'; run: number; row: ResponseRow; video: string; slot: number };
  const tasks: Task[] = [];
  const ready = new Map<string, Deferred<Checklist | undefined>>();
  const keyOf = (caseId: string, mode: PromptMode, metric: QualityMetric) => `${caseId}/${mode}/${metric}`;
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
  const total = response.rows.length * runs;
  const checklistProgress = phaseReporter(o.onProgress, 'checklists', 'questions');
  const judgeProgress = phaseReporter(o.onProgress, 'judge', 'videos');
  checklistProgress.start(checklistSlots);
  judgeProgress.start(total, runs > 1 ? `${runs} runs` : undefined);
  const pool = await runPool(
    tasks,
    async (t, _i, signal): Promise<TaskResult> => {
      if (t.kind === 'checklist') {
        const slot = ready.get(keyOf(t.c.case_id, t.mode, t.metric))!;
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
      const { row, run } = t;
      const c = cases.get(row.case_id)!;
      if (row.status !== 'scored') {
        // missing or undecodable: 0 on every metric of the case, never judged
        judgeProgress.done(`${row.model}/${row.case_id}__${row.prompt_mode}`);
        return { kind: 'video', v: zeroEvaluation(row, run, c, q, o.keyframeControl) };
      }
      const got = await Promise.all(
        checklistMetrics(c, row.prompt_mode, q).map(
          async (m) => [m, await ready.get(keyOf(row.case_id, row.prompt_mode, m))!.promise] as const,
        ),
      );
      // a checklist the budget did not reach: the video waits for the next run
      if (got.some(([, cl]) => !cl)) return { kind: 'video' };
      const judge = (run === 0 ? o.judge : runJudge(o.judge, run)).withSignal(signal, limits);
      try {
        const quality = await judgeVideoQualityCached({
          judge,
          encoder: o.encoder,
          c,
          mode: row.prompt_mode,
          video: t.video,
          checklists: new Map(got.map(([m, cl]) => [m, cl!])),
          shots: row.shots,
          options: q,
          cache: o.evaluationCache,
          run,
          hashes,
        });
        judgeProgress.done(`${row.model}/${row.case_id}__${row.prompt_mode}`);
        const v: VideoEvaluation = {
          case_id: row.case_id,
          model: row.model,
          prompt_mode: row.prompt_mode,
          run,
          status: 'scored',
          structure: row.structure,
          n_keyframes: row.n_keyframes,
          conditioning: row.conditioning,
          response: { metrics: row.metrics, groups: row.groups },
          quality,
          overall: overallOf(
            {
              keyframe_fidelity: row.groups.keyframe_fidelity,
              temporal_organization: row.groups.temporal_organization,
              visual_quality: quality.groups.visual_quality.score,
              spatiotemporal_coherence: quality.groups.spatiotemporal_coherence.score,
              instruction_adherence: quality.groups.instruction_adherence.score,
            },
            quality,
            o.keyframeControl,
          ),
        };
        return { kind: 'video', v };
      } catch (e) {
        if (e instanceof CallBudgetSpent) return { kind: 'video' };
        throw e;
      }
    },
    // the backend's own limit keeps `concurrency` calls in flight; tasks waiting for it cost little
    { concurrency: Math.max(1, o.concurrency ?? 16) * 8, signal: o.signal },
  );
  checklistProgress.finish();
  judgeProgress.finish();
  const checklistSlot: (Checklist | undefined)[] = new Array(checklistSlots);
  const videoSlot: { t: Extract<Task, { kind: 'video' }>; v: VideoEvaluation | undefined }[] = new Array(
    response.rows.length * runs,
  );
  for (const [i, t] of tasks.entries()) {
    const r = pool.results[i];
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
  return { response, checklists, videos, skipped };
}

/** A missing or undecodable video's evaluation: every applicable metric and group 0. */
export function zeroEvaluation(
  row: ResponseRow,
  run: number,
  c: LoadedCase,
  q: Pick<QualityOptions, 'fps'>,
  keyframeControl?: KeyframeControlReading,
): VideoEvaluation {
  const reason = `the video is ${row.status === 'missing' ? 'missing' : 'not decodable'}: 0 on every metric`;
  const metrics = byMetric((m): QualityMetricReport => {
    const ap = applicability(c, row.prompt_mode, m);
    return ap.applies
      ? { status: 'scored', score: 0, reason }
      : { status: 'not_applicable', score: null, reason: ap.reason };
  });
  const quality: QualityReport = {
    frames: { count: 0, fps: q.fps, effective_fps: 0, capped_by_budget: false },
    metrics,
    groups: qualityGroups(metrics),
  };
  return {
    case_id: row.case_id,
    model: row.model,
    prompt_mode: row.prompt_mode,
    run,
    status: row.status,
    structure: row.structure,
    n_keyframes: row.n_keyframes,
    conditioning: row.conditioning,
    response: { metrics: row.metrics, groups: row.groups },
    quality,
    overall: overallOf(
      {
        keyframe_fidelity: 0,
        temporal_organization: 0,
        visual_quality: quality.groups.visual_quality.score,
        spatiotemporal_coherence: quality.groups.spatiotemporal_coherence.score,
        instruction_adherence: quality.groups.instruction_adherence.score,
      },
      quality,
      keyframeControl,
    ),
  };
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

/** The same judge with run k's questions cached apart (their protocol version carries `#run k`). */
function runJudge(judge: Judge, run: number): Judge {
  return new Proxy(judge, {
    get(target, prop, receiver) {
      if (prop === 'ask')
        return (
          question: Parameters<Judge['ask']>[0],
          ...rest: Parameters<Judge['ask']> extends [unknown, ...infer R] ? R : never
        ) =>
          target.ask(
            {
              ...question,
              protocol: { ...question.protocol, version: `${question.protocol.version}#run${run}` },
            },
            ...rest,
          );
      return Reflect.get(target, prop, receiver);
    },
  });
}

/** Throw exit 5 when the budget left videos unjudged (the rest are written first by the caller). */
export function budgetCheck(r: EvaluateResult): void {
  if (r.skipped.length)
    throw new PartialError(
      `${r.skipped.length} video(s) not judged: the call budget ran out (run again to resume)`,
      r.skipped,
    );
}
