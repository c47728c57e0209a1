/** `--shard k/n` over films (see store/shards.ts): the films (of --movies) sorted by id; film i (from 0) belongs to shard (i mod n) + 1. */
import { type Shard, selectItems } from '../../store/shards.js';

export function selectFilms(
  all: Iterable<string>,
  opts: { movies?: string[] | undefined; shard?: Shard | undefined },
): string[] {
  return selectItems(all, { only: opts.movies, shard: opts.shard, what: 'movie id' });
}
