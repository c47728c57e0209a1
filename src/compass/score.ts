/**
 * `compass score`: keyframe response for whole model folders
 * (`<videos>/<model>/<case_id>__<prompt_mode>.mp4`). One row per video; a missing video is
 * reported and skipped, a video that fails is named with its error, the rest are scored. Scans
 * come from the scan cache when it holds them, so scoring again with other metric constants
 * decodes nothing.
 */
import { existsSync } from 'node:fs';
import { runPool } from '../concurrency/pool.js';
import type { Embedder } from '../embed/embedder.js';
import { BadInputError, KfbenchError } from '../errors.js';
import type { ShotOptions } from '../media/shots.js';
import { type LoadedCase, type PromptMode, videoPath } from './cases.js';
import type { ResponseOptions, ScanOptions } from './response/options.js';
import { METRICS, type MetricScores, type ResponseReport, scoreResponse } from './response/report.js';
import type { ScanTimings } from './response/scan.js';
import { cachedScan, type ScanCache } from './response/scan-cache.js';

export interface ResponseRow extends ResponseReport {
  model: string;
  prompt_mode: PromptMode;
  structure: LoadedCase['structure'];
  n_keyframes: number;
  conditioning: LoadedCase['conditioning'];
}

export interface ScoreRun {
  rows: ResponseRow[];
  missing: string[];
  failed: { video: string; error: string }[];
  cached: number;
  scanned: number;
  timings: ScanTimings;
}

export interface ScoreInput {
  cases: readonly LoadedCase[];
  videos: string;
  models: readonly string[];
  modes: readonly PromptMode[];
  embedder: Embedder;
  response?: Partial<ResponseOptions>;
  scan?: Partial<ScanOptions>;
  shots?: Partial<ShotOptions>;
  cache?: ScanCache | undefined;
  /** Videos scanned at once (`--jobs`, 1 by default); rows keep the sequential order. */
  jobs?: number;
  signal?: AbortSignal | undefined;
  onVideo?: (done: number, total: number, label: string) => void;
}

type Outcome =
  | { kind: 'row'; row: ResponseRow; cached: boolean }
  | { kind: 'missing'; video: string }
  | { kind: 'failed'; video: string; error: string };

export async function scoreModels(o: ScoreInput): Promise<ScoreRun> {
  const jobs = o.models.flatMap((model) =>
    o.cases.flatMap((c) =>
      o.modes.map((mode) => ({ model, c, mode, video: videoPath(o.videos, model, c.case_id, mode) })),
    ),
  );
  const run: ScoreRun = {
    rows: [],
    missing: [],
    failed: [],
    cached: 0,
    scanned: 0,
    timings: { decode_embed_s: 0, pixels_s: 0 },
  };
  let done = 0;
  const scanned = await runPool(
    jobs,
    async (j): Promise<Outcome> => {
      const label = `${j.model}/${j.c.case_id}__${j.mode}`;
      try {
        if (!existsSync(j.video)) return { kind: 'missing', video: j.video };
        try {
          const { scan, cached } = await cachedScan(
            { video: j.video, keyframes: j.c.keyframes },
            o.embedder,
            o.scan ?? {},
            o.shots ?? {},
            o.cache,
            run.timings,
          );
          if (j.c.structure === 'one_take') checkTargets(j.c, scan.video.duration_s, j.video);
          const report = scoreResponse(j.c, scan, o.embedder, o.response);
          const row: ResponseRow = {
            model: j.model,
            prompt_mode: j.mode,
            structure: j.c.structure,
            n_keyframes: j.c.keyframes.length,
            conditioning: j.c.conditioning,
            ...report,
          };
          return { kind: 'row', row, cached };
        } catch (e) {
          if (!(e instanceof KfbenchError)) throw e;
          return { kind: 'failed', video: j.video, error: e.message };
        }
      } finally {
        o.onVideo?.(++done, jobs.length, label);
      }
    },
    { concurrency: Math.max(1, o.jobs ?? 1), signal: o.signal },
  );
  // in job order, whatever order the scans finished in
  for (const r of scanned.results) {
    if (!r) continue;
    if (r.kind === 'missing') run.missing.push(r.video);
    else if (r.kind === 'failed') run.failed.push({ video: r.video, error: r.error });
    else {
      if (r.cached) run.cached++;
      else run.scanned++;
      run.rows.push(r.row);
    }
  }
  return run;
}

/** A one-take video must last past every target time. */
export function checkTargets(c: LoadedCase, duration_s: number, video: string): void {
  const last = c.keyframes[c.keyframes.length - 1]?.t_target_s ?? 0;
  if (duration_s <= last) {
    throw new BadInputError(
      `lasts ${duration_s.toFixed(3)} s, shorter than case ${c.case_id}'s last target (${c.keyframes[c.keyframes.length - 1]!.kf_id} at ${last} s)`,
      { file: video },
    );
  }
}

export interface SummaryCell {
  n: number;
  metrics: MetricScores;
  groups: { keyframe_fidelity: number; temporal_organization: number };
}

export interface ResponseSummary {
  embedder: string;
  gamma: number;
  models: Record<
    string,
    {
      all: SummaryCell;
      by_keyframes: Record<string, SummaryCell>;
      by_structure: Record<string, SummaryCell>;
      by_prompt_mode: Record<string, SummaryCell>;
      by_conditioning: Record<string, SummaryCell>;
    }
  >;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

function cell(rows: readonly ResponseRow[]): SummaryCell {
  const mean = (f: (r: ResponseRow) => number) => r6(rows.reduce((s, r) => s + f(r), 0) / rows.length);
  return {
    n: rows.length,
    metrics: Object.fromEntries(METRICS.map((m) => [m, mean((r) => r.metrics[m])])) as MetricScores,
    groups: {
      keyframe_fidelity: mean((r) => r.groups.keyframe_fidelity),
      temporal_organization: mean((r) => r.groups.temporal_organization),
    },
  };
}

function by(rows: readonly ResponseRow[], key: (r: ResponseRow) => string): Record<string, SummaryCell> {
  const groups = new Map<string, ResponseRow[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, cell(groups.get(k)!)]));
}

/** Means by model, overall and by keyframe count, structure, prompt mode and conditioning. */
export function summarize(rows: readonly ResponseRow[], models: readonly string[]): ResponseSummary {
  const out: ResponseSummary = { embedder: rows[0]?.embedder ?? '', gamma: rows[0]?.gamma ?? 0, models: {} };
  for (const m of models) {
    const mine = rows.filter((r) => r.model === m);
    if (!mine.length) continue;
    out.models[m] = {
      all: cell(mine),
      by_keyframes: by(mine, (r) => String(r.n_keyframes).padStart(2, '0')),
      by_structure: by(mine, (r) => r.structure),
      by_prompt_mode: by(mine, (r) => r.prompt_mode),
      by_conditioning: by(mine, (r) => r.conditioning),
    };
  }
  return out;
}
