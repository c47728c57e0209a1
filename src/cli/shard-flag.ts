/** `--shard k/n` (hero evaluate, hero track, compass score and evaluate): which shard of the items a run takes. */
import { UsageError } from '../errors.js';
import type { Shard } from '../store/shards.js';

export function parseShard(s: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  const k = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || n < 1 || k < 1 || k > n) throw new UsageError(`--shard must be k/n with 1 ≤ k ≤ n, got "${s}"`);
  return { k, n };
}
