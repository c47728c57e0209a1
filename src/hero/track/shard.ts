/** `--shard k/n` (1-based): films sorted by id; film i (from 0) belongs to shard (i mod n) + 1. */
import { UsageError } from '../../errors.js';

export interface Shard {
  k: number;
  n: number;
}

export function parseShard(s: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  const k = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || n < 1 || k < 1 || k > n) throw new UsageError(`--shard must be k/n with 1 ≤ k ≤ n, got "${s}"`);
  return { k, n };
}

export function selectFilms(
  all: Iterable<string>,
  opts: { movies?: string[] | undefined; shard?: Shard | undefined },
): string[] {
  let films = [...all].sort();
  if (opts.movies?.length) {
    const unknown = opts.movies.filter((m) => !films.includes(m));
    if (unknown.length) throw new UsageError(`unknown movie id(s): ${unknown.join(', ')}`);
    films = films.filter((f) => opts.movies!.includes(f));
  }
  if (opts.shard) {
    const { k, n } = opts.shard;
    const sorted = [...all].sort();
    films = films.filter((f) => sorted.indexOf(f) % n === k - 1);
  }
  return films;
}
