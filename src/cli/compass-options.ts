/** Flags shared by the Compass commands, and their parsing (one place for each). */
import { resolve } from 'node:path';
import {
  type LoadedCase,
  loadOneCase,
  PROMPT_MODES,
  type PromptMode,
  videoPath,
} from '../compass/cases/cases.js';
import { likelyIntended, modesWithVideos } from '../compass/cases/video-folder.js';
import type { RankBy } from '../compass/overall/leaderboard.js';
import type { CompassRunInput } from '../compass/run/run.js';
import { SEGMENTERS, type SegmenterKind } from '../compass/scan/segmenter.js';
import type { MissingPolicy } from '../compass/schemas/leaderboard.js';
import { BOARD_TABLES } from '../compass/schemas/leaderboard.js';
import { defined } from '../defined.js';
import { PartialError, UsageError } from '../errors.js';
import {
  type MetricFlags,
  maxDuration,
  metricFlagSpecs,
  responseOptions,
  scanOptions,
} from './compass-metric-flags.js';
import { DEPRECATED_CACHE_FLAG_SPECS, SCAN_CACHE_FLAG_SPECS, scanCacheFile } from './compass-scan-cache.js';
import { onnxFlags } from './embed.js';
import { type FlagValues, flagSpecs } from './flags.js';
import { oneOf, parseNumberFlag } from './output.js';
import { parseShard } from './shard-flag.js';

export function parseModes(v: string): PromptMode[] {
  return v.split(',').map((s) => {
    // one word of the list at a time, with the nearest valid one when it is mistyped
    return oneOf('--modes', s.trim(), PROMPT_MODES);
  });
}

/** `--case-ids` and `--shard k/n` of score and evaluate (see kfbench merge compass). */
export const SHARD_FLAG_SPECS = flagSpecs({
  caseIds: {
    flags: '--case-ids <ids...>',
    description: 'only these cases (a merge then needs the others from other folders)',
  },
  shard: {
    flags: '--shard <k/n>',
    description: 'a deterministic k-th of n shards of the cases (own --out and caches; see kfbench merge)',
  },
});

function segmenterKind(v: string): SegmenterKind {
  return oneOf('--segmenter', v, SEGMENTERS);
}

export const SEGMENTER_HELP =
  'what cuts a video into shots: pixel (the shot detector) or judge (the published evaluator: edit boundaries by an MLLM)';

export const JOBS_HELP =
  'videos scanned at once (from 2, each in a worker thread with its own decoder and embedder; an ONNX session gets cores/N threads unless --threads)';

/** `--jobs N`: a whole number ≥ 1. */
function parseJobs(v: string): number {
  return parseNumberFlag('--jobs', v, (n) => Number.isInteger(n) && n >= 1);
}

function missingPolicy(v: string): MissingPolicy {
  return oneOf('--missing', v, ['zero', 'skip'] as const);
}

/** `--rank-by joint|video` (absent: the library's default). */
export function rankBy(v: string | undefined): RankBy | undefined {
  return v === undefined ? undefined : oneOf('--rank-by', v, BOARD_TABLES);
}

export const RANK_BY_HELP =
  'which leaderboard ranks: joint (audio-video, over the common set of cases every compared model answered with audio; the default whenever audio was judged) or video (video-only, all cases)';

export const VIDEO_QUALITY_HELP =
  'how Visual Quality, Spatiotemporal Coherence and Instruction Adherence enter Overall: groups (each a group of its own, the default) or one (Table 3\'s "Video Quality" column: their mean as one group)';

export const JOINT_CASES_HELP =
  "the joint table's common set: answered (the cases every model with audio answered, a silent video scoring AV Coordination 0, the default) or with-audio (only the cases every video of which has an audio track)";

export const KEYFRAME_CONTROL_HELP =
  'how Keyframe Fidelity and Temporal Organization enter Overall: combined (one keyframe-control group, their mean: our reading of the seed\'s "after joint keyframe-control aggregation") or separate (two groups, as before issue 44)';

export const MISSING_HELP =
  'a missing or undecodable video: zero (scores 0 on every metric, counted) or skip (every model only on the videos all have)';

const MODES_HELP = `prompt modes (default: those of ${PROMPT_MODES.join(', ')} with any video in the model folders; a mode named here with no video at all scores each of its videos as missing)`;

/** What every command over whole model folders reads and where it writes (`verb`: what it does to the models). */
export function modelFolderFlagSpecs(verb: string, out: string) {
  return flagSpecs({
    cases: { flags: '--cases <file>', description: 'cases.jsonl', required: true },
    videos: {
      flags: '--videos <dir>',
      description: 'folder of <model>/<case_id>__<prompt_mode>.mp4',
      required: true,
    },
    model: { flags: '--model <names...>', description: `model folders to ${verb}`, required: true },
    modes: { flags: '--modes <list>', description: MODES_HELP },
    out: { flags: '--out <dir>', description: 'where results go', default: out },
  });
}

/** The flags of the commands that score whole model folders (compass score, compass sensitivity). */
export function folderFlagSpecs() {
  return flagSpecs({
    ...modelFolderFlagSpecs('score', 'compass-response'),
    missing: { flags: '--missing <policy>', description: MISSING_HELP, default: 'zero' },
    segmenter: { flags: '--segmenter <kind>', description: SEGMENTER_HELP, default: 'pixel' },
    judge: { flags: '--judge <spec>', description: 'the judge, with --segmenter judge' },
    judgeCache: {
      flags: '--judge-cache <file>',
      description: 'judge cache, with --segmenter judge (default: <out>/judge-cache.sqlite)',
    },
    jobs: { flags: '--jobs <n>', description: JOBS_HELP, default: '1' },
    ...SCAN_CACHE_FLAG_SPECS,
    ...DEPRECATED_CACHE_FLAG_SPECS,
    ...metricFlagSpecs(),
  });
}

/** The folder flags as commander gives them. */
export type FolderFlags = FlagValues<ReturnType<typeof folderFlagSpecs>>;

type PartialRun = {
  missing: string[];
  failed: { video: string; error: string }[];
  rows: readonly { model: string; case_id: string; prompt_mode: PromptMode }[];
};

/**
 * The missing and failed videos on stderr, a missing one with the file beside it that was most
 * likely meant (`videos`: the folder, to tell expected files from misnamed ones). Called before a
 * run's table is printed, so that nothing is read as whole that is not.
 */
export function showMissing(run: PartialRun, videos: string): void {
  const expected = new Set(run.rows.map((r) => videoPath(videos, r.model, r.case_id, r.prompt_mode)));
  for (const m of run.missing) {
    const meant = likelyIntended(m, expected);
    process.stderr.write(`missing: ${m}${meant ? ` (did you mean ${meant}?)` : ''}\n`);
  }
  for (const f of run.failed) process.stderr.write(`failed: ${f.error}\n`);
}

/** Exit 5 when any video was missing or failed (named by `showMissing`, printed before). */
export function partial(run: PartialRun): void {
  const bad = [...run.missing, ...run.failed.map((f) => f.video)];
  const scored = run.rows.length - bad.length;
  if (bad.length)
    throw new PartialError(
      `${run.missing.length} video(s) missing and ${run.failed.length} failed; ${scored > 0 ? `the other ${scored} were scored` : 'none was scored'}`,
      bad,
    );
}

/**
 * `--modes`, or when it is not given, the modes with any video in the model folders (instead of
 * scoring each video of a wholly absent mode as missing), and what to say about a wholly absent
 * mode (`modesNote`, printed once the run is done, before its table). A mode named by `--modes`
 * with no video at all is scored as asked, with a warning.
 */
function chosenModes(o: { modes?: string | undefined; videos: string; model: string[] }): {
  modes: PromptMode[];
  note?: string;
} {
  const asked = o.modes === undefined ? [...PROMPT_MODES] : parseModes(o.modes);
  const present = modesWithVideos(o.videos, o.model, asked);
  const absent = asked.filter((m) => !present.includes(m));
  // no video of any mode: checkVideosFolder names the folder
  if (absent.length === 0 || present.length === 0) return { modes: asked };
  const where = `no *__${absent.join('.mp4 or *__')}.mp4 in ${o.model.join(', ')} under ${resolve(o.videos)}`;
  if (o.modes === undefined)
    return {
      modes: present,
      note: `modes: scoring ${present.join(', ')} only (${where}); pass --modes ${asked.join(',')} to score the absent mode's videos as missing`,
    };
  return {
    modes: asked,
    note: `warning: --modes ${absent.join(',')}: ${where}; every such video scores as missing (--modes ${present.join(',')} scores only what is there)`,
  };
}

/** The line about a wholly absent prompt mode (see chosenModes), on stderr, if there is one. */
export function showModesNote(o: { modes?: string | undefined; videos: string; model: string[] }): void {
  const { note } = chosenModes(o);
  if (note) process.stderr.write(`${note}\n`);
}

/** The flags that name one case: a JSON file, or a cases.jsonl with an id. */
export const ONE_CASE_FLAG_SPECS = flagSpecs({
  case: { flags: '--case <file>', description: 'one case as a JSON file' },
  cases: { flags: '--cases <file>', description: 'cases.jsonl' },
  caseId: { flags: '--case-id <id>', description: 'the case, with --cases' },
});

export type OneCaseFlags = FlagValues<typeof ONE_CASE_FLAG_SPECS>;

export function loadCaseFlags(o: OneCaseFlags): Promise<LoadedCase> {
  if (!o.case && !o.cases) throw new UsageError('give --case FILE, or --cases FILE with --case-id ID');
  return loadOneCase(defined({ caseFile: o.case, casesFile: o.cases, caseId: o.caseId }));
}

/**
 * The part of a Compass run's input that score, sensitivity and evaluate parse alike (the judge,
 * which only they differ on, is added by each). Parsed in the flags' order: a bad flag is a usage
 * error before any file is read.
 */
export function runInput(
  o: MetricFlags & {
    cases: string;
    videos: string;
    model: string[];
    modes?: string | undefined;
    out: string;
    missing: string;
    segmenter?: string | undefined;
    jobs: string;
    scanCache?: string | false | undefined;
    cache?: string | false | undefined;
    shard?: string | undefined;
    caseIds?: string[] | undefined;
  },
  defaultSegmenter: SegmenterKind,
): Omit<CompassRunInput, 'judge' | 'signal' | 'onProgress'> {
  const missing = missingPolicy(o.missing);
  const segmenter = segmenterKind(o.segmenter ?? defaultSegmenter);
  const response = responseOptions(o);
  const scan = scanOptions(o);
  const maxDuration_s = maxDuration(o);
  const { modes } = chosenModes(o);
  const jobs = parseJobs(o.jobs);
  return {
    casesFile: o.cases,
    caseIds: o.caseIds,
    shard: o.shard ? parseShard(o.shard) : undefined,
    videos: o.videos,
    models: o.model,
    modes,
    missing,
    embedder: o.embedder,
    embedderOptions: onnxFlags(o),
    response,
    scan,
    maxDuration_s,
    scanCache: scanCacheFile(o),
    segmenter,
    jobs,
  };
}
