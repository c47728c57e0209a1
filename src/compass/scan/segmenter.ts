/**
 * What cuts a video into shots for the keyframe-response metrics (seed E.2): the pixel shot
 * detector the scan runs (`pixel`), or a segmenter handed in by the run (`judge`: the quality
 * judge's, quality/segment.ts). The scan and the response axis know a segmenter only by this
 * signature, not by what asks it.
 */
import type { CallLimits } from '../../judge/question.js';
import type { FileHashes } from '../../store/file-hashes.js';
import type { LoadedCase } from '../cases/cases.js';
import type { ScanShot } from '../schemas/scan.js';

export const SEGMENTERS = ['pixel', 'judge'] as const;
export type SegmenterKind = (typeof SEGMENTERS)[number];

/** What `scoreModels` calls per video when the judge segments: its shots and the segmenter's name. */
export type SegmentFn = (
  c: LoadedCase,
  video: string,
  pixelShots: readonly ScanShot[],
  /** No judge call starts once this has aborted (the caller's pool stopping). */
  gate?: AbortSignal,
  /** The run's call budget: past it a call throws CallBudgetSpent. */
  limits?: CallLimits,
  /** The run's file hashes (shared with the scan cache's key and the quality questions'). */
  hashes?: FileHashes,
) => Promise<{ shots: ScanShot[]; segmenter: string; assignments?: Record<string, number | null> }>;
