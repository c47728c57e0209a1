/**
 * Sharded `compass score` / `compass evaluate` (`--shard k/n`, `--case-ids`): the cases a run takes,
 * what a folder records of its inputs and settings (`settings.json`), and `kfbench merge compass`:
 * the shards' rows in the order an unsharded run writes them (model, case as in cases.jsonl, prompt
 * mode; runs first for the quality judging), summarised again — the same summary.json and
 * leaderboard.json, byte for byte.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { BadInputError, InternalError } from '../../errors.js';
import { emptyStats, type JudgeStats } from '../../judge/types.js';
import { readJsonFile } from '../../store/jsonl.js';
import {
  checkRowsRead,
  checkShards,
  hashInputs,
  type OutputsRecord,
  readShardFolders,
  readShardRows,
  SETTINGS_FILE,
  type Shard,
  type ShardFolder,
  type ShardRecord,
  selectItems,
  verifyShardOutputs,
} from '../../store/shards.js';
import { type LoadedCase, type PromptMode, videoPath } from '../cases/cases.js';
import { KEYFRAME_CONTROL_READINGS, VIDEO_QUALITY_READINGS } from '../overall/aggregate.js';
import { JOINT_CASES_READINGS, leaderboard } from '../overall/leaderboard.js';
import type { ScoreRun } from '../response/input.js';
import type { EvaluateResult } from '../run/evaluate.js';
import { EvaluationRunFile, VideoEvaluation } from '../schemas/evaluation.js';
import type { MissingPolicy } from '../schemas/leaderboard.js';
import { BoardTable, type Leaderboard } from '../schemas/leaderboard.js';
import { Checklist } from '../schemas/quality.js';
import { ResponseRow, ResponseRunFile } from '../schemas/response.js';

/** The cases of a list (`--case-ids`) and of a shard, in the order of the cases file. */
export function selectCases(
  cases: readonly LoadedCase[],
  o: { caseIds?: readonly string[] | undefined; shard?: Shard | undefined },
): LoadedCase[] {
  const keep = new Set(
    selectItems(
      cases.map((c) => c.case_id),
      { only: o.caseIds, shard: o.shard, what: 'case id' },
    ),
  );
  return cases.filter((c) => keep.has(c.case_id));
}

/** settings.json of a `compass score` / `compass evaluate` folder (every run, sharded or not). */
export async function compassShardRecord(o: {
  kind: 'compass score' | 'compass evaluate';
  casesFile: string;
  /** The run's cases (of --case-ids), and this shard's. */
  all: readonly LoadedCase[];
  selected: readonly LoadedCase[];
  shard: Shard | undefined;
  complete: boolean;
  /** videos, models, modes, missing, embedder, metric options, judge … (compared as a whole). */
  settings: { videos: string; models: string[]; modes: PromptMode[]; [k: string]: unknown };
}): Promise<ShardRecord> {
  return {
    kind: o.kind,
    inputs: await hashInputs({ cases: o.casesFile }),
    settings: o.settings,
    all: o.all.map((c) => c.case_id),
    items: o.selected.map((c) => c.case_id),
    shard: o.shard ?? null,
    complete: o.complete,
  };
}

const Settings = z.looseObject({
  videos: z.string(),
  models: z.array(z.string()),
  modes: z.array(z.string()),
  missing: z.enum(['zero', 'skip']),
  embedder: z.string(),
  runs: z.number().int().optional(),
  segmenter: z.string().optional(),
  /** `compass evaluate --rank-by` (absent: the default, the joint table whenever there is one). */
  rank_by: BoardTable.optional(),
  /** `compass evaluate --keyframe-control` (absent: combined). */
  keyframe_control: z.enum(KEYFRAME_CONTROL_READINGS).optional(),
  /** `compass evaluate --video-quality` and `--joint-cases` (absent: groups, answered). */
  video_quality: z.enum(VIDEO_QUALITY_READINGS).optional(),
  joint_cases: z.enum(JOINT_CASES_READINGS).optional(),
  judge: z.looseObject({ name: z.string() }).optional(),
});

/** run.json of a shard: `compass score`'s or `compass evaluate`'s. */
const ShardRunFile = z.union([ResponseRunFile, EvaluationRunFile]);

export interface MergedCompass {
  kind: 'compass score' | 'compass evaluate';
  record: ShardRecord;
  models: string[];
  missing: MissingPolicy;
  embedder: string;
  response: ScoreRun;
  /** compass evaluate only: the quality judging and the leaderboard. */
  evaluation?: { result: EvaluateResult; leaderboard: Leaderboard; judge: JudgeStats };
}

function isStat(stats: JudgeStats, k: string): k is keyof JudgeStats {
  return Object.hasOwn(stats, k);
}

/** Each shard's rows and run record, read in shard order (its files checked against outputs.json). */
async function readShardFiles(
  folders: readonly ShardFolder[],
  recs: readonly OutputsRecord[],
  kind: MergedCompass['kind'],
) {
  const rows: ResponseRow[] = [];
  const videos: VideoEvaluation[] = [];
  const checklists: Checklist[] = [];
  const response: ScoreRun = {
    rows,
    missing: [],
    failed: [],
    cached: 0,
    scanned: 0,
    timings: { decode_embed_s: 0, pixels_s: 0 },
    skipped: [],
  };
  const judge = emptyStats();
  for (const [i, f] of folders.entries()) {
    // its rows: of the cases it holds, as many of each as it wrote
    const rec = recs[i];
    if (!rec) throw new InternalError(`merge: shard ${f.dir} has no verified outputs`);
    const mine = await readShardRows(join(f.dir, 'response.jsonl'), ResponseRow);
    checkRowsRead(f, rec, 'response.jsonl', mine);
    rows.push(...mine);
    const run = await readJsonFile(join(f.dir, 'run.json'), ShardRunFile);
    response.failed.push(...run.failed.map((x) => ({ video: x.video, error: x.error })));
    if ('scans' in run) {
      response.scanned += run.scans.scanned;
      response.cached += run.scans.cached;
      for (const [k, v] of Object.entries(run.judge_stats)) if (isStat(judge, k)) judge[k] += v ?? 0;
    } else {
      response.scanned += run.scanned;
      response.cached += run.cached;
      response.timings.decode_embed_s += run.timings.decode_embed_s;
      response.timings.pixels_s += run.timings.pixels_s;
    }
    if (kind === 'compass evaluate') {
      const v = await readShardRows(join(f.dir, 'evaluation.jsonl'), VideoEvaluation);
      const c = await readShardRows(join(f.dir, 'checklists.jsonl'), Checklist);
      checkRowsRead(f, rec, 'evaluation.jsonl', v);
      checkRowsRead(f, rec, 'checklists.jsonl', c);
      videos.push(...v);
      checklists.push(...c);
    }
  }
  return { rows, videos, checklists, response, judge };
}

/** Merge compass score or compass evaluate shard folders (see checkShards for what is refused). */
export async function mergeCompass(dirs: readonly string[]): Promise<MergedCompass> {
  const folders = await readShardFolders(dirs);
  const head = folders[0];
  if (!head) throw new InternalError('merge: readShardFolders gave no folder'); // it refuses none given
  const recorded = head.record.kind;
  if (recorded === 'hero evaluate')
    throw new BadInputError(`${head.dir} holds a hero evaluate result: use kfbench merge hero`);
  if (recorded !== 'compass score' && recorded !== 'compass evaluate')
    throw new BadInputError(`${head.dir} holds a ${recorded} result, not a Compass one`);
  const kind = recorded;
  const rowFiles = (k: string) =>
    k === 'compass evaluate'
      ? ['response.jsonl', 'evaluation.jsonl', 'checklists.jsonl']
      : ['response.jsonl'];
  // first: each shard's files must be as it wrote them (outputs.json), before anything is compared
  // (the files of its own kind: a shard of another kind is then named by checkShards)
  const recs = [];
  for (const f of folders)
    recs.push(await verifyShardOutputs(f, [SETTINGS_FILE, 'run.json', ...rowFiles(f.record.kind)]));
  const all = checkShards(folders, kind);
  const first = head.record;
  const parsed = Settings.safeParse(first.settings);
  if (!parsed.success)
    throw new BadInputError(`${head.dir}/settings.json does not record a Compass run's settings`);
  const s = parsed.data;
  const rank = (r: { model: string; case_id: string; prompt_mode: string }) =>
    (s.models.indexOf(r.model) * all.length + all.indexOf(r.case_id)) * s.modes.length +
    s.modes.indexOf(r.prompt_mode);
  const { rows, videos, checklists, response, judge } = await readShardFiles(folders, recs, kind);
  const stray = rows.find((r) => rank(r) < 0 || !all.includes(r.case_id));
  if (stray)
    throw new BadInputError(
      `a row of model ${stray.model}, case ${stray.case_id}, mode ${stray.prompt_mode} is not of the recorded inputs`,
    );
  rows.sort((a, b) => rank(a) - rank(b));
  // missing videos in row order, as an unsharded run lists them
  for (const r of rows)
    if (r.status === 'missing') response.missing.push(videoPath(s.videos, r.model, r.case_id, r.prompt_mode));
  const failedOrder = new Map(
    rows.map((r, i) => [videoPath(s.videos, r.model, r.case_id, r.prompt_mode), i]),
  );
  response.failed.sort((a, b) => (failedOrder.get(a.video) ?? 0) - (failedOrder.get(b.video) ?? 0));
  const merged: MergedCompass = {
    kind,
    record: { ...first, items: all, shard: null, complete: true },
    models: s.models,
    missing: s.missing,
    embedder: s.embedder,
    response,
  };
  if (kind === 'compass evaluate') {
    videos.sort((a, b) => a.run - b.run || rank(a) - rank(b));
    const modeRank = (m: string) => s.modes.indexOf(m);
    checklists.sort(
      (a, b) =>
        all.indexOf(a.case_id) - all.indexOf(b.case_id) || modeRank(a.prompt_mode) - modeRank(b.prompt_mode),
    );
    const result: EvaluateResult = { response, checklists, videos, skipped: [] };
    merged.evaluation = {
      result,
      leaderboard: leaderboard(
        videos,
        s.models,
        {
          judge: s.judge?.name ?? '',
          embedder: s.embedder,
          runs: s.runs ?? 1,
          ...(s.segmenter !== undefined ? { segmenter: s.segmenter } : {}),
          ...(s.keyframe_control !== undefined ? { keyframeControl: s.keyframe_control } : {}),
          ...(s.video_quality !== undefined ? { videoQuality: s.video_quality } : {}),
          ...(s.joint_cases !== undefined ? { jointCases: s.joint_cases } : {}),
        },
        s.missing,
        checklists,
        s.rank_by,
      ),
      judge,
    };
  }
  return merged;
}
