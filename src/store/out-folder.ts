/**
 * A folder of outputs that appears whole or not at all. The files are written into a staging
 * folder beside the target (`.NAME.PID.RANDOM.partial`, on the same file system); only when every
 * one is written is the staging folder renamed into place — a new target by one rename; an
 * existing one by a swap that keeps the old folder, under `.NAME.PID.RANDOM.old`, until the new
 * one is there (issue 46, item 4: "replacing an existing target is rename-into-place of a complete
 * sibling, keeping the old one until the new one is there"). A failure part-way — a full disk,
 * Ctrl-C, bad input found late — removes the staging folder and leaves the target as it was; files
 * of the target that this run does not write (a judge cache kept there) are kept.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, link, lstat, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errnoCode, UsageError } from '../errors.js';
import { environmentError } from './fs-errors.js';
import { markOwned, OWNER_FILE, ownedAndOrphaned, unmark } from './out-folder-owner.js';
import { type NamedPath, outputFiles, realPath, refuseOverlap } from './path-overlap.js';

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

/** Move what `from` holds into `to`, file by file (the fallback where a folder cannot be swapped). */
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

/** `.NAME.PID.RANDOM.KIND` beside `target`: a staging folder or an old folder set aside. */
function sibling(target: string, kind: 'partial' | 'old', tag: string): string {
  return join(dirname(target), `.${basename(target)}.${tag}.${kind}`);
}

const newTag = () => `${process.pid}.${randomBytes(8).toString('hex')}`;

/**
 * What a run that died part-way left beside `target`, put right: an old folder set aside whose
 * replacement never arrived is renamed back to `target`; one whose replacement is in place, and
 * every staging folder, is removed. Only folders this program made (their owner record, see
 * out-folder-owner.ts) whose maker is gone are touched; a look-alike name is left alone.
 */
export async function recoverOutputFolder(target: string): Promise<void> {
  const parent = dirname(target);
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return; // no parent yet: nothing left over
  }
  const left = names
    .map((n) => ({ n, m: /^(\d+)\.([0-9a-f]+)\.(partial|old)$/.exec(n.slice(prefix.length)) }))
    .filter((x) => x.n.startsWith(prefix) && x.m && ownedAndOrphaned(join(parent, x.n), x.m[2]!));
  for (const { n } of left.filter((x) => x.m![3] === 'old')) {
    const old = join(parent, n);
    if (!existsSync(target))
      try {
        await rename(old, target);
        await unmark(target);
        continue;
      } catch (e) {
        throw environmentError(e, target, `cannot restore it from ${old}`);
      }
    await rm(old, { recursive: true, force: true });
  }
  for (const { n } of left.filter((x) => x.m![3] === 'partial'))
    await rm(join(parent, n), { recursive: true, force: true });
}

/**
 * Give `stage` what `target` holds and this run does not write — a judge cache kept there, files
 * of other runs — as hard links (no copy, no space), recursing into folders both hold.
 */
export async function carryOver(
  target: string,
  stage: string,
  replaces?: (name: string) => boolean,
): Promise<void> {
  for (const e of await readdir(target, { withFileTypes: true })) {
    // a file of the kind this run writes (an earlier run's frame): not carried, the new set stands
    if (replaces?.(e.name) && !e.isDirectory()) continue;
    const from = join(target, e.name);
    const to = join(stage, e.name);
    let there: Awaited<ReturnType<typeof lstat>> | undefined;
    try {
      there = await lstat(to);
    } catch {
      there = undefined;
    }
    if (there) {
      if (there.isDirectory() && e.isDirectory()) await carryOver(from, to);
      continue; // the run writes it: the new one replaces the old
    }
    if (e.isDirectory()) {
      await mkdir(to);
      await carryOver(from, to);
    } else await link(from, to);
  }
}

/**
 * Step 1 of a replace: the complete `stage` is ready, `target` is renamed aside to
 * `.NAME.PID.RANDOM.old` (kept until the new one is in place). Returns the old folder's path.
 */
export async function setAside(target: string, tag = newTag()): Promise<string> {
  const old = sibling(target, 'old', tag);
  await markOwned(target, tag);
  try {
    await rename(target, old);
  } catch (e) {
    await unmark(target);
    throw e;
  }
  return old;
}

/**
 * Step 2: `stage` renamed to `target`, then anything that appeared in `old` after the carry-over
 * (another process writing there meanwhile) moved across, and `old` removed.
 */
export async function putInPlace(
  stage: string,
  target: string,
  old: string,
  replaces?: (name: string) => boolean,
): Promise<void> {
  await rename(stage, target);
  await unmark(target);
  for (const e of await readdir(old, { withFileTypes: true }))
    if (e.name !== OWNER_FILE && !replaces?.(e.name) && !existsSync(join(target, e.name)))
      await rename(join(old, e.name), join(target, e.name));
  await rm(old, { recursive: true, force: true });
}

/** Where a folder cannot be swapped (a mount point, no hard links): file by file. */
const NO_SWAP = new Set(['EXDEV', 'EPERM', 'EACCES', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'EBUSY']);

/** Put the complete `stage` in place of `target`: a rename when it is new, else the swap above. */
async function place(stage: string, target: string, replaces?: (name: string) => boolean): Promise<void> {
  if (!existsSync(target)) {
    try {
      await rename(stage, target);
      return;
    } catch (e) {
      throw environmentError(e, target, 'cannot move into place');
    }
  }
  let old: string;
  try {
    await chmod(stage, (await stat(target)).mode & 0o7777); // the folder keeps its permissions
    await carryOver(target, stage, replaces);
    old = await setAside(target);
  } catch (e) {
    if (!NO_SWAP.has(errnoCode(e) ?? '')) throw environmentError(e, target, 'cannot replace');
    await moveInto(stage, target);
    return;
  }
  try {
    await putInPlace(stage, target, old, replaces);
  } catch (e) {
    // the new folder could not be put there: the old one goes back
    if (!existsSync(target))
      await rename(old, target).then(
        () => unmark(target),
        () => undefined,
      );
    throw environmentError(e, target, 'cannot move into place');
  }
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, rel), { withFileTypes: true }))
    if (e.isDirectory()) out.push(...(await filesUnder(dir, join(rel, e.name))));
    else out.push(join(rel, e.name));
  return out;
}

/**
 * Run `write` on a fresh staging folder beside `out`, then put it in place of `out`: renamed there
 * when `out` is new; else `out`'s other files are carried into it (hard links), `out` is set aside,
 * the new folder renamed in, and the old one removed — at every moment either the old or the new
 * folder is whole at a known name, and the next run restores or removes what a crash left
 * (`recoverOutputFolder`). Returns what `write` returns; the paths `write` reports should be
 * mapped with `placed`. On any failure the staging folder is removed and `out` is untouched.
 * `reads`: the run's inputs; one that a file written here would replace is refused (exit 2)
 * before anything is moved.
 */
export async function writeOutputFolder<T>(
  out: string,
  write: (stage: string) => Promise<T>,
  opts: {
    reads?: readonly NamedPath[];
    /** Names (top level) of the files this command writes: an earlier run's are not carried over. */
    replaces?: (name: string) => boolean;
  } = {},
): Promise<T> {
  const target = realPath(out);
  refuseFile(out, `${out} is a file, not a folder`);
  const parent = dirname(target);
  try {
    await mkdir(parent, { recursive: true });
  } catch (e) {
    throw environmentError(e, parent, 'cannot make the folder');
  }
  await recoverOutputFolder(target);
  const tag = newTag();
  const stage = sibling(target, 'partial', tag);
  try {
    try {
      await mkdir(stage);
      await markOwned(stage, tag);
    } catch (e) {
      throw environmentError(e, parent, 'cannot write in the folder');
    }
    const r = await write(stage);
    await unmark(stage);
    if (opts.reads)
      refuseOverlap({
        reads: opts.reads,
        writes: outputFiles(out, await filesUnder(stage)),
      });
    await place(stage, target, opts.replaces);
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
 * of `dirs` (a merge's shard folders) or inside one: a merge reads its shards whole.
 */
export function outsideShards(out: string, dirs: readonly string[]): string {
  refuseFile(out, `--out ${out} is a file, not a folder`);
  const o = realPath(out);
  const same = dirs.find((d) => realPath(d) === o);
  if (same) throw new UsageError(`--out must not be one of the shard folders (${out} is ${same})`);
  refuseOverlap({
    reads: [],
    writes: [{ flag: '--out', path: out }],
    readsWhole: dirs.map((d) => ({ flag: 'shard', path: d })),
  });
  return resolve(out);
}
