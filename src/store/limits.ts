/**
 * Size limits on input, far above any real file, so that a damaged or hostile one (a sparse 2 GB
 * file, a small `.zst` that expands to gigabytes) is bad input naming the file — quickly and in
 * bounded memory — instead of a crash.
 */
import { readFileSync, statSync } from 'node:fs';
import { BadInputError, errnoCode, messageOf } from '../errors.js';

/** Longest line of a JSON Lines file (64 MiB; the longest real line is a few MB). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Largest file read whole: configs, readers, summaries, prompts (64 MiB). */
export const MAX_WHOLE_FILE_BYTES = 64 * 1024 * 1024;

export function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/**
 * The text of a file read whole, refused past `max` bytes before anything is read. A missing
 * file says "no such file" (or `missing` when given), an unreadable one its error code.
 */
export function readTextFile(file: string, opts: { max?: number; missing?: string } = {}): string {
  const max = opts.max ?? MAX_WHOLE_FILE_BYTES;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new BadInputError('is a folder, not a file', { file });
    if (st.size > max)
      throw new BadInputError(`too large (${mib(st.size)}; files read whole are limited to ${mib(max)})`, {
        file,
      });
    const text = readFileSync(file, 'utf8');
    // a file that grew between stat and read (or a special file with no size) is capped too
    if (Buffer.byteLength(text) > max)
      throw new BadInputError(`too large (files read whole are limited to ${mib(max)})`, { file });
    return text;
  } catch (e) {
    if (e instanceof BadInputError) throw e;
    const code = errnoCode(e);
    throw new BadInputError(
      code === 'ENOENT' ? (opts.missing ?? 'no such file') : `cannot read (${code ?? messageOf(e)})`,
      { file },
    );
  }
}
