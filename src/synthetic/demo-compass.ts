/**
 * The Compass part of the demo: build the mini Compass set (if absent), score every fault "model"
 * in both prompt modes with the builtin embedder, write the results, return the leaderboard.
 */
import { join } from 'node:path';
import { loadCases, PROMPT_MODES } from '../compass/cases.js';
import { writeResponseRun } from '../compass/outputs.js';
import { ScanCache } from '../compass/response/scan-cache.js';
import { type ResponseSummary, scoreModels } from '../compass/score.js';
import { createBuiltinEmbedder } from '../embed/builtin.js';
import type { OnProgress } from '../progress.js';
import { buildMiniCompass, type MiniCompassPaths } from './mini-compass/build.js';

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

export async function runCompassDemo(root: string, onProgress: OnProgress): Promise<CompassDemo> {
  const p = await buildMiniCompass(join(root, 'mini-compass'), { onProgress });
  const cases = await loadCases(p.cases);
  const out = join(root, 'compass-response');
  const scanCache = join(out, 'scan-cache.sqlite');
  const cache = new ScanCache(scanCache);
  const embedder = createBuiltinEmbedder();
  const t0 = Date.now();
  try {
    const run = await scoreModels({
      cases,
      videos: p.videos,
      models: p.models,
      modes: PROMPT_MODES,
      embedder,
      cache,
      onProgress,
    });
    const summary = await writeResponseRun(out, run, p.models, {
      embedder: embedder.id,
      wall_s: (Date.now() - t0) / 1000,
    });
    return {
      summary,
      out,
      cases: cases.length,
      videos: run.rows.length,
      scanned: run.scanned,
      mini: p,
      scanCache,
    };
  } finally {
    cache.close();
  }
}
