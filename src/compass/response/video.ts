/**
 * `compass score` for one video (models.ts runs these in a pool): a missing video scores 0; else its
 * scan (from the scan cache or made now), its shots (the judge segmenter's, when it segments) and
 * its keyframe response; a video that is bad input (undecodable, too long) is a failed row scoring 0.
 */
import { existsSync } from 'node:fs';
import { BadInputError } from '../../errors.js';
import { CallBudgetSpent } from '../../judge/question.js';
import { checkMaxDuration, refuseLonger } from '../../media/duration.js';
import type { phaseReporter } from '../../progress.js';
import type { LoadedCase, PromptMode } from '../cases/cases.js';
import { cachedScan } from '../scan/cache.js';
import type { ScanOptions } from '../scan/options.js';
import type { ScanPool } from '../scan/pool.js';
import { scanVideo } from '../scan/scan.js';
import type { SegmentFn } from '../scan/segmenter.js';
import type { VideoStatus } from '../schemas/common.js';
import type { ResponseRow } from '../schemas/response.js';
import type { ScanTimings } from '../schemas/scan.js';
import type { ScoreInput } from './input.js';
import { scoreResponse, zeroResponse } from './report.js';

/** One video to score: its model, case, prompt mode and file, and its place among the rows (`at`). */
export interface ScoreJob {
  model: string;
  c: LoadedCase;
  mode: PromptMode;
  video: string;
  at: number;
}

export type Outcome =
  | { kind: 'row'; row: ResponseRow; cached: boolean }
  | { kind: 'missing'; video: string; row: ResponseRow }
  | { kind: 'failed'; video: string; error: string; row: ResponseRow }
  | { kind: 'budget'; video: string };

/** What the videos of one run share: its progress, its scan workers, its scan options and timings. */
export interface ScoreContext {
  progress: ReturnType<typeof phaseReporter>;
  pool: ScanPool | undefined;
  scanOpts: Partial<ScanOptions>;
  timings: ScanTimings;
}

export async function scoreVideo(
  o: ScoreInput,
  j: ScoreJob,
  signal: AbortSignal,
  ctx: ScoreContext,
): Promise<Outcome> {
  const label = `${j.model}/${j.c.case_id}__${j.mode}`;
  const meta = {
    model: j.model,
    prompt_mode: j.mode,
    structure: j.c.structure,
    n_keyframes: j.c.keyframes.length,
    conditioning: j.c.conditioning,
  };
  const zero = (status: VideoStatus): ResponseRow => ({
    ...meta,
    status,
    segmenter: o.segment ? 'judge' : 'pixel',
    ...zeroResponse(j.c, o.embedder, o.response),
  });
  if (!existsSync(j.video)) {
    ctx.progress.done(label);
    return { kind: 'missing', video: j.video, row: zero('missing') };
  }
  try {
    // the header check before a scan that runs; a cached scan is held to the limit by the
    // duration it recorded (a warm run starts no ffprobe)
    const limit = o.maxDuration;
    const { scan, cached } = await cachedScan(
      { video: j.video, keyframes: j.c.keyframes },
      o.embedder,
      ctx.scanOpts,
      o.shots ?? {},
      o.cache,
      ctx.timings,
      // in this thread too, an abort kills the decoder of the video being scanned
      ctx.pool?.scanFn(signal) ?? ((i, e, so, sh, t) => scanVideo(i, e, so, sh, t, signal)),
      o.hashes,
      limit === undefined ? undefined : () => checkMaxDuration(j.video, limit),
    );
    if (cached && limit !== undefined && Number.isFinite(limit))
      refuseLonger(j.video, scan.video.duration_s, limit);
    // the segmenter's calls stop with the pool (a failure elsewhere, Ctrl-C) and count
    // against the run's budget; a video the budget did not reach waits for the next run
    let seg: Awaited<ReturnType<SegmentFn>> | undefined;
    try {
      seg = o.segment
        ? await o.segment(j.c, j.video, scan.shots, signal, { maxCalls: o.maxCalls }, o.hashes)
        : undefined;
    } catch (e) {
      if (!(e instanceof CallBudgetSpent)) throw e;
      ctx.progress.done(label);
      return { kind: 'budget', video: j.video };
    }
    const report = scoreResponse(j.c, seg ? { ...scan, shots: seg.shots } : scan, o.embedder, o.response);
    const row: ResponseRow = {
      ...meta,
      status: 'scored',
      segmenter: seg?.segmenter ?? 'pixel',
      ...(seg?.assignments ? { judge_assignments: seg.assignments } : {}),
      ...report,
    };
    if (cached) ctx.progress.cached(label);
    else ctx.progress.done(label);
    return { kind: 'row', row, cached };
  } catch (e) {
    // only bad input makes a failed (zero) row: a cancelled run, a spent call budget or a
    // backend that is down (the judge segmenter's) stop the run instead of scoring 0
    if (!(e instanceof BadInputError)) throw e;
    ctx.progress.failed(label, e.message);
    return { kind: 'failed', video: j.video, error: e.message, row: zero('failed') };
  }
}
