/**
 * Compass quality for one video (evaluate.ts runs these in its pool): a missing or undecodable
 * video scores 0 on every metric of its case and is never judged; a scored one is judged on its
 * case's checklists (`judgeVideoQualityCached`). Its Overall, which combines this report with its
 * keyframe response, is the run's to make (overall/evaluation.ts).
 */
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { CallBudgetSpent } from '../../judge/question.js';
import type { phaseReporter } from '../../progress.js';
import type { FileHashes } from '../../store/file-hashes.js';
import type { LoadedCase, PromptMode } from '../cases/cases.js';
import type { Checklist, QualityMetricReport, QualityReport } from '../schemas/quality.js';
import type { ResponseRow } from '../schemas/response.js';
import type { EvaluationCache } from './eval-cache.js';
import { qualityGroups } from './groups.js';
import { applicability, byMetric, QUALITY_METRICS, type QualityMetric } from './metrics.js';
import { judgeVideoQualityCached, type QualityOptions } from './video.js';

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

/** What the videos of one evaluation share. */
export interface VideoTaskContext {
  judge: Judge;
  encoder: ImageEncoder;
  q: QualityOptions;
  cache: EvaluationCache | undefined;
  hashes: FileHashes;
  limits: { maxCalls?: number | undefined };
  progress: ReturnType<typeof phaseReporter>;
  /** A case's checklist for a mode and metric, once its task is done (undefined: the budget did not reach it). */
  checklist: (caseId: string, mode: PromptMode, metric: QualityMetric) => Promise<Checklist | undefined>;
}

/** What the quality axis reads of a video's response row: which video, whether it was scored, its shots. */
export type QualityVideo = Pick<ResponseRow, 'case_id' | 'model' | 'prompt_mode' | 'status' | 'shots'>;

/** One video's quality report in run `run`; undefined when the call budget did not reach it (it waits for the next run). */
export async function evaluateVideo(
  ctx: VideoTaskContext,
  c: LoadedCase,
  row: QualityVideo,
  run: number,
  video: string,
  signal: AbortSignal,
): Promise<QualityReport | undefined> {
  if (row.status !== 'scored') {
    // missing or undecodable: 0 on every metric of the case, never judged
    ctx.progress.done(`${row.model}/${row.case_id}__${row.prompt_mode}`);
    return zeroQuality(row, c, ctx.q);
  }
  const got = await Promise.all(
    checklistMetrics(c, row.prompt_mode, ctx.q).map(
      async (m) => [m, await ctx.checklist(row.case_id, row.prompt_mode, m)] as const,
    ),
  );
  // a checklist the budget did not reach: the video waits for the next run
  const checklists = new Map<QualityMetric, Checklist>();
  for (const [m, cl] of got) {
    if (!cl) return undefined;
    checklists.set(m, cl);
  }
  const judge = (run === 0 ? ctx.judge : runJudge(ctx.judge, run)).withSignal(signal, ctx.limits);
  try {
    const quality = await judgeVideoQualityCached({
      judge,
      encoder: ctx.encoder,
      c,
      mode: row.prompt_mode,
      video,
      checklists,
      shots: row.shots,
      options: ctx.q,
      cache: ctx.cache,
      run,
      hashes: ctx.hashes,
    });
    ctx.progress.done(`${row.model}/${row.case_id}__${row.prompt_mode}`);
    return quality;
  } catch (e) {
    if (e instanceof CallBudgetSpent) return undefined;
    throw e;
  }
}

/** A missing or undecodable video's quality report: every applicable metric and group 0. */
function zeroQuality(
  row: Pick<QualityVideo, 'status' | 'prompt_mode'>,
  c: LoadedCase,
  q: Pick<QualityOptions, 'fps'>,
): QualityReport {
  const reason = `the video is ${row.status === 'missing' ? 'missing' : 'not decodable'}: 0 on every metric`;
  const metrics = byMetric((m): QualityMetricReport => {
    const ap = applicability(c, row.prompt_mode, m);
    return ap.applies
      ? { status: 'scored', score: 0, reason }
      : { status: 'not_applicable', score: null, reason: ap.reason };
  });
  return {
    frames: { count: 0, fps: q.fps, effective_fps: 0, capped_by_budget: false },
    metrics,
    groups: qualityGroups(metrics),
  };
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
