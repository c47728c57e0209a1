/**
 * A folder of outputs that appears whole or not at all. The files are written into a staging
 * folder beside the target (`.NAME.PID.RANDOM.partial`, on the same file system), and only when
 * every one is written are they renamed into the target, one by one (a rename neither copies nor
 * needs space). A failure part-way — a full disk, Ctrl-C, bad input found late — removes the
 * staging folder and leaves the target as it was; files of the target that this run does not
 * write (a judge cache kept there) are left alone.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { environmentError } from './fs-errors.js';

/**
 * A file a command writes into its output folder, as the writer names it: `--help` and
 * docs/cli.md list these (src/cli/folder-files.ts), and the writer uses the same names.
 */
export interface FolderFile {
  /** Its path in the folder; `<…>` stands for a part that varies (`<frame>.jpg`), a trailing `/` for a folder of files. */
  name: string;
  /** What it holds, in a few words. */
  what: string;
  /** Written only in this case (otherwise always). */
  when?: string;
}

/**
 * The real path a path names or would name: symbolic links of the part that exists resolved, the
 * rest appended. Two paths are the same folder exactly when their real paths are equal.
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
export function isWithin(inner: string, outer: string): boolean {
  const i = realPath(inner);
  const o = realPath(outer);
  return i === o || i.startsWith(o.endsWith(sep) ? o : `${o}${sep}`);
}

async function moveInto(from: string, to: string): Promise<void> {
  for (const e of await readdir(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory() && existsSync(dst) && (await stat(dst)).isDirectory()) await moveInto(src, dst);
    else
      try {
        await rename(src, dst);
      } catch (err) {
        throw environmentError(err, dst, 'cannot move into place');
      }
  }
}

/**
 * Run `write` on a fresh staging folder beside `out`, then move what it wrote into `out` (made if
 * absent). Returns what `write` returns; the paths `write` reports should be mapped with
 * `placed`. On any failure the staging folder is removed and `out` is untouched.
 */
export async function writeOutputFolder<T>(out: string, write: (stage: string) => Promise<T>): Promise<T> {
  const target = realPath(out);
  refuseFile(out, `${out} is a file, not a folder`);
  const parent = dirname(target);
  try {
    await mkdir(parent, { recursive: true });
  } catch (e) {
    throw environmentError(e, parent, 'cannot make the folder');
  }
  const stage = join(parent, `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  try {
    try {
      await mkdir(stage);
    } catch (e) {
      throw environmentError(e, parent, 'cannot write in the folder');
    }
    const r = await write(stage);
    try {
      await mkdir(target, { recursive: true });
    } catch (e) {
      throw environmentError(e, target, 'cannot make the folder');
    }
    await moveInto(stage, target);
    return r;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** A path under the staging folder as it is after the move: under `out`. */
export function placed(stage: string, out: string, p: string): string {
  return p.startsWith(stage) ? join(resolve(out), p.slice(stage.length)) : p;
}

/**
 * A usage error (exit 2) when `out` is an existing file (or anything but a folder): the outputs are
 * a folder, and a file there is the user's, not ours to replace. Before any work is done.
 */
function refuseFile(out: string, what: string): void {
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(out);
  } catch {
    return; // absent (made later) or unreachable (the write names it)
  }
  if (!st.isDirectory())
    throw new UsageError(`${what} (the outputs are a folder of files): give a folder, new or existing`);
}

/**
 * `out` resolved, refused when it is an existing file, or — by its real path, links followed — one
 * of `dirs` (a merge's shard folders).
 */
export function outsideShards(out: string, dirs: readonly string[]): string {
  refuseFile(out, `--out ${out} is a file, not a folder`);
  const o = realPath(out);
  const same = dirs.find((d) => realPath(d) === o);
  if (same) throw new UsageError(`--out must not be one of the shard folders (${out} is ${same})`);
  return resolve(out);
}
