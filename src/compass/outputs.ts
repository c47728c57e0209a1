/**
 * What `compass score` writes to its folder: `response.jsonl` (one row per video) and
 * `summary.json` (means by model, keyframe count, structure, prompt mode, conditioning) —
 * deterministic — and `run.json` (what varies: wall time, scans made and reused, failures).
 */
import { join } from 'node:path';
import { writeJsonFile, writeJsonl } from '../store/jsonl.js';
import { ResponseRow, ResponseRunFile, ResponseSummary } from './results.js';
import { type MissingPolicy, type ScoreRun, summarize } from './score.js';

/** The files `writeResponseRun` writes into its folder. */
export const RESPONSE_RUN_FILES = ['response.jsonl', 'summary.json', 'run.json'] as const;

export async function writeResponseRun(
  out: string,
  run: ScoreRun,
  models: readonly string[],
  meta: { embedder: string; wall_s: number; missing?: MissingPolicy },
): Promise<ResponseSummary> {
  const summary = summarize(run.rows, models, meta.missing ?? 'zero');
  await writeJsonl(join(out, 'response.jsonl'), ResponseRow, run.rows);
  await writeJsonFile(join(out, 'summary.json'), ResponseSummary, summary);
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
  await writeJsonFile(join(out, 'run.json'), ResponseRunFile, runFile);
  return summary;
}
