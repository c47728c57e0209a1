/** Flags shared by the Compass commands, and their parsing (one place for each). */
import { dirname, join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { type LoadedCase, loadOneCase, PROMPT_MODES, type PromptMode } from '../compass/cases.js';
import type { RankBy } from '../compass/quality/leaderboard.js';
import {
  DEFAULT_RESPONSE_OPTIONS,
  DEFAULT_SCAN_OPTIONS,
  KEYFRAME_FITS,
  KFS_FRAMES,
  type ResponseOptions,
} from '../compass/response/options.js';
import { BOARD_TABLES } from '../compass/results.js';
import type { CompassRunInput } from '../compass/run.js';
import type { MissingPolicy } from '../compass/score.js';
import { SEGMENTERS, type SegmenterKind } from '../compass/segment.js';
import { EMBEDDER_FORMS } from '../embed/registry.js';
import { PartialError, UsageError } from '../errors.js';
import { DEFAULT_MAX_DURATION_S } from '../media/duration.js';
import { onnxFlags, onnxOptions } from './embed.js';
import { oneOf, parseNumberFlag } from './output.js';
import { parseShard } from './shard-flag.js';

export interface MetricFlags {
  embedder: string;
  threads?: string;
  device?: string;
  gamma?: string;
  holdEps: string;
  psnrLow: string;
  psnrHigh: string;
  ssimLow: string;
  ssimHigh: string;
  fusion: string;
  kfsFrame: string;
  kfsTie: string;
  positionFraction: string;
  persistenceS: string;
  uniqueGapS: string;
  fpsCap: string;
  pixelSize: string;
  decodeThreads: string;
  keyframeFit: string;
  matchSize: string;
  holdToleranceDb: string;
  holdMatchDb: string;
  maxDuration: string;
}

export function metricFlags(cmd: Command): Command {
  const d = DEFAULT_RESPONSE_OPTIONS;
  return onnxOptions(cmd)
    .option('--embedder <spec>', EMBEDDER_FORMS, 'builtin')
    .option('--gamma <g>', "match threshold (default: the embedder's own; builtin 0.76, DINOv3 0.80)")
    .option('--hold-eps <x>', 'a hold = frames within this of the best similarity', String(d.holdEps))
    .option('--psnr-low <db>', 'pixel score: PSNR lower anchor', String(d.psnrLow))
    .option('--psnr-high <db>', 'pixel score: PSNR saturation', String(d.psnrHigh))
    .option('--ssim-low <x>', 'pixel score: SSIM lower anchor', String(d.ssimLow))
    .option('--ssim-high <x>', 'pixel score: SSIM saturation', String(d.ssimHigh))
    .option('--fusion <w>', 'KFS = w·pixel + (1 − w)·cos', String(d.fusion))
    .option(
      '--kfs-frame <f>',
      `KFS's one frame for cos and pixels: ${KFS_FRAMES.join(' | ')} (stage 2's frame when its cosine ties the best within --kfs-tie; the highest-cosine frame)`,
      d.kfsFrame,
    )
    .option(
      '--kfs-tie <x>',
      "--kfs-frame tie: stage 2's frame may lie this far below the best cosine",
      String(d.kfsTie),
    )
    .option(
      '--position-fraction <f>',
      'multi-shot: first/last = this fraction of the shot',
      String(d.positionFraction),
    )
    .option('--persistence-s <s>', 'persistence saturates at this many seconds', String(d.persistence_s))
    .option('--unique-gap-s <s>', 'matched runs closer than this count as one', String(d.uniqueGap_s))
    .option(
      '--fps-cap <r>',
      'sample every frame, at most this many per second',
      String(DEFAULT_SCAN_OPTIONS.fpsCap),
    )
    .option(
      '--pixel-size <px>',
      "PSNR/SSIM on frames scaled to this long side (0 = the video's own)",
      String(DEFAULT_SCAN_OPTIONS.pixelSize),
    )
    .option(
      '--max-duration <s>',
      'a video longer than this (seconds, from its header; for a scan in the scan cache, its recorded duration) is a failed video, never decoded',
      String(DEFAULT_MAX_DURATION_S),
    )
    .option(
      '--decode-threads <n>',
      "threads of the scan's video decoder (0 = ffmpeg's own, about one per core; fewer leave cores to --jobs)",
      String(DEFAULT_SCAN_OPTIONS.decodeThreads),
    )
    .option(
      '--keyframe-fit <fit>',
      `a keyframe of another aspect ratio than the video's: ${KEYFRAME_FITS.join(' | ')} (centre crop, black bars, distort)`,
      DEFAULT_SCAN_OPTIONS.keyframeFit,
    )
    .option(
      '--match-size <px>',
      "stage 2 finds each keyframe's frame on luma scaled to this long side (0 = the video's own)",
      String(DEFAULT_SCAN_OPTIONS.matchSize),
    )
    .option(
      '--hold-match-db <db>',
      "stage 2's hold: the frames matching the keyframe as well as its frame does, within this many dB of PSNR",
      String(DEFAULT_SCAN_OPTIONS.holdMatch_db),
    )
    .option(
      '--hold-tolerance-db <db|off>',
      "stage 2's hold, the other reading: frames within this luma PSNR of the keyframe's frame join it too (off: not)",
      'off',
    );
}

export function responseOptions(o: MetricFlags): ResponseOptions {
  const num = (name: string, v: string, ok: (n: number) => boolean = () => true) =>
    parseNumberFlag(name, v, ok);
  const unit = (n: number) => n >= 0 && n <= 1;
  const r: ResponseOptions = {
    gamma: o.gamma === undefined ? undefined : num('--gamma', o.gamma, (n) => n >= -1 && n <= 1),
    holdEps: num('--hold-eps', o.holdEps, (n) => n >= 0),
    psnrLow: num('--psnr-low', o.psnrLow),
    psnrHigh: num('--psnr-high', o.psnrHigh),
    ssimLow: num('--ssim-low', o.ssimLow),
    ssimHigh: num('--ssim-high', o.ssimHigh),
    fusion: num('--fusion', o.fusion, unit),
    kfsFrame: oneOf('--kfs-frame', o.kfsFrame ?? DEFAULT_RESPONSE_OPTIONS.kfsFrame, KFS_FRAMES),
    kfsTie: num('--kfs-tie', o.kfsTie ?? String(DEFAULT_RESPONSE_OPTIONS.kfsTie), (n) => n >= 0 && n <= 1),
    positionFraction: num('--position-fraction', o.positionFraction, (n) => n > 0 && n <= 0.5),
    persistence_s: num('--persistence-s', o.persistenceS, (n) => n > 0),
    uniqueGap_s: num('--unique-gap-s', o.uniqueGapS, (n) => n >= 0),
  };
  if (r.psnrHigh <= r.psnrLow) throw new UsageError('--psnr-high must be above --psnr-low');
  if (r.ssimHigh <= r.ssimLow) throw new UsageError('--ssim-high must be above --ssim-low');
  return r;
}

/** `--max-duration <s>`: seconds, above 0. */
export function maxDuration(o: Pick<MetricFlags, 'maxDuration'>): number {
  return parseNumberFlag('--max-duration', o.maxDuration, (n) => n > 0);
}

/** The scan options of the flags; stage 2 refines the placing runs of the response options' γ and hold ε. */
export function scanOptions(o: MetricFlags) {
  const r = responseOptions(o);
  return {
    fpsCap: parseNumberFlag('--fps-cap', o.fpsCap, (n) => n > 0),
    pixelSize: parseNumberFlag('--pixel-size', o.pixelSize, (n) => Number.isInteger(n) && n >= 0),
    decodeThreads: parseNumberFlag('--decode-threads', o.decodeThreads, (n) => Number.isInteger(n) && n >= 0),
    keyframeFit: oneOf('--keyframe-fit', o.keyframeFit ?? DEFAULT_SCAN_OPTIONS.keyframeFit, KEYFRAME_FITS),
    matchSize: parseNumberFlag(
      '--match-size',
      o.matchSize ?? String(DEFAULT_SCAN_OPTIONS.matchSize),
      (n) => Number.isInteger(n) && n >= 0,
    ),
    holdTolerance_db:
      (o.holdToleranceDb ?? 'off') === 'off'
        ? null
        : parseNumberFlag('--hold-tolerance-db', o.holdToleranceDb!, (n) => n > 0),
    holdMatch_db: parseNumberFlag(
      '--hold-match-db',
      o.holdMatchDb ?? String(DEFAULT_SCAN_OPTIONS.holdMatch_db),
      (n) => n >= 0,
    ),
    gamma: r.gamma,
    holdEps: r.holdEps,
  };
}

export function parseModes(v: string): PromptMode[] {
  return v.split(',').map((s) => {
    // one word of the list at a time, with the nearest valid one when it is mistyped
    return oneOf('--modes', s.trim(), PROMPT_MODES);
  });
}

export interface FolderFlags extends MetricFlags {
  cases: string;
  videos: string;
  model: string[];
  modes: string;
  out: string;
  scanCache?: string | false;
  /** Deprecated spelling of --scan-cache. */
  cache?: string | false;
  missing: string;
  segmenter?: string;
  judge?: string;
  judgeCache?: string;
  jobs: string;
  shard?: string;
  caseIds?: string[];
}

/** `--shard k/n` and `--case-ids` of score and evaluate (see kfbench merge compass). */
export function shardFlags(cmd: Command): Command {
  return cmd
    .option('--case-ids <ids...>', 'only these cases (a merge then needs the others from other folders)')
    .option(
      '--shard <k/n>',
      'a deterministic k-th of n shards of the cases (own --out and caches; see kfbench merge)',
    );
}

export function segmenterKind(v: string): SegmenterKind {
  return oneOf('--segmenter', v, SEGMENTERS);
}

export const SEGMENTER_HELP =
  'what cuts a video into shots: pixel (the shot detector) or judge (the published evaluator: edit boundaries by an MLLM)';

export const JOBS_HELP =
  'videos scanned at once (from 2, each in a worker thread with its own decoder and embedder; an ONNX session gets cores/N threads unless --threads)';

/** `--jobs N`: a whole number ≥ 1. */
export function parseJobs(v: string): number {
  return parseNumberFlag('--jobs', v, (n) => Number.isInteger(n) && n >= 1);
}

export function missingPolicy(v: string): MissingPolicy {
  return oneOf('--missing', v, ['zero', 'skip'] as const);
}

/** `--rank-by joint|video` (absent: the library's default). */
export function rankBy(v: string | undefined): RankBy | undefined {
  return v === undefined ? undefined : oneOf('--rank-by', v, BOARD_TABLES);
}

export const RANK_BY_HELP =
  'which leaderboard ranks: joint (audio-video, over the common set of cases every compared model answered with audio; the default whenever audio was judged) or video (video-only, all cases)';

export const KEYFRAME_CONTROL_HELP =
  'how Keyframe Fidelity and Temporal Organization enter Overall: combined (one keyframe-control group, their mean: our reading of the seed\'s "after joint keyframe-control aggregation") or separate (two groups, as before issue 44)';

export const MISSING_HELP =
  'a missing or undecodable video: zero (scores 0 on every metric, counted) or skip (every model only on the videos all have)';

export function folderFlags(cmd: Command): Command {
  return metricFlags(
    scanCacheFlags(
      cmd
        .requiredOption('--cases <file>', 'cases.jsonl')
        .requiredOption('--videos <dir>', 'folder of <model>/<case_id>__<prompt_mode>.mp4')
        .requiredOption('--model <names...>', 'model folders to score')
        .option('--modes <list>', 'prompt modes', PROMPT_MODES.join(','))
        .option('--out <dir>', 'where results go', 'compass-response')
        .option('--missing <policy>', MISSING_HELP, 'zero')
        .option('--segmenter <kind>', SEGMENTER_HELP, 'pixel')
        .option('--judge <spec>', 'the judge, with --segmenter judge')
        .option(
          '--judge-cache <file>',
          'judge cache, with --segmenter judge (default: <out>/judge-cache.sqlite)',
        )
        .option('--jobs <n>', JOBS_HELP, '1'),
      true,
    ),
  );
}

export const SCAN_CACHE_HELP =
  'scan cache, shared by compass score and compass evaluate (default: .cache/kfbench/scan-cache.sqlite beside --out; with --shard <out>/scan-cache.sqlite)';

/** `--scan-cache FILE` / `--no-scan-cache` (and the deprecated `--cache`/`--no-cache` of compass score). */
export function scanCacheFlags(cmd: Command, deprecated: boolean): Command {
  cmd
    .option('--scan-cache <file>', SCAN_CACHE_HELP)
    .option('--no-scan-cache', 'do not read or write the scan cache');
  if (deprecated)
    cmd
      .addOption(new Option('--cache <file>', 'deprecated: --scan-cache').hideHelp())
      .addOption(new Option('--no-cache', 'deprecated: --no-scan-cache').hideHelp());
  return cmd;
}

/**
 * The scan cache file, or undefined for none. By default one beside the output folder, so that
 * `compass score --out A` and `compass evaluate --out B` in one folder share their scans (keyed by
 * content); a shard keeps its own in its --out (shards may run on other machines).
 */
export function scanCacheFile(o: {
  out: string;
  scanCache?: string | false;
  cache?: string | false;
  shard?: string | undefined;
}): string | undefined {
  if (o.cache !== undefined)
    process.stderr.write(
      `warning: --${o.cache === false ? 'no-' : ''}cache is deprecated in compass score: use --${o.cache === false ? 'no-' : ''}scan-cache\n`,
    );
  const given = o.scanCache === false || o.cache === false ? false : (o.scanCache ?? o.cache);
  if (given === false) return undefined;
  if (given !== undefined) return given;
  const out = resolve(o.out);
  return o.shard
    ? join(out, 'scan-cache.sqlite')
    : join(dirname(out), '.cache', 'kfbench', 'scan-cache.sqlite');
}

export function partial(run: { missing: string[]; failed: { video: string; error: string }[] }): void {
  for (const m of run.missing) process.stderr.write(`missing: ${m}\n`);
  for (const f of run.failed) process.stderr.write(`failed: ${f.error}\n`);
  const bad = [...run.missing, ...run.failed.map((f) => f.video)];
  if (bad.length)
    throw new PartialError(
      `${run.missing.length} video(s) missing and ${run.failed.length} failed; the others were scored`,
      bad,
    );
}

/** The flags that name one case: a JSON file, or a cases.jsonl with an id. */
export interface OneCaseFlags {
  case?: string;
  cases?: string;
  caseId?: string;
}

export function oneCaseOptions(cmd: Command): Command {
  return cmd
    .option('--case <file>', 'one case as a JSON file')
    .option('--cases <file>', 'cases.jsonl')
    .option('--case-id <id>', 'the case, with --cases');
}

export function loadCaseFlags(o: OneCaseFlags): Promise<LoadedCase> {
  if (!o.case && !o.cases) throw new UsageError('give --case FILE, or --cases FILE with --case-id ID');
  return loadOneCase({ caseFile: o.case, casesFile: o.cases, caseId: o.caseId });
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
    modes: string;
    out: string;
    missing: string;
    segmenter?: string | undefined;
    jobs: string;
    scanCache?: string | false;
    cache?: string | false;
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
  const modes = parseModes(o.modes);
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
