/** The rate limiter on a fake clock: pacing, the token estimate corrected from usage, Retry-After pauses. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/concurrency/rate.js';
import { CancelledError } from '../../src/errors.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** When each of `n` takes is let go (fake ms), in the order they were asked. */
async function startTimes(
  l: RateLimiter,
  costs: number[],
  settle?: (i: number) => number,
): Promise<number[]> {
  const t0 = performance.now();
  const at: number[] = [];
  const all = costs.map((c, i) =>
    l.take(c).then((t) => {
      at[i] = performance.now() - t0;
      if (settle) t.settle(settle(i));
    }),
  );
  await vi.advanceTimersByTimeAsync(60_000);
  await Promise.all(all);
  return at;
}

describe('RateLimiter', () => {
  it('--rpm 60: one request a second, in the order asked, never two at once', async () => {
    expect(await startTimes(new RateLimiter({ rpm: 60 }), [1, 1, 1, 1])).toEqual([0, 1000, 2000, 3000]);
  });

  it('--tpm: paced by the estimate, then by the usage the reply reports', async () => {
    // 6,000 tokens a minute = 100 a second; each call estimated at 200 tokens
    expect(await startTimes(new RateLimiter({ tpm: 6000 }), [200, 200, 200])).toEqual([0, 2000, 4000]);
    // the replies say 100 tokens each: every call frees the second it was over-charged
    expect(await startTimes(new RateLimiter({ tpm: 6000 }), [200, 200, 200], () => 100)).toEqual([
      0, 1000, 2000,
    ]);
  });

  it('a Retry-After pauses every caller; no limits means no wait', async () => {
    const l = new RateLimiter({});
    l.pause(5000);
    expect(await startTimes(l, [1, 1])).toEqual([5000, 5000]);
    expect(await startTimes(new RateLimiter({}), [1, 1, 1])).toEqual([0, 0, 0]);
  });

  it('an aborted wait rejects at once and does not hold up the line', async () => {
    const l = new RateLimiter({ rpm: 60 });
    await l.take(1);
    const ac = new AbortController();
    const waiting = l.take(1, ac.signal);
    ac.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    const next = l.take(1);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(next).resolves.toBeDefined();
  });
});

describe('an aborted caller', () => {
  it('queued behind another is rejected when it aborts (at 50 ms), not when its turn comes (2 s)', async () => {
    const l = new RateLimiter({ rpm: 60 }); // one request a second
    await l.take(1); // t = 0
    const second = l.take(1); // t = 1 s
    const c = new AbortController();
    let rejectedAt: number | undefined;
    const t0 = performance.now();
    const third = l.take(1, c.signal).catch((e: unknown) => {
      rejectedAt = performance.now() - t0;
      return e;
    });
    await vi.advanceTimersByTimeAsync(50);
    c.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(rejectedAt).toBe(50);
    expect(await third).toBeInstanceOf(CancelledError);
    await vi.advanceTimersByTimeAsync(1000);
    await second;
    // the aborted caller took no slot: the next one starts a second after the second, not two
    const t1 = performance.now();
    let fourthAt: number | undefined;
    const fourth = l.take(1).then(() => {
      fourthAt = performance.now() - t1;
    });
    await vi.advanceTimersByTimeAsync(3000);
    await fourth;
    expect(fourthAt).toBeLessThanOrEqual(1000);
  });

  it('an already-aborted signal is rejected at once and gets no ticket', async () => {
    const l = new RateLimiter({ rpm: 60 });
    const c = new AbortController();
    c.abort();
    await expect(l.take(1, c.signal)).rejects.toBeInstanceOf(CancelledError);
    // the slot at t = 0 is still free
    let at: number | undefined;
    const t0 = performance.now();
    const p = l.take(1).then(() => {
      at = performance.now() - t0;
    });
    await vi.advanceTimersByTimeAsync(0);
    await p;
    expect(at).toBe(0);
  });
});
