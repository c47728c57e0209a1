/**
 * The lock between processes (src/store/dir-lock.ts): exclusive create naming its holder (pid,
 * host, time), the stale rule (pid dead on this host; another host's lock untouched for staleMs;
 * an unreadable record older than 10 s), two real processes that never hold it at once, a holder
 * killed mid-work taken over at once, a live holder named in the error, and the older directory
 * format still honoured.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isStale, readHolder, withDirLock } from '../../src/store/dir-lock.js';
import { tempDir } from '../support/paths.js';

const DIST_LOCK = pathToFileURL(resolve(import.meta.dirname, '../../dist/store/dir-lock.js')).href;

/**
 * A real node process that takes `lock` `times` times, each time writing "in <pid>" and
 * "out <pid>" to `log` around a 150 ms hold; with `hold`, it takes it once, prints "held" and
 * waits to be killed.
 */
function locker(lock: string, log: string, opts: { times?: number; hold?: boolean } = {}): ChildProcess {
  const script = `
    import { appendFileSync } from 'node:fs';
    const { withDirLock } = await import(${JSON.stringify(DIST_LOCK)});
    const lock = ${JSON.stringify(lock)}, log = ${JSON.stringify(log)};
    if (${Boolean(opts.hold)}) {
      await withDirLock(lock, async () => { console.log('held'); await new Promise(() => setInterval(() => {}, 1000)); });
    }
    for (let i = 0; i < ${opts.times ?? 0}; i++)
      await withDirLock(lock, async () => {
        appendFileSync(log, 'in ' + process.pid + '\\n');
        await new Promise((r) => setTimeout(r, 150));
        appendFileSync(log, 'out ' + process.pid + '\\n');
      });
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => c.on('close', r));
const held = (c: ChildProcess) =>
  new Promise<void>((r) => c.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && r()));

describe('the lock between processes', () => {
  it('is never held by two real processes at once', async () => {
    const dir = tempDir();
    const lock = join(dir, 'a.lock');
    const log = join(dir, 'log');
    writeFileSync(log, '');
    const kids = [locker(lock, log, { times: 4 }), locker(lock, log, { times: 4 })];
    expect(await Promise.all(kids.map(exited))).toEqual([0, 0]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(16);
    for (let i = 0; i < lines.length; i += 2) {
      const pid = lines[i]!.split(' ')[1];
      expect([lines[i], lines[i + 1]]).toEqual([`in ${pid}`, `out ${pid}`]);
    }
    expect(new Set(lines.map((l) => l.split(' ')[1])).size).toBe(2);
    expect(existsSync(lock)).toBe(false);
  });

  it('names its holder, and a live holder on this host is an error naming it', async () => {
    const dir = tempDir();
    const lock = join(dir, 'b.lock');
    const kid = locker(lock, join(dir, 'log'), { hold: true });
    await held(kid);
    const h = readHolder(lock);
    expect(h).toMatchObject({ pid: kid.pid, host: hostname() });
    expect(isStale(lock, 1)).toBe(false); // alive on this host: never stale by age
    await expect(withDirLock(lock, async () => 'ran', { staleMs: 300 })).rejects.toThrow(
      `held for over 300 ms by pid ${kid.pid} on ${hostname()} since ${new Date(h!.since).toISOString()}`,
    );
    kid.kill('SIGKILL');
    await exited(kid);
  });

  it('issue 55 item 14: a lock held by a live unrelated pid is said at once — who, since when, how to clear it', async () => {
    const lock = join(tempDir(), 'c.lock');
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const since = Date.now() - 5_000;
      writeFileSync(lock, JSON.stringify({ pid: sleeper.pid, host: hostname(), since, token: 'unrelated' }));
      const told: string[] = [];
      await expect(
        withDirLock(lock, async () => 'ran', { staleMs: 300, onWait: (m) => told.push(m) }),
      ).rejects.toThrow(`if no such run is going on, remove ${lock}`);
      expect(told).toHaveLength(1);
      expect(told[0]).toContain(
        `held by pid ${sleeper.pid} on ${hostname()} since ${new Date(since).toISOString()}`,
      );
      expect(told[0]).toContain(`remove ${lock}`);
    } finally {
      sleeper.kill();
    }
  });

  it('takes over at once from a holder killed mid-work', async () => {
    const dir = tempDir();
    const lock = join(dir, 'c.lock');
    const kid = locker(lock, join(dir, 'log'), { hold: true });
    await held(kid);
    kid.kill('SIGKILL');
    await exited(kid);
    expect(readHolder(lock)?.pid).toBe(kid.pid); // left behind
    expect(isStale(lock, 60_000)).toBe(true);
    expect(await withDirLock(lock, async () => readHolder(lock)?.pid, { staleMs: 60_000 })).toBe(process.pid);
    expect(existsSync(lock)).toBe(false);
  });

  it("judges another host's holder by the lock's last touch, and an unreadable record by the file's age", () => {
    const dir = tempDir();
    const lock = join(dir, 'd.lock');
    const since = Date.now() - 3_600_000; // taken an hour ago: its age alone says nothing
    writeFileSync(lock, JSON.stringify({ pid: 1, host: `not-${hostname()}`, since, token: 't' }));
    expect(isStale(lock, 60_000)).toBe(false); // touched just now
    const touched = new Date(Date.now() - 5_000);
    utimesSync(lock, touched, touched);
    expect(isStale(lock, 60_000)).toBe(false);
    expect(isStale(lock, 1_000)).toBe(true);
    writeFileSync(lock, ''); // created, not yet written
    expect(isStale(lock, 1_000)).toBe(false);
    const old = new Date(Date.now() - 11_000);
    utimesSync(lock, old, old);
    expect(isStale(lock, 1_000)).toBe(true);
  });

  it('does not release a lock another process took over meanwhile', async () => {
    const lock = join(tempDir(), 'e.lock');
    const theirs = JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now(), token: 'theirs' });
    await withDirLock(lock, async () => writeFileSync(lock, theirs));
    expect(readFileSync(lock, 'utf8')).toBe(theirs);
  });

  it('honours the older directory format: a dead pid is taken over, a live one waited for', async () => {
    const dir = tempDir();
    const dead = join(dir, 'f.lock');
    mkdirSync(dead);
    writeFileSync(join(dead, 'pid'), '2147483646'); // no such process
    expect(await withDirLock(dead, async () => 'ran')).toBe('ran');
    expect(existsSync(dead)).toBe(false);
    const live = join(dir, 'g.lock');
    mkdirSync(live);
    writeFileSync(join(live, 'pid'), String(process.pid));
    await expect(withDirLock(live, async () => 'ran', { staleMs: 300 })).rejects.toThrow(
      `lock ${live} held for over 300 ms by pid ${process.pid}`,
    );
  });
});
