/** `kfbench merge hero|compass SHARD_DIR… --out DIR`: sharded evaluations into one, as if run unsharded. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { mergeCompass } from '../compass/merge.js';
import { writeResponseRun } from '../compass/outputs.js';
import { writeEvaluationRun } from '../compass/quality/outputs.js';
import { UsageError } from '../errors.js';
import { mergeHero } from '../hero/merge.js';
import { writeEvaluation } from '../report/hero-outputs.js';
import { writeShardRecord } from '../store/shards.js';
import { printLines } from './output.js';

function outsideShards(out: string, dirs: readonly string[]): string {
  const o = resolve(out);
  if (dirs.some((d) => resolve(d) === o)) throw new UsageError('--out must not be one of the shard folders');
  return o;
}

export function registerMerge(program: Command): void {
  const merge = program
    .command('merge')
    .description(
      'merge the folders of a sharded run (--shard k/n) into the outputs of an unsharded one; refuses shards of other inputs, settings or judge, and a film or case missing or held twice',
    );
  merge
    .command('hero')
    .description('merge hero evaluate shard folders')
    .argument('<dirs...>', 'the shards’ --out folders')
    .requiredOption('--out <dir>', 'the merged folder')
    .action(async (dirs: string[], o: { out: string }) => {
      const out = outsideShards(o.out, dirs);
      const t0 = Date.now();
      const m = await mergeHero(dirs);
      const run = {
        reader: m.reader,
        merged_from: dirs.map((d) => resolve(d)),
        insertions: m.result.insertions.length,
        complete: true,
        wall_ms: Date.now() - t0,
      };
      const files = await writeEvaluation(out, m.result, run, m.track);
      files.push(await writeShardRecord(out, m.record));
      printLines([
        `merged ${dirs.length} shard(s): ${m.record.all.length} films, ${m.result.insertions.length} insertions`,
        `reports: ${files.join(', ')}`,
      ]);
    });
  merge
    .command('compass')
    .description('merge compass score or compass evaluate shard folders')
    .argument('<dirs...>', 'the shards’ --out folders')
    .requiredOption('--out <dir>', 'the merged folder')
    .action(async (dirs: string[], o: { out: string }) => {
      const out = outsideShards(o.out, dirs);
      const t0 = Date.now();
      const m = await mergeCompass(dirs);
      const wall_s = (Date.now() - t0) / 1000;
      if (m.evaluation)
        await writeEvaluationRun(out, m.evaluation.result, m.evaluation.leaderboard, m.models, {
          wall_s,
          judge: m.evaluation.judge,
        });
      else
        await writeResponseRun(out, m.response, m.models, {
          embedder: m.embedder,
          wall_s,
          missing: m.missing,
        });
      await writeShardRecord(out, m.record);
      printLines([
        `merged ${dirs.length} ${m.kind} shard(s): ${m.record.all.length} cases, ${m.response.rows.length} videos; results in ${out}`,
      ]);
    });
}
