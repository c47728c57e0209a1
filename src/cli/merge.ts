/** `kfbench merge hero|compass SHARD_DIR… --out DIR`: sharded evaluations into one, as if run unsharded. */
import type { Command } from 'commander';
import { resolveLayout } from '../hero/dataset/layout-map.js';
import { mergeCompassRun } from '../runs/compass-merge.js';
import { mergeHeroRun } from '../runs/hero-merge.js';
import { cliEnv } from './env.js';
import { addFlags, type FlagValues, flagSpecs } from './flags.js';
import { printLines } from './output.js';

/** One benchmark's merge: its description, its library call and what it prints. */
const MERGES = [
  {
    name: 'hero',
    description: 'merge hero evaluate shard folders',
    run: async (dirs: string[], out: string) => {
      // the dataset the shards name is read through KFBENCH_HERO_LAYOUT's map, as their evaluation's was
      const r = await mergeHeroRun({ dirs, out, layout: resolveLayout(cliEnv().heroLayout) });
      return [
        `merged ${dirs.length} shard(s): ${r.films} films, ${r.insertions} insertions`,
        `reports: ${r.files.join(', ')}`,
      ];
    },
  },
  {
    name: 'compass',
    description: 'merge compass score or compass evaluate shard folders',
    run: async (dirs: string[], out: string) => {
      const r = await mergeCompassRun({ dirs, out });
      return [
        `merged ${dirs.length} ${r.kind} shard(s): ${r.cases} cases, ${r.videos} videos; results in ${r.out}`,
      ];
    },
  },
];

const MERGE_FLAG_SPECS = flagSpecs({
  out: { flags: '--out <dir>', description: 'the merged folder', required: true },
});

export function registerMerge(merge: Command): void {
  for (const m of MERGES) {
    const cmd = merge
      .command(m.name)
      .description(m.description)
      .argument('<dirs...>', 'the shards’ --out folders');
    addFlags(cmd, MERGE_FLAG_SPECS).action(async (dirs: string[], o: FlagValues<typeof MERGE_FLAG_SPECS>) =>
      printLines(await m.run(dirs, o.out)),
    );
  }
}
