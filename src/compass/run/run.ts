/**
 * What every `compass score`, `compass sensitivity` and `compass evaluate` run shares, whoever
 * calls it (the CLI, a library user): its input once parsed, the cases it takes, and what its
 * settings.json records — the record shard merging compares as a whole. Its tools (judge,
 * embedder, scan cache) are opened by the run in src/runs (`withTools`, runs/tools.ts).
 */
import { resolve } from 'node:path';
import type { OnnxOptions } from '../../embed/onnx-options.js';
import { judgeIdentity } from '../../judge/identity.js';
import type { OpenedJudge } from '../../judge/registry.js';
import type { JudgeSettings } from '../../judge/settings.js';
import type { OnProgress } from '../../progress.js';
import type { NamedPath } from '../../store/path-overlap.js';
import type { Shard, ShardRecord } from '../../store/shards.js';
import { type LoadedCase, loadCases, type PromptMode } from '../cases/cases.js';
import { compassShardRecord, selectCases } from '../merge/merge.js';
import type { KeyframeControlReading, VideoQualityReading } from '../overall/aggregate.js';
import type { JointCasesReading } from '../overall/leaderboard.js';
import type { QualityOptions } from '../quality/video.js';
import { checkVideosFolder } from '../response/models.js';
import type { ResponseOptions } from '../response/options.js';
import type { ScanOptions } from '../scan/options.js';
import type { SegmenterKind } from '../scan/segmenter.js';
import type { BoardTable, MissingPolicy } from '../schemas/leaderboard.js';

type RecordedScanOption =
  | 'fpsCap'
  | 'pixelSize'
  | 'keyframeFit'
  | 'matchSize'
  | 'holdTolerance_db'
  | 'holdMatch_db';

/** A Compass run's input, parsed (the CLI's flags, or a library user's values). */
export interface CompassRunInput {
  /** cases.jsonl */
  casesFile: string;
  /** Only these cases (`--case-ids`), and a k-th of n shards of them (`--shard`). */
  caseIds?: readonly string[] | undefined;
  shard?: Shard | undefined;
  /** Folder of `<model>/<case_id>__<prompt_mode>.mp4`. */
  videos: string;
  models: string[];
  modes: PromptMode[];
  missing: MissingPolicy;
  /** The embedder's spec (`builtin`, `onnx:PATH`) and its ONNX options. */
  embedder: string;
  embedderOptions?: OnnxOptions | undefined;
  response: ResponseOptions;
  /** The scan options; those settings.json records (`scanSettings`) are required. */
  scan: Partial<ScanOptions> & Pick<ScanOptions, RecordedScanOption>;
  /** A video longer than this (seconds, from its header) is a failed video, never decoded. */
  maxDuration_s: number;
  /** The scan cache file; undefined = none. */
  scanCache?: string | undefined;
  segmenter: SegmenterKind;
  /** The judge's settings (its cache file resolved): needed by `segmenter: 'judge'` and by evaluate. */
  judge?: JudgeSettings | undefined;
  /** Videos scanned at once. */
  jobs: number;
  /** Aborted (Ctrl-C): no new scan or judge call starts, calls on the wire are cancelled. */
  signal?: AbortSignal | undefined;
  onProgress?: OnProgress | undefined;
}

/** What a run reads, named by its flags: none of it may be a file the run writes (`refuseOverlap`). */
export function compassReads(o: CompassRunInput): NamedPath[] {
  return [
    { flag: '--cases', path: o.casesFile },
    { flag: '--videos', path: o.videos },
    { flag: '--scan-cache', path: o.scanCache },
    { flag: '--judge-cache', path: o.judge?.cache },
  ];
}

/** The cases a run takes; a wrong videos folder is bad input before any output (or cache) is written. */
export async function runCases(o: CompassRunInput): Promise<{ all: LoadedCase[]; cases: LoadedCase[] }> {
  const allCases = await loadCases(o.casesFile);
  const cases = selectCases(allCases, { caseIds: o.caseIds, shard: o.shard });
  checkVideosFolder(o.videos, o.models, cases, o.modes);
  return { all: selectCases(allCases, { caseIds: o.caseIds }), cases };
}

/**
 * What settings.json records of the scan options: the ones that change the scan (as its cache key),
 * not how fast it is made (`decodeThreads`), so shards run with other threads merge; and the longest
 * video scanned (`maxDuration_s`), which decides which videos fail — shards run with other limits
 * would score other videos, so they do not merge. (γ and hold ε are recorded with the response options.)
 */
export function scanSettings(s: Pick<ScanOptions, RecordedScanOption>, maxDuration_s: number) {
  return {
    fpsCap: s.fpsCap,
    pixelSize: s.pixelSize,
    keyframeFit: s.keyframeFit,
    matchSize: s.matchSize,
    holdTolerance_db: s.holdTolerance_db,
    holdMatch_db: s.holdMatch_db,
    maxDuration_s,
  };
}

/** settings.json of a run: `compass score`'s (no runs, no quality) or `compass evaluate`'s. */
export function compassRunRecord(
  o: CompassRunInput,
  run: {
    kind: 'compass score' | 'compass evaluate';
    all: readonly LoadedCase[];
    cases: readonly LoadedCase[];
    complete: boolean;
    embedder: string;
    judge: OpenedJudge | undefined;
    runs?: number;
    quality?: QualityOptions;
    /** `compass evaluate --rank-by`, when given (a merge ranks its leaderboard the same way). */
    rankBy?: BoardTable | undefined;
    /** `compass evaluate --keyframe-control`, when given (it changes every Overall: shards must agree). */
    keyframeControl?: KeyframeControlReading | undefined;
    /** `--video-quality` and `--joint-cases`, when given (they change Overall and the common set: shards must agree). */
    videoQuality?: VideoQualityReading | undefined;
    jointCases?: JointCasesReading | undefined;
  },
): Promise<ShardRecord> {
  return compassShardRecord({
    kind: run.kind,
    casesFile: o.casesFile,
    all: run.all,
    selected: run.cases,
    shard: o.shard,
    complete: run.complete,
    settings: {
      videos: resolve(o.videos),
      models: o.models,
      modes: o.modes,
      missing: o.missing,
      embedder: run.embedder,
      segmenter: o.segmenter,
      ...(run.runs !== undefined ? { runs: run.runs } : {}),
      response: { ...o.response },
      scan: scanSettings(o.scan, o.maxDuration_s),
      ...(run.quality ? { quality: { ...run.quality } } : {}),
      ...(run.rankBy ? { rank_by: run.rankBy } : {}),
      ...(run.keyframeControl ? { keyframe_control: run.keyframeControl } : {}),
      ...(run.videoQuality ? { video_quality: run.videoQuality } : {}),
      ...(run.jointCases ? { joint_cases: run.jointCases } : {}),
      ...(run.judge && o.judge ? { judge: judgeIdentity(run.judge.judge.name, o.judge) } : {}),
    },
  });
}
