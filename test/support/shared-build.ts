/**
 * Build generated material once per machine and share it between test files: a directory lock
 * (src/store/dir-lock.ts) keeps parallel test processes from building it twice; a failed build is
 * removed. KFBENCH_TEST_LOCK_MS bounds the wait for a live owner.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDirLock } from '../../src/store/dir-lock.js';

const STALE_MS = Number(process.env.KFBENCH_TEST_LOCK_MS ?? 30 * 60_000);

export async function sharedBuild<T>(name: string, build: (out: string) => Promise<T>): Promise<T> {
  const out = join(tmpdir(), name);
  return withDirLock(
    `${out}.lock`,
    async () => {
      try {
        return await build(out);
      } catch (e) {
        rmSync(out, { recursive: true, force: true });
        throw e;
      }
    },
    { staleMs: STALE_MS },
  );
}
