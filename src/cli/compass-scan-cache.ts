/** `--scan-cache FILE` / `--no-scan-cache` of compass score and evaluate, and the scan cache file they name. */
import { dirname, join, resolve } from 'node:path';
import { type Command, Option } from 'commander';

export const SCAN_CACHE_HELP =
  'scan cache, shared by compass score and compass evaluate (default: .cache/kfbench/scan-cache.sqlite beside --out; with --shard <out>/scan-cache.sqlite)';

/** `--scan-cache FILE` / `--no-scan-cache` (and the deprecated `--cache`/`--no-cache` of compass score). */
export function scanCacheFlags(cmd: Command, deprecated: boolean): Command {
  cmd
    .option('--scan-cache <file>', SCAN_CACHE_HELP)
    .option('--no-scan-cache', 'do not read or write the scan cache');
  if (deprecated)
    cmd
      .addOption(new Option('--cache <file>', 'deprecated: --scan-cache').hideHelp())
      .addOption(new Option('--no-cache', 'deprecated: --no-scan-cache').hideHelp());
  return cmd;
}

/**
 * The scan cache file, or undefined for none. By default one beside the output folder, so that
 * `compass score --out A` and `compass evaluate --out B` in one folder share their scans (keyed by
 * content); a shard keeps its own in its --out (shards may run on other machines).
 */
export function scanCacheFile(o: {
  out: string;
  scanCache?: string | false;
  cache?: string | false;
  shard?: string | undefined;
}): string | undefined {
  if (o.cache !== undefined)
    process.stderr.write(
      `warning: --${o.cache === false ? 'no-' : ''}cache is deprecated in compass score: use --${o.cache === false ? 'no-' : ''}scan-cache\n`,
    );
  const given = o.scanCache === false || o.cache === false ? false : (o.scanCache ?? o.cache);
  if (given === false) return undefined;
  if (given !== undefined) return given;
  const out = resolve(o.out);
  return o.shard
    ? join(out, 'scan-cache.sqlite')
    : join(dirname(out), '.cache', 'kfbench', 'scan-cache.sqlite');
}
