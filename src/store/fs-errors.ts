/**
 * The file-system failures that are the machine's, not the input's — a full disk, a folder that
 * is not writable — as one-line errors naming the path (EnvironmentError, exit 4), instead of
 * Node's bare `ENOSPC: no space left on device, write` that names nothing.
 */
import { EnvironmentError, errnoCode, isKfbenchError } from '../errors.js';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for this file system (or the file-size limit)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'a folder on the way does not exist and cannot be made',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'is a folder, not a file',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** The errno codes that EnvironmentError stands for when a file is written. */
function isEnvironmentCode(code: string | undefined): boolean {
  return code !== undefined && code in REASONS;
}

/**
 * `e` as an EnvironmentError naming `path` when it is one of the errno failures above (what was
 * being done: "cannot write", "cannot make the folder"); any other error as it is.
 */
export function environmentError(e: unknown, path: string, doing = 'cannot write'): unknown {
  if (isKfbenchError(e)) return e;
  const code = errnoCode(e);
  if (!isEnvironmentCode(code)) return e;
  return new EnvironmentError(`${doing}: ${REASONS[code!]} (${code})`, { path, cause: e });
}
