/** `hero build` as one call: the judge opened from its settings and closed, the chains built. */

import { buildChains } from '../hero/build/build.js';
import type { BuildOptions } from '../hero/build/options.js';
import type { BuildReport } from '../hero/dataset/schemas.js';
import type { JudgeSettings } from '../judge/settings.js';
import { withTools } from './tools.js';

export interface BuildRunInput extends Omit<BuildOptions, 'judge' | 'encoder'> {
  /** The judge's settings (its cache file resolved). */
  judge: JudgeSettings;
}

/** What `hero build` made, with the reader that judged and its calls. */
export type BuildRunReport = BuildReport & { reader: string; calls: number; cached: number };

/** `hero build` as one call: the judge opened from its settings (closed whatever happens), the chains built. */
export async function buildChainsRun(o: BuildRunInput): Promise<BuildRunReport> {
  const { judge: settings, ...input } = o;
  return withTools({ judge: settings, onProgress: o.onProgress }, async (tools) => {
    const j = tools.needJudge();
    const r = await buildChains({ ...input, judge: j.judge, encoder: j.encoder });
    return { ...r, reader: j.judge.name, calls: j.judge.stats.calls, cached: j.judge.stats.cached };
  });
}
