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
import type { FolderFile } from '../../store/out-folder.js';
import { RESPONSE_FILES, writeResponseRun } from '../response/outputs.js';
import { EvaluationRunFile, VideoEvaluation } from '../schemas/evaluation.js';
import { Leaderboard } from '../schemas/leaderboard.js';
import { Checklist } from '../schemas/quality.js';
import type { EvaluateResult } from './evaluate.js';

/** What `writeEvaluationRun` writes (the names it uses; `--help` lists them). */
export const EVALUATION_FILES = {
  rows: RESPONSE_FILES.rows,
  summary: RESPONSE_FILES.summary,
  checklists: { name: 'checklists.jsonl', what: 'the checklist items every model was judged against' },
  evaluation: {
    name: 'evaluation.jsonl',
    what: 'one row per video and run: response groups, each quality metric with status, items and evidence, the Overall',
  },
  leaderboard: {
    name: 'leaderboard.json',
    what: 'Overall and the six groups per model, overall and by factor',
  },
  run: { name: 'run.json', what: 'judge calls, cache hits, tokens, wall time, skipped videos' },
} as const satisfies Record<string, FolderFile>;

/** The files `writeEvaluationRun` writes into its folder. */
export const EVALUATION_RUN_FILES: readonly string[] = Object.values(EVALUATION_FILES).map((f) => f.name);

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
  await writeJsonl(join(out, EVALUATION_FILES.checklists.name), Checklist, r.checklists);
  await writeJsonl(join(out, EVALUATION_FILES.evaluation.name), VideoEvaluation, r.videos);
  await writeJsonFile(join(out, EVALUATION_FILES.leaderboard.name), Leaderboard, lb);
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
  await writeJsonFile(join(out, EVALUATION_FILES.run.name), EvaluationRunFile, runFile);
}
