/**
 * A file an evaluation folder's record lists, confined to that folder: a link or an entry that
 * leads outside it, or anything but a regular file, is refused before it is opened.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { BadInputError, errnoCode, messageOf } from '../errors.js';

/** What a file is when it is not a regular file (stat's view: links followed). */
function kindOf(st: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  return st.isDirectory() ? 'a folder' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
}

/**
 * The file `name` (an entry of `listedIn`, a file of folder `dir`) names, confined to `dir`: its
 * real path (links resolved) must lie inside `dir`'s and be a regular file, or it is refused in
 * one line naming `listedIn` and the entry — before anything is opened, so a FIFO never blocks
 * the run, a device (`../../dev/zero`) is never read and a file outside (`../../etc/shadow`) is
 * never stat'ed for a size the report would show. `undefined` when nothing is at that path.
 */
export async function listedFileIn(
  dir: string,
  name: string,
  listedIn: string,
): Promise<{ path: string; bytes: number } | undefined> {
  const refuse = (why: string) =>
    new BadInputError(`entry "${name}" ${why}: an entry must be a regular file inside ${dir}`, {
      file: listedIn,
    });
  const path = resolve(dir, name);
  const inside = (p: string, root: string) => {
    const r = relative(root, p);
    return r !== '' && !r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r);
  };
  if (isAbsolute(name) || !inside(path, resolve(dir))) throw refuse('names a path outside the folder');
  let real: string;
  try {
    real = await realpath(path);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined;
    throw refuse(`cannot be resolved (${errnoCode(e) ?? messageOf(e)})`);
  }
  if (!inside(real, await realpath(dir))) throw refuse('is a link to a path outside the folder');
  const st = await stat(real);
  if (!st.isFile()) throw refuse(`is ${kindOf(st)}, not a regular file`);
  return { path, bytes: st.size };
}
