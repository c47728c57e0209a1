/**
 * What `compass evaluate` writes to its folder: `checklists.jsonl` (the items every model was
 * judged against), `response.jsonl` + `summary.json` (keyframe response), `evaluation.jsonl` (one
 * row per video and run: response groups, every quality metric with its status, items, evidence
 * and dropped counts, the Overall), `leaderboard.json` — all deterministic — and `run.json` (calls,
 * cache hits, tokens, wall time, skipped videos).
 */
import { join } from 'node:path';
import type { JudgeStats } from '../../judge/types.js';
import { writeJsonFile, writeJsonl } from '../../store/jsonl.js';
import { RESPONSE_RUN_FILES, writeResponseRun } from '../outputs.js';
import { Checklist, EvaluationRunFile, Leaderboard, VideoEvaluation } from '../results.js';
import type { EvaluateResult } from './evaluate.js';

/** The files `writeEvaluationRun` writes into its folder. */
export const EVALUATION_RUN_FILES = [
  ...RESPONSE_RUN_FILES,
  'checklists.jsonl',
  'evaluation.jsonl',
  'leaderboard.json',
] as const;

export async function writeEvaluationRun(
  out: string,
  r: EvaluateResult,
  lb: Leaderboard,
  models: readonly string[],
  meta: { wall_s: number; judge: JudgeStats },
): Promise<void> {
  await writeResponseRun(out, r.response, models, {
    embedder: lb.embedder,
    wall_s: meta.wall_s,
    missing: lb.missing,
  });
  await writeJsonl(join(out, 'checklists.jsonl'), Checklist, r.checklists);
  await writeJsonl(join(out, 'evaluation.jsonl'), VideoEvaluation, r.videos);
  await writeJsonFile(join(out, 'leaderboard.json'), Leaderboard, lb);
  const { scanned, cached, missing, failed } = r.response;
  const runFile: EvaluationRunFile = {
    wall_s: meta.wall_s,
    judge: lb.judge,
    judge_stats: { ...meta.judge },
    scans: { scanned, cached },
    missing,
    failed,
    skipped: r.skipped,
  };
  await writeJsonFile(join(out, 'run.json'), EvaluationRunFile, runFile);
}
