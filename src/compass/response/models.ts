/**
 * `compass score`: keyframe response for whole model folders
 * (`<videos>/<model>/<case_id>__<prompt_mode>.mp4`). One row per expected video: a missing video,
 * or one that cannot be decoded, scores 0 on every metric (status `missing` / `failed`, named
 * and counted), so every model is compared on the same cases; `missing: 'skip'` instead keeps only
 * the videos every model has. A one-take video shorter than a target is scored (the keyframes it
 * cannot reach are misses). Scans
 * come from the scan cache when it holds them, so scoring again with other metric constants
 * decodes nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { runPool } from '../../concurrency/pool.js';
import { BadInputError } from '../../errors.js';
import { phaseReporter } from '../../progress.js';
import { mean } from '../../stats/mean.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases/cases.js';
import { ScanPool } from '../scan/pool.js';
import type { MissingPolicy } from '../schemas/leaderboard.js';
import {
  METRICS,
  MetricScores,
  type ResponseRow,
  type ResponseSummary,
  type SummaryCell,
} from '../schemas/response.js';
import { embedderNotice } from './paper-scale.js';

/** How leaderboards treat a missing or undecodable video (MissingPolicy): 0 on every metric, or skip its case for every model. */

import type { ScoreInput, ScoreRun } from './input.js';
import { type Outcome, type ScoreJob, scoreVideo } from './video.js';

/**
 * The videos folder before anything is read or written: a missing folder, an empty one, a requested
 * model without a folder, or no video of any requested model for these cases and modes is bad input
 * (a typo, not a model that generated nothing: scoring it would write an all-zero leaderboard).
 */
export function checkVideosFolder(
  videos: string,
  models: readonly string[],
  cases: readonly Pick<LoadedCase, 'case_id'>[],
  modes: readonly PromptMode[],
): void {
  const layout = '<model>/<case_id>__<prompt_mode>.mp4';
  if (!existsSync(videos))
    throw new BadInputError(`no such videos folder (expected ${layout})`, { file: videos });
  if (!statSync(videos).isDirectory())
    throw new BadInputError(`not a folder (--videos takes a folder of ${layout})`, { file: videos });
  const entries = readdirSync(videos)
    .filter((e) => !e.startsWith('.'))
    .sort();
  if (entries.length === 0)
    throw new BadInputError(`the videos folder is empty (expected ${layout})`, { file: videos });
  const absent = models.filter((m) => !existsSync(resolve(videos, m)));
  if (absent.length) {
    const held = entries.slice(0, 8).join(', ') + (entries.length > 8 ? ', …' : '');
    // a model's own folder given as --videos: its videos lie in it, not in model folders
    const own = entries.some((e) => /__[a-z_]+\.mp4$/i.test(e));
    const parent = own
      ? `; it holds videos itself — did you mean its parent: --videos ${dirname(resolve(videos))} --model ${basename(resolve(videos))}?`
      : '';
    throw new BadInputError(
      `no folder for model${absent.length > 1 ? 's' : ''} ${absent.join(', ')} (the folder holds: ${held}${parent})`,
      { file: videos },
    );
  }
  const any = models.some((m) =>
    cases.some((c) => modes.some((mode) => existsSync(videoPath(videos, m, c.case_id, mode)))),
  );
  if (!any && cases.length > 0)
    throw new BadInputError(
      `holds no video of ${models.join(', ')} for these ${cases.length} case(s) and mode(s) ${modes.join(', ')} (expected ${layout})`,
      { file: videos },
    );
}

export async function scoreModels(o: ScoreInput): Promise<ScoreRun> {
  // rows come model by model (`at`); the scans run case by case, so that a case's keyframes are
  // prepared once for every model's videos (keyframe-prep.ts keeps the last two sets) — unless the
  // judge segments, whose calls, and so where `maxCalls` stops, keep the rows' order
  const C = o.cases.length;
  const M = o.modes.length;
  const job = (
    model: string,
    mi: number,
    c: LoadedCase,
    ci: number,
    mode: PromptMode,
    di: number,
  ): ScoreJob => ({
    model,
    c,
    mode,
    video: videoPath(o.videos, model, c.case_id, mode),
    at: (mi * C + ci) * M + di,
  });
  const jobs = o.segment
    ? o.models.flatMap((model, mi) =>
        o.cases.flatMap((c, ci) => o.modes.map((mode, di) => job(model, mi, c, ci, mode, di))),
      )
    : o.cases.flatMap((c, ci) =>
        o.models.flatMap((model, mi) => o.modes.map((mode, di) => job(model, mi, c, ci, mode, di))),
      );
  const run: ScoreRun = {
    rows: [],
    missing: [],
    failed: [],
    cached: 0,
    scanned: 0,
    timings: { decode_embed_s: 0, pixels_s: 0 },
    skipped: [],
  };
  const progress = phaseReporter(o.onProgress, 'scan', 'videos');
  progress.start(jobs.length);
  const concurrency = Math.max(1, o.jobs ?? 1);
  // the cache lookups, the judge segmenter and the progress stay in this thread
  const pool = ScanPool.open(o.embedder, concurrency);
  // stage 2 refines the placing runs of the γ and hold ε the rows are scored with
  const scanOpts = {
    ...(o.response?.gamma !== undefined ? { gamma: o.response.gamma } : {}),
    ...(o.response?.holdEps !== undefined ? { holdEps: o.response.holdEps } : {}),
    ...o.scan,
  };
  const scanned = await runPool(
    jobs,
    (j, _i, signal) => scoreVideo(o, j, signal, { progress, pool, scanOpts, timings: run.timings }),
    { concurrency, signal: o.signal },
  ).finally(() => pool?.close());
  progress.finish();
  // in the rows' order (model by model), whatever order the scans ran and finished in; missing
  // and failed videos score 0
  const outcomes = new Array<Outcome | undefined>(jobs.length);
  scanned.results.forEach((r, i) => {
    outcomes[jobs[i]!.at] = r;
  });
  for (const r of outcomes) {
    if (!r) continue;
    if (r.kind === 'budget') {
      run.skipped.push(r.video);
      continue;
    }
    if (r.kind === 'missing') run.missing.push(r.video);
    else if (r.kind === 'failed') run.failed.push({ video: r.video, error: r.error });
    else if (r.cached) run.cached++;
    else run.scanned++;
    run.rows.push(r.row);
  }
  return run;
}

const videoKey = (r: { case_id: string; prompt_mode: string }) => `${r.case_id}__${r.prompt_mode}`;

/**
 * With `skip`, only the videos (case and prompt mode) that every model has, scored; with `zero`,
 * every row (missing and failed ones score 0).
 */
export function commonRows<R extends { model: string; case_id: string; prompt_mode: string }>(
  rows: readonly R[],
  models: readonly string[],
  policy: MissingPolicy,
  present: (r: R) => boolean,
): R[] {
  if (policy === 'zero') return [...rows];
  const have = new Map<string, Set<string>>();
  for (const r of rows)
    if (present(r)) have.set(videoKey(r), (have.get(videoKey(r)) ?? new Set()).add(r.model));
  const all = new Set([...have].filter(([, ms]) => models.every((m) => ms.has(m))).map(([k]) => k));
  return rows.filter((r) => all.has(videoKey(r)));
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

function cell(rows: readonly ResponseRow[]): SummaryCell {
  const avg = (f: (r: ResponseRow) => number) => r6(mean(rows.map(f)));
  return {
    n: rows.length,
    metrics: MetricScores.parse(Object.fromEntries(METRICS.map((m) => [m, avg((r) => r.metrics[m])]))),
    groups: {
      keyframe_fidelity: avg((r) => r.groups.keyframe_fidelity),
      temporal_organization: avg((r) => r.groups.temporal_organization),
    },
  };
}

function by(rows: readonly ResponseRow[], key: (r: ResponseRow) => string): Record<string, SummaryCell> {
  const groups = new Map<string, ResponseRow[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, cell(groups.get(k)!)]));
}

/** Means by model, overall and by keyframe count, structure, prompt mode and conditioning. */
export function summarize(
  allRows: readonly ResponseRow[],
  models: readonly string[],
  policy: MissingPolicy = 'zero',
): ResponseSummary {
  const rows = commonRows(allRows, models, policy, (r) => (r.status ?? 'scored') === 'scored');
  const embedder = allRows[0]?.embedder ?? '';
  const notice = embedderNotice(embedder);
  const out: ResponseSummary = {
    embedder,
    ...(notice ? { embedder_notice: notice } : {}),
    gamma: allRows[0]?.gamma ?? 0,
    missing: policy,
    segmenter: [...new Set(allRows.map((r) => r.segmenter ?? 'pixel'))].sort().join(', ') || 'pixel',
    models: {},
  };
  for (const m of models) {
    const mine = rows.filter((r) => r.model === m);
    const expected = allRows.filter((r) => r.model === m);
    if (!mine.length) continue;
    out.models[m] = {
      all: cell(mine),
      coverage: {
        present: expected.filter((r) => (r.status ?? 'scored') === 'scored').length,
        expected: expected.length,
      },
      by_keyframes: by(mine, (r) => String(r.n_keyframes).padStart(2, '0')),
      by_structure: by(mine, (r) => r.structure),
      by_prompt_mode: by(mine, (r) => r.prompt_mode),
      by_conditioning: by(mine, (r) => r.conditioning),
    };
  }
  return out;
}
