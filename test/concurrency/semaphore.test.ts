/** The FIFO semaphore: random interleavings of acquire, release and ticks never exceed the limit. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../../src/concurrency/semaphore.js';
import { CancelledError } from '../../src/errors.js';

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

type Op = { kind: 'acquire' } | { kind: 'release'; pick: number } | { kind: 'tick' };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ kind: 'acquire' }),
  fc.nat(50).map<Op>((pick) => ({ kind: 'release', pick })),
  fc.constant<Op>({ kind: 'tick' }),
);

describe('Semaphore', () => {
  it('never has more holders than its limit, grants in FIFO order, and grants every waiter in the end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(op, { maxLength: 60 }),
        async (limit, ops) => {
          const sem = new Semaphore(limit);
          const holders: { id: number; release: () => void }[] = [];
          const granted: number[] = [];
          let peak = 0;
          let n = 0;
          const acquire = () => {
            const id = n++;
            void sem.acquire().then((release) => {
              holders.push({ id, release });
              granted.push(id);
              peak = Math.max(peak, holders.length);
            });
          };
          for (const o of ops) {
            if (o.kind === 'acquire') acquire();
            else if (o.kind === 'tick') await flush();
            else if (holders.length) {
              // release, then acquire in the same tick: the old semaphore let the newcomer in beside the waiter
              holders.splice(o.pick % holders.length, 1)[0]!.release();
              acquire();
            }
            expect(holders.length).toBeLessThanOrEqual(limit);
          }
          for (let guard = 0; guard < 1000 && granted.length < n; guard++) {
            await flush();
            holders.shift()?.release();
          }
          await flush();
          expect(peak).toBeLessThanOrEqual(limit);
          expect(granted).toEqual([...granted].sort((a, b) => a - b));
          expect(granted.length).toBe(n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a limit of 1 admits one holder when a release and an acquire happen in the same tick', async () => {
    const sem = new Semaphore(1);
    const first = await sem.acquire();
    let inside = 1;
    let peak = 1;
    const enter = () =>
      sem.acquire().then((r) => {
        peak = Math.max(peak, ++inside);
        return r;
      });
    const waiter = enter();
    first();
    inside--;
    const newcomer = enter();
    await flush();
    expect(peak).toBe(1);
    (await waiter)();
    inside--;
    (await newcomer)();
    expect(sem.active).toBe(0);
  });

  it('an aborted waiter leaves the queue without taking the slot', async () => {
    const sem = new Semaphore(1);
    const held = await sem.acquire();
    const ac = new AbortController();
    const gone = sem.acquire(ac.signal);
    const next = sem.acquire();
    ac.abort();
    await expect(gone).rejects.toBeInstanceOf(CancelledError);
    held();
    (await next)();
    expect(sem.active).toBe(0);
    expect(sem.waiting).toBe(0);
  });
});
