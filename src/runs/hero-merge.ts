/** `kfbench merge hero`: shard folders of `hero evaluate` into the folder the unsharded run writes. */
import { resolve } from 'node:path';
import { defaultLayout } from '../hero/dataset/layout-map.js';
import { mergeHero } from '../hero/merge.js';
import { writeHeroRun } from '../report/hero-outputs.js';
import { outsideShards } from '../store/out-folder.js';
import type { MergeOptions } from './merge-options.js';

/**
 * `kfbench merge hero` as one call: the shard folders merged (`mergeHero`) and written to `out`
 * as the unsharded run would have written them, `out` never one of the shards.
 */
export async function mergeHeroRun({
  dirs,
  out,
  layout,
}: MergeOptions): Promise<{ films: number; insertions: number; files: string[] }> {
  const target = outsideShards(out, dirs);
  const t0 = Date.now();
  const m = await mergeHero(dirs, layout ?? defaultLayout());
  const run = {
    reader: m.reader,
    merged_from: dirs.map((d) => resolve(d)),
    insertions: m.result.insertions.length,
    complete: true,
    wall_ms: Date.now() - t0,
  };
  const files = await writeHeroRun(
    target,
    { result: m.result, run, record: m.record },
    m.track,
    dirs.map((d) => ({ flag: 'shard', path: d })),
  );
  return { films: m.record.all.length, insertions: m.result.insertions.length, files };
}
