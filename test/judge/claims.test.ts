/**
 * Two processes on one cache do not pay twice: a question is claimed before it is asked, and the
 * other process waits for that answer. Counted by the emulator's own request log; the claimant
 * killed with SIGKILL → its claims lapse after their lease and the other process asks.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JudgeCache } from '../../src/judge/cache.js';
import { type Emulator, startEmulator } from '../../src/synthetic/emulator/server.js';
import { ROOT, tempDir } from '../support/paths.js';

const emulators: Emulator[] = [];
afterAll(async () => {
  for (const e of emulators) await e.close();
});

function driver(cache: string, url: string, n: number, leaseS = 1) {
  const p = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'support', 'judge-driver.ts'), cache, url, String(n)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KFBENCH_CLAIM_LEASE_S: String(leaseS) },
    },
  );
  let out = '';
  let err = '';
  p.stdout.on('data', (c: Buffer) => {
    out += c;
  });
  p.stderr.on('data', (c: Buffer) => {
    err += c;
  });
  const done = new Promise<{ code: number | null; stats: Record<string, number>; err: string }>((resolve) =>
    p.on('close', (code) => {
      const last = out.trim().split('\n').pop();
      resolve({ code, stats: last ? JSON.parse(last) : {}, err });
    }),
  );
  return { p, done };
}

/** Resolve once the emulator has logged `n` requests (checked as requests arrive). */
async function requestsArrived(e: Emulator, n: number): Promise<void> {
  while (e.log.length < n) await new Promise((r) => setImmediate(r));
}

describe('in-flight claims in the judge cache', () => {
  it('two identical runs started together: every question is asked once in all', async () => {
    const file = join(tempDir(), 'c.sqlite');
    const e = await startEmulator({ latencyMs: 5 });
    emulators.push(e);
    const a = driver(file, e.url, 120, 30);
    const b = driver(file, e.url, 120, 30);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.err).toBe(0);
    expect(rb.code, rb.err).toBe(0);
    expect(e.log.length).toBe(120); // counted by the emulator itself
    expect((ra.stats.calls ?? 0) + (rb.stats.calls ?? 0)).toBe(120);
    expect((ra.stats.answered ?? 0) + (rb.stats.answered ?? 0)).toBe(240);
    const c = new JudgeCache(file);
    expect(c.stats().rows).toBe(120);
    expect((c.db.prepare('SELECT COUNT(*) AS n FROM judge_claims').get() as { n: number }).n).toBe(0);
    c.close();
  });

  it('kill -9 of the claiming process: the other asks each of its questions once the lease lapses', async () => {
    const file = join(tempDir(), 'c.sqlite');
    const e = await startEmulator({ latencyMs: 5000 }); // the first process's requests hang
    emulators.push(e);
    const a = driver(file, e.url, 20, 1);
    await requestsArrived(e, 16); // its 16 connections are asking; all 20 questions are claimed
    const c = new JudgeCache(file);
    const claims = c.db.prepare('SELECT owner, expires FROM judge_claims').all() as {
      owner: string;
      expires: number;
    }[];
    c.close();
    expect(claims).toHaveLength(20);
    // live leases when the process dies: the second run can only ask once they lapse
    expect(Math.min(...claims.map((x) => x.expires))).toBeGreaterThan(Date.now());
    expect(new Set(claims.map((x) => x.owner.split(':')[1]))).toEqual(new Set([String(a.p.pid)]));
    a.p.kill('SIGKILL');
    await a.done;
    e.setLatency(0);
    const before = e.log.length;
    const b = await driver(file, e.url, 20, 1).done;
    expect(b.code, b.err).toBe(0);
    expect(b.stats.calls).toBe(20);
    expect(e.log.length - before).toBe(20);
    expect(e.log.slice(before).every((r) => r.status === 200)).toBe(true);
  });
});
