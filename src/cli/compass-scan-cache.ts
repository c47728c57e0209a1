/** `--scan-cache FILE` / `--no-scan-cache` of compass score and evaluate, and the scan cache file they name. */
import { dirname, join, resolve } from 'node:path';
import { flagSpecs } from './flags.js';

const SCAN_CACHE_HELP =
  'scan cache, shared by compass score and compass evaluate (default: .cache/kfbench/scan-cache.sqlite beside --out; with --shard <out>/scan-cache.sqlite)';

/** `--scan-cache FILE` / `--no-scan-cache` of compass score and evaluate. */
export const SCAN_CACHE_FLAG_SPECS = flagSpecs({
  scanCache: {
    flags: '--scan-cache <file>',
    description: SCAN_CACHE_HELP,
    negatable: 'do not read or write the scan cache',
  },
});

/** The deprecated `--cache FILE` / `--no-cache` of compass score, hidden. */
export const DEPRECATED_CACHE_FLAG_SPECS = flagSpecs({
  cache: {
    flags: '--cache <file>',
    description: 'deprecated: --scan-cache',
    hidden: true,
    negatable: 'deprecated: --no-scan-cache',
  },
});

/**
 * The scan cache file, or undefined for none. By default one beside the output folder, so that
 * `compass score --out A` and `compass evaluate --out B` in one folder share their scans (keyed by
 * content); a shard keeps its own in its --out (shards may run on other machines).
 */
export function scanCacheFile(o: {
  out: string;
  scanCache?: string | false | undefined;
  cache?: string | false | undefined;
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
