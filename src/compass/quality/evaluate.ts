/**
 * The quality axis of `compass evaluate` (SPEC §3.3 steps 1–3): checklists once per case, prompt
 * mode and metric; then the grouped judge per video, over the videos the response axis listed
 * (their status and shots). Every judge call goes through the judge cache, so an interrupted run
 * resumes and a repeated run makes no calls. `runs` > 1 repeats the judging with separately cached
 * answers (run k's questions carry `#run k` in their protocol version), for a mean and standard
 * deviation per model. The order of the two axes, and Overall, are the run's (run/evaluate.ts).
 */
import { runPool } from '../../concurrency/pool.js';
import { InternalError } from '../../errors.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { CallBudgetSpent } from '../../judge/question.js';
import { type OnProgress, phaseReporter } from '../../progress.js';
import type { FileHashes } from '../../store/file-hashes.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases/cases.js';
import type { Checklist, QualityReport } from '../schemas/quality.js';
import { generateChecklist } from './checklist.js';
import type { EvaluationCache } from './eval-cache.js';
import {
  checklistMetrics,
  evaluateVideo,
  type QualityVideo,
  type VideoTaskContext,
} from './evaluate-video.js';
import type { QualityMetric } from './metrics.js';
import type { QualityOptions } from './video.js';

export interface QualityInput {
  cases: readonly LoadedCase[];
  videos: string;
  modes: readonly PromptMode[];
  judge: Judge;
  encoder: ImageEncoder;
  /** The quality options, the defaults filled in. */
  quality: QualityOptions;
  /**
   * The evaluation cache (in the judge cache's file): a video whose grouped questions were all
   * answered before under the same inputs is reported from those answers without being decoded.
   */
  evaluationCache?: EvaluationCache | undefined;
  runs?: number;
  /**
   * Make at most this many judge calls, checklists included (re-asks of a question already asked
   * aside); what the budget did not reach is listed in `skipped` (exit 5; run again to resume).
   */
  maxCalls?: number | undefined;
  /** Judge calls in flight at once (the backend's own limit still applies); 16 by default. */
  concurrency?: number;
  /** Ctrl-C: no new call starts once it aborts. */
  signal?: AbortSignal | undefined;
  /**
   * Phases `checklists` (one question per case, mode and metric) and `judge` (one item per video
   * and run); they run side by side in one pool.
   */
  onProgress?: OnProgress | undefined;
}

/** One video's quality report in one run, with the row it was judged for. */
interface JudgedVideo<R extends QualityVideo> {
  row: R;
  run: number;
  quality: QualityReport;
}

export interface QualityResult<R extends QualityVideo> {
  checklists: Checklist[];
  /** In the order of the runs, then of the rows given. */
  videos: JudgedVideo<R>[];
  /** Videos not judged because the call budget ran out. */
  skipped: string[];
}

/** What a task of the pool gives: its checklist or evaluation, absent where the budget stopped it. */
type TaskResult = { kind: 'checklist'; cl?: Checklist } | { kind: 'video'; q?: QualityReport | undefined };

/**
 * The quality axis over `rows` (the response axis's rows: a row not scored is 0 on every metric,
 * never judged). `hashes`: the run's file hashes, shared with the scan cache's key and the
 * segmentation's.
 */
export async function judgeQuality<R extends QualityVideo>(
  o: QualityInput,
  rows: readonly R[],
  hashes: FileHashes,
): Promise<QualityResult<R>> {
  const q = o.quality;
  const cases = new Map(o.cases.map((c) => [c.case_id, c]));
  const runs = Math.max(1, o.runs ?? 1);
  const limits = { maxCalls: o.maxCalls };

  // One pool for both phases: every checklist task (case × mode × metric), then every video (run ×
  // row), all started as soon as the pool has room — more tasks than call slots, so videos decode
  // and encode their frames while the checklists are with the judge. A video waits only for its
  // case's checklists, which were queued before it, so the pool never waits on a task it has not
  // started. Results land in their slot: the output order is the sequential one (checklists by
  // case, mode, metric; videos by run, then row) whatever order calls finish in.
  const { tasks, ready, checklistSlots } = planTasks(o, rows, runs);
  const total = rows.length * runs;
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
      return { kind: 'video', q: await evaluateVideo(videoCtx, c, t.row, t.run, t.video, signal) };
    },
    // the backend's own limit keeps `concurrency` calls in flight; tasks waiting for it cost little
    { concurrency: Math.max(1, o.concurrency ?? 16) * 8, signal: o.signal },
  );
  checklistProgress.finish();
  judgeProgress.finish();
  return collect(tasks, pool.results, checklistSlots, rows.length, runs);
}

/** A task of the pool: a checklist (case × mode × metric) or a video (run × row), with its output slot. */
type Task<R extends QualityVideo> =
  | { kind: 'checklist'; c: LoadedCase; mode: PromptMode; metric: QualityMetric; slot: number }
  | { kind: 'video'; run: number; row: R; video: string; slot: number };

const keyOf = (caseId: string, mode: PromptMode, metric: QualityMetric) => `${caseId}/${mode}/${metric}`;

/**
 * Every checklist task, then every video task (see judgeQuality), and each checklist's promise
 * (`ready`, keyed by `keyOf`) that its case's videos wait for.
 */
function planTasks<R extends QualityVideo>(o: QualityInput, rows: readonly R[], runs: number) {
  const q = o.quality;
  const tasks: Task<R>[] = [];
  const ready = new Map<string, Deferred<Checklist | undefined>>();
  let checklistSlots = 0;
  for (const c of o.cases)
    for (const mode of o.modes)
      for (const metric of checklistMetrics(c, mode, q)) {
        tasks.push({ kind: 'checklist', c, mode, metric, slot: checklistSlots++ });
        ready.set(keyOf(c.case_id, mode, metric), deferred());
      }
  for (let run = 0; run < runs; run++)
    for (const [i, row] of rows.entries())
      tasks.push({
        kind: 'video',
        run,
        row,
        video: videoPath(o.videos, row.model, row.case_id, row.prompt_mode),
        slot: run * rows.length + i,
      });
  return { tasks, ready, checklistSlots };
}

/** The pool's results in their slots: the sequential order, whatever order calls finished in. */
function collect<R extends QualityVideo>(
  tasks: readonly Task<R>[],
  results: readonly (TaskResult | undefined)[],
  checklistSlots: number,
  rowCount: number,
  runs: number,
): QualityResult<R> {
  const checklistSlot: (Checklist | undefined)[] = new Array(checklistSlots);
  const videoSlot: { t: Extract<Task<R>, { kind: 'video' }>; q: QualityReport | undefined }[] = new Array(
    rowCount * runs,
  );
  for (const [i, t] of tasks.entries()) {
    const r = results[i];
    if (t.kind === 'checklist') checklistSlot[t.slot] = r?.kind === 'checklist' ? r.cl : undefined;
    else videoSlot[t.slot] = { t, q: r?.kind === 'video' ? r.q : undefined };
  }
  const checklists = checklistSlot.filter((c): c is Checklist => !!c);
  const videos: JudgedVideo<R>[] = [];
  const skipped: string[] = [];
  for (const { t, q } of videoSlot.filter((x) => !!x)) {
    if (q) videos.push({ row: t.row, run: t.run, quality: q });
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
