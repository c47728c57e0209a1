/** The worker pool: bounded, ordered, and nothing starts after the first failure or an abort. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/concurrency/abort.js';
import { runPool } from '../../src/concurrency/pool.js';
import { CancelledError, UsageError } from '../../src/errors.js';

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

/** A task of several "calls"; each call checks the signal first, as the judge does. */
interface Plan {
  calls: number[];
  failAt: number | null;
}
const plan: fc.Arbitrary<Plan> = fc.record({
  calls: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 }),
  failAt: fc.option(fc.nat(3), { freq: 4 }),
});

describe('runPool', () => {
  it('keeps at most `concurrency` running; after the first failure or an abort no call starts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(plan, { maxLength: 25 }),
        fc.option(fc.nat(40)),
        async (concurrency, plans, abortAfterCalls) => {
          const outside = new AbortController();
          const log: string[] = [];
          let running = 0;
          let peak = 0;
          let calls = 0;
          let stoppedAt: number | null = null;
          const run = runPool(
            plans,
            async (p, i, signal) => {
              running++;
              peak = Math.max(peak, running);
              if (i === 0 || stoppedAt === null)
                signal.addEventListener('abort', () => {
                  stoppedAt ??= log.length;
                });
              try {
                for (const [k, d] of p.calls.entries()) {
                  if (signal.aborted) throw new CancelledError();
                  log.push(`call ${i}.${k}`);
                  if (abortAfterCalls !== null && ++calls === abortAfterCalls) outside.abort();
                  await ticks(d);
                  if (p.failAt === k) throw new Error(`task ${i} failed`);
                }
                return i;
              } finally {
                running--;
              }
            },
            { concurrency, signal: outside.signal },
          );
          const failing = plans.some((p) => p.failAt !== null && p.failAt < p.calls.length);
          const r = await run.then(
            (v) => ({ ok: true as const, v }),
            (e: Error) => ({ ok: false as const, e }),
          );
          expect(peak).toBeLessThanOrEqual(concurrency);
          // the signal aborts on the first failure (or Ctrl-C); no call starts after that
          if (stoppedAt !== null) expect(log.length).toBe(stoppedAt);
          if (r.ok) {
            expect(stoppedAt).toBeNull();
            expect(r.v.results).toEqual(plans.map((_, i) => i));
          } else {
            expect(failing || outside.signal.aborted).toBe(true);
            expect(r.e.message).toMatch(/failed|cancelled/);
          }
          expect(running).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects with the first failure, not with the cancellations it caused', async () => {
    const started: number[] = [];
    const r = runPool(
      [0, 1, 2, 3, 4, 5],
      async (i, _, signal) => {
        started.push(i);
        if (i === 1) throw new Error('first');
        await sleep(i === 0 ? 5 : 50, signal);
        throw new Error(`later ${i}`);
      },
      { concurrency: 3 },
    );
    await expect(r).rejects.toThrow('first');
    expect(started).toEqual([0, 1, 2]);
  });

  it('canStart false stops starting, lets running tasks finish, and reports the rest as not started', async () => {
    let budget = 3;
    const r = await runPool([10, 11, 12, 13, 14], async (x) => x, {
      concurrency: 2,
      canStart: () => budget-- > 0,
    });
    expect(r.stopped).toBe(true);
    expect(r.results).toEqual([10, 11, 12, undefined, undefined]);
    expect(r.completed).toBe(3);
  });
});

describe('runPool refuses a concurrency it cannot honour', () => {
  it.each([Number.NaN, 0, -1, 0.5])(
    'concurrency %s is a usage error, and no task runs',
    async (concurrency) => {
      let ran = 0;
      await expect(
        runPool(
          [1, 2, 3],
          async () => {
            ran++;
          },
          { concurrency },
        ),
      ).rejects.toBeInstanceOf(UsageError);
      expect(ran).toBe(0);
    },
  );
});
