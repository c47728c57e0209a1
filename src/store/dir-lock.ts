/**
 * A lock between processes: a file made with `node:fs` exclusive create (`open(…, 'wx')`, atomic
 * on a local file system) that names its holder — `{ pid, host, since, token }` (since: ms since
 * the epoch; token: random, so that a holder releases only its own lock). The one lock of kfbench
 * (the shared test material, `synthetic/build-folder.ts`).
 *
 * The stale rule — a lock is taken over at once when its holder is stale:
 * - the holder is on this host (`os.hostname()`) and its pid is no live process (killed mid-work);
 * - the holder is on another host (a shared folder: its pid cannot be checked) and the lock file
 *   has not been touched for `staleMs` (a holder touches it every 4 s while it works);
 * - the record cannot be read (a holder killed between creating and writing it) and the file is
 *   older than 10 s (younger, it counts as held).
 * A live holder on this host is waited for (polled every 200 ms), and `onWait` is told at once who
 * holds it, since when, and how to clear it (issue 55 item 14); after `staleMs` of waiting, a
 * BackendError names the lock and its holder — never an endless wait, and never a second holder
 * beside a live one. Taking over is itself guarded by an exclusive `<lock>.takeover` file (removed
 * when older than 10 s), so two waiters that both find the lock stale cannot remove a fresh one.
 * A lock in the format before this one (a directory holding a pid, made by older checkouts that
 * share the temporary folder) is read as a holder on this host; the 4 s touch also keeps those
 * checkouts, which count a young lock they cannot read as held, waiting.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BackendError, EnvironmentError, errnoCode } from '../errors.js';

/** Who holds a lock. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When it was taken (ms since the epoch). */
  since: number;
  token: string;
}

/** A record whose file is younger than this and unreadable counts as being written. */
const YOUNG_MS = 10_000;
const POLL_MS = 200;
const HEARTBEAT_MS = 4_000;

/**
 * The holder of a lock in the format before this one: a directory holding the holder's pid (a
 * process on this host), still made by older checkouts sharing the machine's temporary folder.
 */
function legacyHolder(lock: string): LockHolder | undefined {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    const since = statSync(lock).mtimeMs;
    return Number.isInteger(pid) ? { pid, host: hostname(), since, token: `dir:${pid}:${since}` } : undefined;
  } catch {
    return undefined;
  }
}

/** The holder written in `lock`, or undefined when the file is missing or not (yet) a record. */
export function readHolder(lock: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch (e) {
    return errnoCode(e) === 'EISDIR' ? legacyHolder(lock) : undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (
      Number.isInteger(h.pid) &&
      typeof h.host === 'string' &&
      typeof h.since === 'number' &&
      typeof h.token === 'string'
    )
      return h as LockHolder;
  } catch {
    // a holder killed between creating and writing the file
  }
  return undefined;
}

function pidAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}

const fileAge = (file: string): number | undefined => {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** Whether the lock's holder is stale (the rule in this file's comment); a missing lock is not. */
export function isStale(lock: string, staleMs: number, h = readHolder(lock)): boolean {
  if (!h) return (fileAge(lock) ?? 0) > YOUNG_MS;
  if (h.host === hostname()) return !pidAlive(h.pid);
  return (fileAge(lock) ?? 0) > staleMs;
}

/** Make the lock file with our record; false when it exists. */
function tryCreate(lock: string, me: LockHolder): boolean {
  try {
    writeFileSync(lock, JSON.stringify(me), { flag: 'wx' });
    return true;
  } catch (e) {
    if (errnoCode(e) === 'EEXIST') return false;
    throw new EnvironmentError('cannot create the lock file', { path: lock, cause: e });
  }
}

/** Remove a stale lock, under the takeover guard, if it still holds the stale record `seen`. */
function takeOver(lock: string, staleMs: number, seen: LockHolder | undefined): void {
  const guard = `${lock}.takeover`;
  if ((fileAge(guard) ?? 0) > YOUNG_MS) rmSync(guard, { force: true });
  const me: LockHolder = { pid: process.pid, host: hostname(), since: Date.now(), token: '' };
  if (!tryCreate(guard, me)) return; // another waiter is taking it over
  try {
    const now = readHolder(lock);
    if (now?.token === seen?.token && isStale(lock, staleMs, now))
      rmSync(lock, { recursive: true, force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

const describeHolder = (h: LockHolder | undefined) =>
  h ? `pid ${h.pid} on ${h.host} since ${new Date(h.since).toISOString()}` : 'a process still writing it';

/** What a waiter is told at once when a live process holds the lock: who, since when, how to clear it. */
function heldMessage(lock: string, h: LockHolder | undefined, staleMs: number): string {
  const ago = h ? ` (${Math.round((Date.now() - h.since) / 1000)} s ago)` : '';
  return `waiting for the lock ${lock}, held by ${describeHolder(h)}${ago}; waiting up to ${Math.round(staleMs / 60_000)} min. If no such run is going on, remove ${lock}`;
}

async function acquire(
  lock: string,
  staleMs: number,
  onWait?: (message: string) => void,
): Promise<LockHolder> {
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    since: Date.now(),
    token: randomBytes(8).toString('hex'),
  };
  const started = Date.now();
  let told = false;
  for (;;) {
    me.since = Date.now();
    if (tryCreate(lock, me)) return me;
    const h = readHolder(lock);
    if (isStale(lock, staleMs, h)) {
      takeOver(lock, staleMs, h);
      continue;
    }
    if (!told) {
      told = true;
      onWait?.(heldMessage(lock, h, staleMs));
    }
    if (Date.now() - started > staleMs)
      throw new BackendError(
        `lock ${lock} held for over ${staleMs} ms by ${describeHolder(h)}; if no such run is going on, remove ${lock}`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Run `work` holding the lock `lock` (a file path; the name is kept from when the lock was a
 * directory). Released when `work` settles, unless another process took it over meanwhile.
 */
export async function withDirLock<T>(
  lock: string,
  work: () => Promise<T>,
  opts: { staleMs?: number; onWait?: (message: string) => void } = {},
): Promise<T> {
  const me = await acquire(lock, opts.staleMs ?? 30 * 60_000, opts.onWait);
  // the file's time kept fresh: a sign of life for another host, and for the older directory
  // format (which counts a young lock it cannot read as held)
  const beat = setInterval(() => {
    try {
      const t = new Date();
      utimesSync(lock, t, t);
    } catch {
      // taken over or removed: the release below leaves it alone
    }
  }, HEARTBEAT_MS);
  beat.unref();
  try {
    return await work();
  } finally {
    clearInterval(beat);
    if (readHolder(lock)?.token === me.token) rmSync(lock, { force: true });
  }
}
