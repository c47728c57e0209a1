/**
 * Size limits on input, far above any real file, so that a damaged or hostile one (a sparse 2 GB
 * file, a small `.zst` that expands to gigabytes) is bad input naming the file — quickly and in
 * bounded memory — instead of a crash.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { BadInputError, errnoCode, messageOf } from '../errors.js';

/** Longest line of a JSON Lines file (64 MiB; the longest real line is a few MB). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Largest file read whole: configs, readers, summaries, prompts (64 MiB). */
export const MAX_WHOLE_FILE_BYTES = 64 * 1024 * 1024;

export function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/**
 * The bytes of a regular file read whole, refused past `max` bytes: the size is checked from the
 * open file's stat before anything is read, and the read itself stops at `max + 1` bytes, so a file
 * that grows meanwhile is capped too. A FIFO, a device (`/dev/zero`) or a folder is refused before
 * any read: such a file has no size to check and may never end.
 */
export function readCappedFile(
  file: string,
  opts: { max?: number; missing?: string; what?: string } = {},
): Buffer {
  const max = opts.max ?? MAX_WHOLE_FILE_BYTES;
  const what = opts.what ?? 'files read whole';
  let fd: number | undefined;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not wait; the stat below then refuses it
    fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new BadInputError('is a folder, not a file', { file });
    if (!st.isFile())
      throw new BadInputError('not a regular file (a FIFO, socket or device is not read)', { file });
    if (st.size > max)
      throw new BadInputError(`too large (${mib(st.size)}; ${what} are limited to ${mib(max)})`, { file });
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(
        Math.min(Math.max(st.size + 1 - total, 1 << 16), max + 1 - total, 1 << 20),
      );
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > max) throw new BadInputError(`too large (${what} are limited to ${mib(max)})`, { file });
    }
    return Buffer.concat(chunks, total);
  } catch (e) {
    if (e instanceof BadInputError) throw e;
    const code = errnoCode(e);
    throw new BadInputError(
      code === 'ENOENT' ? (opts.missing ?? 'no such file') : `cannot read (${code ?? messageOf(e)})`,
      { file },
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The text of a file read whole, refused past `max` bytes before anything is read (see
 * `readCappedFile`). A missing file says "no such file" (or `missing` when given), an unreadable
 * one its error code.
 */
export function readTextFile(file: string, opts: { max?: number; missing?: string } = {}): string {
  return readCappedFile(file, opts).toString('utf8');
}
