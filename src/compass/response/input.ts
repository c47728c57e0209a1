/** `compass score`'s input (`ScoreInput`: the cases, videos, models, embedder, options) and its result (`ScoreRun`). */
import type { Embedder } from '../../embed/embedder.js';
import type { ShotOptions } from '../../media/shot-options.js';
import type { OnProgress } from '../../progress.js';
import type { FileHashes } from '../../store/file-hashes.js';
import type { LoadedCase, PromptMode } from '../cases/cases.js';
import type { ScanCache } from '../scan/cache.js';
import type { ScanOptions } from '../scan/options.js';
import type { SegmentFn } from '../scan/segmenter.js';
import type { ResponseRow } from '../schemas/response.js';
import type { ScanTimings } from '../schemas/scan.js';
import type { ResponseOptions } from './options.js';

export interface ScoreRun {
  rows: ResponseRow[];
  missing: string[];
  failed: { video: string; error: string }[];
  cached: number;
  scanned: number;
  timings: ScanTimings;
  /** Videos not segmented because the call budget (`maxCalls`) ran out: no row; run again to resume. */
  skipped: string[];
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
  /** The run's file hashes, shared with the judge's cache keys (compass evaluate): each video read once. */
  hashes?: FileHashes | undefined;
  /** Segment with the judge (seed E.2) instead of the pixel detector; absent = pixel. */
  segment?: SegmentFn | undefined;
  /** The judge segmenter's share of a run's call budget (`--max-calls`): it asks nothing past it. */
  maxCalls?: number | undefined;
  /**
   * A video whose header says it lasts longer (seconds) is a failed video with that reason, decided
   * before anything decodes it (`--max-duration`; none by default here, 120 s from the CLI).
   */
  maxDuration?: number | undefined;
  /**
   * Videos scanned at once (`--jobs`, 1 by default); rows keep the sequential order. Above 1 each
   * scan runs in a worker thread of its own (scan/pool.ts) when the embedder has a `spec`.
   */
  jobs?: number;
  signal?: AbortSignal | undefined;
  /** Phase `scan`: one item per expected video (a cache hit when its scan was kept; a failure when it does not decode). */
  onProgress?: OnProgress;
}
