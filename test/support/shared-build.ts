/**
 * Build generated material once per machine and share it between test files: a directory lock
 * keeps parallel test processes from building it twice; a failed build is removed.
 *
 * The lock holds the owner's pid. A lock whose owner is gone (a run killed mid-build) is stale:
 * it is taken over at once. A lock held by a live process longer than STALE_MS is an error that
 * names the lock, never an endless wait.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STALE_MS = Number(process.env.KFBENCH_TEST_LOCK_MS ?? 30 * 60_000);

function ownerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // the owner has made the folder but not yet written its pid: young locks count as alive
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function acquire(lock: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!ownerAlive(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > STALE_MS)
      throw new Error(`shared build lock ${lock} held for over ${STALE_MS} ms by a live process`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function sharedBuild<T>(name: string, build: (out: string) => Promise<T>): Promise<T> {
  const out = join(tmpdir(), name);
  const lock = `${out}.lock`;
  await acquire(lock);
  try {
    return await build(out);
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  } finally {
    if (existsSync(lock)) rmSync(lock, { recursive: true, force: true });
  }
}
