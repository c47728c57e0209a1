/**
 * Write files atomically: a temp file beside the target, then rename. Nothing half-written; a full
 * disk or a folder that is not writable is an EnvironmentError naming the file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { environmentError } from './fs-errors.js';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw environmentError(e, dir, 'cannot make the folder');
  }
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw environmentError(e, path);
  }
}
