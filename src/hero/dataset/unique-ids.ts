/**
 * The ids `hero validate` checks are unique, and where each was first seen, so that a duplicate
 * names both places (issue 46 item 8: two chains with the same group_id + chain_index passed).
 * SPEC §2.1: "each chain carries `chain_index` (0-based), `anchor` …, `group_id`
 * (`<movie_id>-<anchor>-d<draw>`)"; the chain's id is read from them (release.ts), so one id twice
 * is one chain twice.
 */
import type { Timeline } from '../track/timeline.js';

/**
 * Where each id was first seen, to name both lines of a duplicate (issue 46 item 8: two chains
 * with the same group_id + chain_index passed validation): `seen` returns the first place of an
 * id seen before, else records `at` and returns undefined.
 */
export class FirstSeen<K> {
  private readonly first = new Map<K, string>();
  seen(id: K, at: string): string | undefined {
    const was = this.first.get(id);
    if (was === undefined) this.first.set(id, at);
    return was;
  }
}

/** A chain as its row names it: its id, and the group_id and chain_index it was read from. */
export function chainIdentity(c: { chain_id: string; group_id?: unknown; chain_index?: unknown }): string {
  const from = [
    ...(c.group_id !== undefined ? [`group_id ${String(c.group_id)}`] : []),
    ...(c.chain_index !== undefined ? [`chain_index ${String(c.chain_index)}`] : []),
  ];
  return `${c.chain_id}${from.length ? ` (${from.join(', ')})` : ''}`;
}

/**
 * The line each (film, frame) of a track file was first listed on: one number per track frame of
 * each film (4 bytes a frame: 2 MB for the published 500,000), not a set of strings.
 */
export class FrameLines {
  private readonly byFilm = new Map<string, Uint32Array>();
  constructor(private readonly timelines: Map<string, Timeline>) {}
  /** The first line of (film, frame) when seen before, else 0 (and `line` is recorded). */
  seen(film: string, frame: number, line: number): number {
    let a = this.byFilm.get(film);
    if (!a) {
      a = new Uint32Array(this.timelines.get(film)?.frameCount ?? 0);
      this.byFilm.set(film, a);
    }
    const first = a[frame] ?? 0;
    if (first === 0) a[frame] = line;
    return first;
  }
}
