/**
 * --rpm / --tpm against the emulator playing a hosted API that answers 429 above its rate: no call
 * is lost without limits (Retry-After), and with the limits set no request is ever refused. The
 * emulator's request log is the evidence — no timing of the test itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/concurrency/rate.js';
import type { EmulatorOptions } from '../../src/synthetic/emulator/server.js';
import type { LoggedRequest } from '../../src/synthetic/emulator/traffic.js';
import { emulatorJudge } from '../support/emulator.js';
import { askMany } from '../support/judge-questions.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function run(
  rateLimit: EmulatorOptions['rateLimit'],
  limits: { rpm?: number; tpm?: number },
  n: number,
) {
  const s = await emulatorJudge(rateLimit ? { rateLimit } : {}, {
    concurrency: 8,
    limiter: new RateLimiter(limits),
    maxRetries: 30,
  });
  closers.push(() => s.close());
  const verdicts = await askMany(s.judge, n);
  return { s, verdicts, statuses: s.emu.log.map((l) => l.status) };
}

/** The most accepted requests in any window of `ms` (from the emulator's own arrival times). */
function peakIn(log: LoggedRequest[], ms: number, value: (l: LoggedRequest) => number = () => 1): number {
  const ok = log.filter((l) => l.status === 200);
  let best = 0;
  for (let i = 0, j = 0, sum = 0; j < ok.length; j++) {
    sum += value(ok[j]!);
    while (ok[j]!.t - ok[i]!.t >= ms) sum -= value(ok[i++]!);
    best = Math.max(best, sum);
  }
  return best;
}

describe('hosted-API rate limits', () => {
  // 600 requests a minute (10/s), bursts of 3
  const rpmServer = { rpm: 600, burst: 3 };

  it('without --rpm: the server refuses some requests with 429, every call is still answered once', async () => {
    const { s, verdicts, statuses } = await run(rpmServer, {}, 20);
    expect(verdicts.every((v) => v.answer)).toBe(true);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((x) => x === 200)).toHaveLength(20);
    expect(s.judge.stats.calls).toBe(20);
    expect(peakIn(s.emu.log, 1000)).toBeLessThanOrEqual(10 + 3);
  });

  it('with --rpm at the server limit: no 429, every call answered, the rate stays under the limit', async () => {
    const { s, verdicts, statuses } = await run(rpmServer, { rpm: 600 }, 20);
    expect(verdicts.every((v) => v.answer)).toBe(true);
    expect(statuses).toEqual(new Array(20).fill(200));
    expect(peakIn(s.emu.log, 1000)).toBeLessThanOrEqual(10 + 3);
  });

  // 600,000 tokens a minute (10,000/s); a question is ≈ 2 images × 258 + its text + 256 reserved for the reply
  const tpmServer = { tpm: 600_000, burstTokens: 2_000 };

  it('without --tpm: 429s; with --tpm at the server limit (estimated, corrected from usage): none', async () => {
    const free = await run(tpmServer, {}, 16);
    expect(free.verdicts.every((v) => v.answer)).toBe(true);
    expect(free.statuses.filter((x) => x === 429).length).toBeGreaterThan(0);
    const limited = await run(tpmServer, { tpm: 600_000 }, 16);
    expect(limited.verdicts.every((v) => v.answer)).toBe(true);
    expect(limited.statuses).toEqual(new Array(16).fill(200));
    expect(peakIn(limited.s.emu.log, 1000, (l) => l.tokens ?? 0)).toBeLessThanOrEqual(10_000 + 2_000);
  });
});
