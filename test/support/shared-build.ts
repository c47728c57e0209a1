/**
 * Build generated material once per machine and share it between test files: a directory lock
 * keeps parallel test processes from building it twice; a failed build is removed.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function sharedBuild<T>(name: string, build: (out: string) => Promise<T>): Promise<T> {
  const out = join(tmpdir(), name);
  const lock = `${out}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await build(out);
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  } finally {
    if (existsSync(lock)) rmSync(lock, { recursive: true, force: true });
  }
}
