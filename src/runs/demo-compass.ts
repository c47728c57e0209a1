/**
 * The Compass part of the demo: build the mini Compass set (if absent), score every fault "model"
 * in both prompt modes with the builtin embedder — through `scoreCompass`, the call `compass score`
 * makes, with its defaults — write the results, return the leaderboard.
 */
import { join } from 'node:path';
import { loadCases, PROMPT_MODES } from '../compass/cases/cases.js';
import { DEFAULT_RESPONSE_OPTIONS } from '../compass/response/options.js';
import { DEFAULT_SCAN_OPTIONS } from '../compass/scan/options.js';
import type { ResponseSummary } from '../compass/schemas/response.js';
import { DEFAULT_MAX_DURATION_S } from '../media/duration.js';
import type { OnProgress } from '../progress.js';
import { buildMiniCompass, type MiniCompassPaths } from '../synthetic/mini-compass/build.js';
import { SCORE_DECODE_THREADS, scoreCompass } from './compass-score.js';

export interface CompassDemo {
  summary: ResponseSummary;
  out: string;
  cases: number;
  videos: number;
  scanned: number;
  mini: MiniCompassPaths;
  /** The scan cache the response scores filled (the quality part reads the same scans). */
  scanCache: string;
}

export async function runCompassDemo(
  root: string,
  onProgress: OnProgress,
  materialCache?: string,
): Promise<CompassDemo> {
  const p = await buildMiniCompass(join(root, 'mini-compass'), { onProgress, materialCache });
  const out = join(root, 'compass-response');
  const scanCache = join(out, 'scan-cache.sqlite');
  const { run, summary } = await scoreCompass({
    casesFile: p.cases,
    videos: p.videos,
    models: [...p.models],
    modes: [...PROMPT_MODES],
    missing: 'zero',
    embedder: 'builtin',
    response: DEFAULT_RESPONSE_OPTIONS,
    // as `compass score` does by default (--decode-threads 1)
    scan: { ...DEFAULT_SCAN_OPTIONS, decodeThreads: SCORE_DECODE_THREADS },
    maxDuration_s: DEFAULT_MAX_DURATION_S,
    scanCache,
    segmenter: 'pixel',
    jobs: 1,
    onProgress,
    out,
  });
  return {
    summary,
    out,
    cases: (await loadCases(p.cases)).length,
    videos: run.rows.length,
    scanned: run.scanned,
    mini: p,
    scanCache,
  };
}
