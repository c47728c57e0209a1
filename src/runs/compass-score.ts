/**
 * `compass score` and `compass sensitivity` as one call each: the cases taken, the embedder, judge
 * (with the judge segmenter) and scan cache opened and closed, the models scored, and the results
 * written — a score folder whole or not at all.
 */
import { join, resolve } from 'node:path';
import type { LoadedCase } from '../compass/cases/cases.js';
import { evaluationCacheIn } from '../compass/quality/eval-cache.js';
import { judgeSegmenter } from '../compass/quality/segment.js';
import type { ScoreRun } from '../compass/response/input.js';
import { scoreModels } from '../compass/response/models.js';
import type { ResponseOptions } from '../compass/response/options.js';
import { RESPONSE_RUN_FILES, writeResponseRun } from '../compass/response/outputs.js';
import { scoreResponse } from '../compass/response/report.js';
import {
  type SensitivityGrid,
  type SensitivityResult,
  sensitivity,
} from '../compass/response/sensitivity.js';
import { type CompassRunInput, compassReads, compassRunRecord, runCases } from '../compass/run/run.js';
import { cachedScan } from '../compass/scan/cache.js';
import type { ScanOptions } from '../compass/scan/options.js';
import type { ResponseReport, ResponseSummary } from '../compass/schemas/response.js';
import { defined } from '../defined.js';
import type { OnnxOptions } from '../embed/onnx-options.js';
import { checkMaxDuration } from '../media/duration.js';
import { probe } from '../media/probe.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { type FolderFile, writeOutputFolder } from '../store/out-folder.js';
import { outputFiles, refuseOverlap } from '../store/path-overlap.js';
import { OUTPUTS_FILE, SETTINGS_FILE, writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import { compassToolSettings, withTools } from './tools.js';

/**
 * The scan decoder's threads of `compass score`, `evaluate` and the demo (`--decode-threads`' default):
 * one. A scan's decoder outruns the embedder and the pixel scores it feeds, so more threads mostly
 * wait on each other (issue 57 item 9: 32 mini videos scored in 19.6 instead of 23.2 CPU-s, 67k
 * instead of 73k voluntary context switches); `--decode-threads 0` gives ffmpeg's own choice.
 */
export const SCORE_DECODE_THREADS = 1;

export interface CompassScoreInput extends CompassRunInput {
  /** With `segmenter: 'judge'`: make at most this many judge calls (the rest is `skipped`). */
  maxCalls?: number | undefined;
}

async function scoreFolder(o: CompassScoreInput) {
  const { all, cases } = await runCases(o);
  return withTools(compassToolSettings(o, { judgeProgress: false }), async (tools) => {
    const { judge, scanCache: cache } = tools;
    const embedder = tools.needEmbedder();
    const t0 = Date.now();
    const run = await scoreModels(
      defined({
        cases,
        videos: o.videos,
        models: o.models,
        modes: o.modes,
        embedder,
        response: o.response,
        scan: o.scan,
        cache,
        ...(judge
          ? { segment: judgeSegmenter(judge.judge, judge.encoder, probe, evaluationCacheIn(judge.cache)) }
          : {}),
        jobs: o.jobs,
        maxDuration: o.maxDuration_s,
        ...(o.maxCalls !== undefined ? { maxCalls: o.maxCalls } : {}),
        signal: o.signal,
        onProgress: o.onProgress,
      }),
    );
    const wall_s = (Date.now() - t0) / 1000;
    const record = await compassRunRecord(o, {
      kind: 'compass score',
      all,
      cases,
      complete: run.skipped.length === 0,
      embedder: embedder.id,
      judge,
    });
    return { run, wall_s, embedder: embedder.id, record };
  });
}

export interface CompassScoreResult {
  run: ScoreRun;
  summary: ResponseSummary;
}

/**
 * `compass score`: the keyframe response of whole model folders, written to `out` (response.jsonl,
 * summary.json, run.json, settings.json, outputs.json) beside nothing else: the folder is staged
 * and moved into place, so a failure leaves `out` as it was.
 */
export async function scoreCompass(o: CompassScoreInput & { out: string }): Promise<CompassScoreResult> {
  const reads = compassReads(o);
  refuseOverlap({ reads, writes: outputFiles(o.out, [...RESPONSE_RUN_FILES, SETTINGS_FILE, OUTPUTS_FILE]) });
  const { run, wall_s, embedder, record } = await scoreFolder(o);
  const summary = await writeOutputFolder(
    resolve(o.out),
    async (stage) => {
      const sum = await writeResponseRun(stage, run, o.models, { embedder, wall_s, missing: o.missing });
      await writeShardRecord(stage, record);
      await writeOutputsRecord(stage, 'case_id');
      return sum;
    },
    { reads },
  );
  return { run, summary };
}

/** What `compass sensitivity` writes into its folder (`--help` lists it). */
export const SENSITIVITY_FILE = {
  name: 'sensitivity.json',
  what: 'mean KFS per model at each grid point, its largest change and the lowest Spearman ρ of the ranking',
} as const satisfies FolderFile;

/**
 * `compass sensitivity`: the folders scored once, then the pixel-score constants of `grid` varied
 * over the scored rows; the result is written to `out`/sensitivity.json.
 */
export async function compassSensitivity(
  o: CompassRunInput & { out: string; grid: SensitivityGrid },
): Promise<{ run: ScoreRun; result: SensitivityResult }> {
  refuseOverlap({ reads: compassReads(o), writes: outputFiles(o.out, ['sensitivity.json']) });
  const { run } = await scoreFolder(o);
  const result = sensitivity(
    run.rows.filter((x) => x.status === 'scored'),
    o.grid,
    o.response,
  );
  await writeFileAtomic(join(resolve(o.out), SENSITIVITY_FILE.name), `${JSON.stringify(result, null, 2)}\n`);
  return { run, result };
}

/**
 * `compass response`: the six keyframe-response metrics of one video for one case (pixel
 * segmenter, no scan cache). A video past `maxDuration_s` is refused before anything decodes it
 * or an embedder loads.
 */
export async function scoreVideoResponse(o: {
  case: LoadedCase;
  video: string;
  embedder: string;
  embedderOptions?: OnnxOptions | undefined;
  response: ResponseOptions;
  scan: Partial<ScanOptions>;
  maxDuration_s: number;
}): Promise<ResponseReport> {
  await checkMaxDuration(o.video, o.maxDuration_s);
  return withTools({ embedder: { spec: o.embedder, options: o.embedderOptions } }, async (tools) => {
    const embedder = tools.needEmbedder();
    const keyframes = { video: o.video, keyframes: o.case.keyframes };
    const { scan } = await cachedScan(keyframes, embedder, o.scan, {}, undefined);
    return scoreResponse(o.case, scan, embedder, o.response);
  });
}
