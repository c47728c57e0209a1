/** `kfbench merge hero|compass SHARD_DIR… --out DIR`: sharded evaluations into one, as if run unsharded. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { mergeCompass } from '../compass/merge.js';
import { writeResponseRun } from '../compass/outputs.js';
import { writeEvaluationRun } from '../compass/quality/outputs.js';
import { UsageError } from '../errors.js';
import { mergeHero } from '../hero/merge.js';
import { writeEvaluation } from '../report/hero-outputs.js';
import { placed, realPath, writeOutputFolder } from '../store/out-folder.js';
import { writeOutputsRecord, writeShardRecord } from '../store/shards.js';
import { printLines } from './output.js';

/** --out as given (resolved), refused when it is — by its real path, links followed — a shard folder. */
function outsideShards(out: string, dirs: readonly string[]): string {
  const o = realPath(out);
  const same = dirs.find((d) => realPath(d) === o);
  if (same) throw new UsageError(`--out must not be one of the shard folders (${out} is ${same})`);
  return resolve(out);
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
      // written beside --out and moved into place: a failure leaves --out as it was
      const files = await writeOutputFolder(out, async (stage) => {
        const fs = await writeEvaluation(stage, m.result, run, m.track);
        fs.push(await writeShardRecord(stage, m.record));
        await writeOutputsRecord(stage, 'movie_id');
        return fs.map((f) => placed(stage, out, f));
      });
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
      await writeOutputFolder(out, async (stage) => {
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
      printLines([
        `merged ${dirs.length} ${m.kind} shard(s): ${m.record.all.length} cases, ${m.response.rows.length} videos; results in ${out}`,
      ]);
    });
}
