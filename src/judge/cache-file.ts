/**
 * `kfbench cache stats | export | prune`: one call each on a judge cache file, opened for that
 * call and closed whatever happens (stats and export only read, and never create the file).
 */
import { type CacheRow, JudgeCache } from './cache.js';

export type CacheStats = ReturnType<JudgeCache['stats']>;

/** How many answers the cache at `file` holds, per judge model and protocol. */
export function cacheFileStats(file: string): CacheStats {
  const c = new JudgeCache(file, { readOnly: true });
  try {
    return c.stats();
  } finally {
    c.close();
  }
}

/** Every answer of the cache at `file`, one at a time; the file is closed when the reading ends. */
export function* cacheFileRows(file: string): Generator<CacheRow> {
  const c = new JudgeCache(file, { readOnly: true });
  try {
    yield* c.rows();
  } finally {
    c.close();
  }
}

/** Delete the answers that match every given criterion; returns how many went. */
export function pruneCacheFile(
  file: string,
  opts: { unresolved?: boolean; olderThanS?: number; model?: string },
): number {
  const c = new JudgeCache(file, { mustExist: true });
  try {
    return c.prune(opts);
  } finally {
    c.close();
  }
}
