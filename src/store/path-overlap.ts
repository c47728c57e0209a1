/**
 * Outputs never destroy inputs (issue 46, item 4). Every path is compared by its real path —
 * symbolic links followed, a path that does not exist yet resolved through its nearest existing
 * parent — and a run refuses, before any work, a path it reads that is a path it writes or lies
 * inside one (a folder it replaces), and a path it writes inside a folder it reads whole (a shard).
 * A store a run both reads and writes (a judge cache kept in `--out`, the documented default) is
 * not an output file: it may sit in the output folder, never at a name the run writes there.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * The real path a path names or would name: symbolic links of the part that exists resolved, the
 * rest appended. Two paths are the same file or folder exactly when their real paths are equal.
 */
export function realPath(p: string): string {
  let head = resolve(p);
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(head);
      return tail.length ? join(real, ...tail.reverse()) : real;
    } catch {
      const up = dirname(head);
      if (up === head) return resolve(p);
      tail.push(basename(head));
      head = up;
    }
  }
}

/** True when `inner` is `outer` or inside it (real paths). */
function isWithin(inner: string, outer: string): boolean {
  const i = realPath(inner);
  const o = realPath(outer);
  return i === o || i.startsWith(o.endsWith(sep) ? o : `${o}${sep}`);
}

/** A path a run reads or writes, with the flag (or argument) it came from, as the user gave it. */
export interface NamedPath {
  /** `--judge-cache`, `--out ev1`, `shard`: how the error names it. */
  flag: string;
  path: string | undefined;
}

export interface RunPaths {
  /** Files and folders the run reads (a store it also updates, like a judge cache, counts here). */
  reads: readonly NamedPath[];
  /** Files the run writes and folders it replaces: nothing it reads may be or lie inside one. */
  writes: readonly NamedPath[];
  /** Folders the run reads whole (shard folders): nothing it writes may be or lie inside one. */
  readsWhole?: readonly NamedPath[];
}

const named = (p: NamedPath & { path: string }) => `${p.flag} ${p.path}`;
const given = (ps: readonly NamedPath[]) => ps.filter((p): p is NamedPath & { path: string } => !!p.path);

/**
 * Throws a UsageError (exit 2) naming both paths at the first overlap of `o`: an input that is, or
 * is inside, an output; an output inside a folder read whole. Nothing is read or written here.
 */
export function refuseOverlap(o: RunPaths): void {
  const writes = given(o.writes);
  for (const r of given([...o.reads, ...(o.readsWhole ?? [])]))
    for (const w of writes)
      if (isWithin(r.path, w.path))
        throw new UsageError(
          `${named(r)} is ${realPath(r.path) === realPath(w.path) ? 'the same path as' : 'inside'} ${named(w)}, which this run writes: give them apart`,
        );
  for (const whole of given(o.readsWhole ?? []))
    for (const w of writes)
      if (isWithin(w.path, whole.path))
        throw new UsageError(`${named(w)} is inside ${named(whole)}, which this run reads: write elsewhere`);
}

/** The files a run writes into its output folder `out`, each named `--out OUT/NAME`. */
export function outputFiles(out: string, names: readonly string[], flag = '--out'): NamedPath[] {
  return names.map((n) => ({ flag, path: join(out, n) }));
}
