/**
 * `kfbench merge compass` as one call: the shard folders of a `compass score` or `compass evaluate`
 * run merged (`mergeCompass`) and written to `out` whole or not at all, as the unsharded run would
 * have written them; `out` is never one of the shards.
 */

import { mergeCompass } from '../compass/merge/merge.js';
import { writeResponseRun } from '../compass/response/outputs.js';
import { writeEvaluationRun } from '../compass/run/outputs.js';
import { outsideShards, writeOutputFolder } from '../store/out-folder.js';
import { writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import type { MergeOptions } from './merge-options.js';

export async function mergeCompassRun({
  dirs,
  out,
}: MergeOptions): Promise<{ kind: string; cases: number; videos: number; out: string }> {
  const target = outsideShards(out, dirs);
  const t0 = Date.now();
  const m = await mergeCompass(dirs);
  const wall_s = (Date.now() - t0) / 1000;
  await writeOutputFolder(target, async (stage) => {
    if (m.evaluation)
      await writeEvaluationRun(stage, m.evaluation.result, m.evaluation.leaderboard, m.models, {
        wall_s,
        judge: m.evaluation.judge,
      });
    else
      await writeResponseRun(stage, m.response, m.models, {
        embedder: m.embedder,
        wall_s,
        missing: m.missing,
      });
    await writeShardRecord(stage, m.record);
    await writeOutputsRecord(stage, 'case_id');
  });
  return { kind: m.kind, cases: m.record.all.length, videos: m.response.rows.length, out: target };
}
