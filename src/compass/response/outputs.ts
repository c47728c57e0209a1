/**
 * What `compass score` writes to its folder: `response.jsonl` (one row per video) and
 * `summary.json` (means by model, keyframe count, structure, prompt mode, conditioning) —
 * deterministic — and `run.json` (what varies: wall time, scans made and reused, failures).
 */
import { join } from 'node:path';
import { writeJsonFile, writeJsonl } from '../../store/jsonl.js';
import type { FolderFile } from '../../store/out-folder.js';
import type { MissingPolicy } from '../schemas/leaderboard.js';
import { ResponseRow, ResponseRunFile, ResponseSummary } from '../schemas/response.js';
import type { ScoreRun } from './input.js';
import { summarize } from './models.js';

/** What `writeResponseRun` writes (the names it uses; `--help` lists them). */
export const RESPONSE_FILES = {
  rows: {
    name: 'response.jsonl',
    what: 'one row per video: status, the six metrics, per keyframe t(k), cos, PSNR, SSIM',
  },
  summary: {
    name: 'summary.json',
    what: 'means by model, overall and by keyframe count, structure, prompt mode, conditioning (deterministic)',
  },
  run: { name: 'run.json', what: 'what varies: wall time, scans made and reused, missing and failed videos' },
} as const satisfies Record<string, FolderFile>;

/** The files `writeResponseRun` writes into its folder. */
export const RESPONSE_RUN_FILES: readonly string[] = Object.values(RESPONSE_FILES).map((f) => f.name);

export async function writeResponseRun(
  out: string,
  run: ScoreRun,
  models: readonly string[],
  meta: { embedder: string; wall_s: number; missing?: MissingPolicy },
): Promise<ResponseSummary> {
  const summary = summarize(run.rows, models, meta.missing ?? 'zero');
  await writeJsonl(join(out, RESPONSE_FILES.rows.name), ResponseRow, run.rows);
  await writeJsonFile(join(out, RESPONSE_FILES.summary.name), ResponseSummary, summary);
  const { scanned, cached, timings, missing, failed } = run;
  const runFile: ResponseRunFile = {
    embedder: meta.embedder,
    wall_s: meta.wall_s,
    scanned,
    cached,
    timings,
    missing,
    failed,
  };
  await writeJsonFile(join(out, RESPONSE_FILES.run.name), ResponseRunFile, runFile);
  return summary;
}
