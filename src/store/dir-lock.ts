/**
 * A lock between processes on one machine: a directory made with `mkdir` (atomic) that holds its
 * owner's pid. A lock whose owner is gone (a process killed mid-work) is stale and taken over at
 * once; a lock held by a live process for longer than `staleMs` is an error naming the lock,
 * never an endless wait.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendError, errnoCode } from '../errors.js';
import { readTextFile } from './limits.js';

function ownerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readTextFile(join(lock, 'pid'), { max: 64 }));
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
    return errnoCode(e) === 'EPERM';
  }
}

async function acquire(lock: string, staleMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e;
    }
    if (!ownerAlive(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > staleMs)
      throw new BackendError(`lock ${lock} held for over ${staleMs} ms by a live process`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Run `work` holding the lock `lock` (a path; made as a directory). */
export async function withDirLock<T>(
  lock: string,
  work: () => Promise<T>,
  opts: { staleMs?: number } = {},
): Promise<T> {
  await acquire(lock, opts.staleMs ?? 30 * 60_000);
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
