/**
 * Cancellation and failure in the judge, against the real emulator on 127.0.0.1: the retry
 * back-off ends on abort, a failing cache write is the caller's error (never an unhandled
 * rejection), and a pool's first failure stops every other task before its next call.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPool } from '../../src/concurrency/pool.js';
import { CancelledError } from '../../src/errors.js';
import { emulatorJudge } from '../support/emulator.js';
import { imagePool, question } from '../support/judge-questions.js';
import { tempDir } from '../support/paths.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup(...args: Parameters<typeof emulatorJudge>) {
  const s = await emulatorJudge(...args);
  closers.push(() => s.close());
  return s;
}

/** Resolve once the emulator has logged `n` requests (polled on the event loop, no fixed sleep). */
async function logged(emu: { log: unknown[] }, n: number): Promise<void> {
  while (emu.log.length < n) await new Promise((r) => setImmediate(r));
}

describe('cancellation', () => {
  it('an abort during the retry back-off ends the wait at once, with no further request', async () => {
    // 500 on every request and a back-off of ten minutes: only the abort can end this
    const s = await setup(
      { faults: { rate: 1, kinds: ['http500'] } },
      { backoffBaseMs: 600_000, backoffCapMs: 600_000, maxRetries: 3 },
    );
    const ac = new AbortController();
    const asked = s.judge.ask(question(0, await imagePool()), ac.signal);
    await logged(s.emu, 1);
    ac.abort();
    await expect(asked).rejects.toBeInstanceOf(CancelledError);
    expect(s.emu.log.map((l) => l.status)).toEqual([500]);
  });

  it('a cache write that fails rejects the question (no unhandled rejection)', async () => {
    const s = await setup({ latencyMs: 20 }, {}, join(tempDir('cancel-cache'), 'cache.sqlite'));
    const asked = s.judge.ask(question(1, await imagePool()));
    s.cache!.close(); // the write after the reply now fails
    closers.pop();
    closers.push(async () => {
      await s.judge.close();
      await s.emu.close();
    });
    await expect(asked).rejects.toThrow();
    expect(s.emu.log).toHaveLength(1);
  });

  it('after the first failure in a pool, no other task makes another call', async () => {
    const s = await setup({ latencyMs: 5 }, { concurrency: 4 });
    const images = await imagePool();
    let failed = false;
    let callsAtFailure = 0;
    const startedAfter: number[] = [];
    const run = runPool(
      Array.from({ length: 12 }, (_, i) => i),
      async (task, _i, signal) => {
        if (failed) startedAfter.push(task);
        const judge = s.judge.withSignal(signal);
        // each task asks several questions in turn, like an insertion walking a chain
        for (let k = 0; k < 4; k++) {
          await judge.ask(question(task * 10 + k, images));
          if (task === 2 && k === 1) {
            failed = true;
            callsAtFailure = s.judge.stats.calls;
            throw new Error('task 2 failed');
          }
        }
      },
      { concurrency: 4 },
    );
    await expect(run).rejects.toThrow('task 2 failed');
    // whatever the interleaving on a loaded machine: no task started after the failure, and the only
    // calls answered after it are the ones then on the wire (at most one per other running task)
    expect(startedAfter).toEqual([]);
    expect(s.judge.stats.calls - callsAtFailure).toBeLessThanOrEqual(3);
    expect(s.judge.stats.calls).toBeLessThan(16);
    // calls on the wire when the failure came were finished, not cut off
    expect(s.emu.log.every((l) => l.status === 200)).toBe(true);
    expect(s.emu.log).toHaveLength(s.judge.stats.calls);
  });
});
