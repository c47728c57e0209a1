/**
 * A CLI run whose peak memory is asserted as a bound (never a time): the child loads
 * rss-preload.mjs, which prints its own peak RSS when it exits; `maxRssMb` is that figure (NaN when
 * the child died without exiting, e.g. aborted on memory), and stderr comes back without the line.
 */
import { join } from 'node:path';
import { type CliResult, runCli } from './cli.js';
import { ROOT } from './paths.js';

export async function runCliMeasured(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult & { maxRssMb: number }> {
  const preload = join(ROOT, 'test', 'support', 'rss-preload.mjs');
  const r = await runCli(args, {
    env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${preload}`.trim() },
  });
  const m = /\n?kfbench-test-max-rss-kb=(\d+)\n$/.exec(r.stderr);
  return {
    ...r,
    stderr: m ? r.stderr.slice(0, m.index) : r.stderr,
    maxRssMb: m ? Number(m[1]) / 1024 : Number.NaN,
  };
}
