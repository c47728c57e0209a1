/**
 * A counting semaphore: at most `limit` holders at once, served first come first served. A release
 * hands its slot straight to the oldest waiter (the count never drops in between), so an `acquire`
 * made in the same tick as a `release` waits its turn instead of slipping in beside the waiter.
 * An aborted waiter leaves the queue without taking a slot.
 */

import { InternalError } from '../errors.js';
import { abortReason } from './abort.js';

interface Waiter {
  grant: () => void;
}

export class Semaphore {
  private held = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new InternalError(`semaphore limit must be ≥ 1, got ${limit}`);
  }

  /** Holders right now (for tests and progress). */
  get active(): number {
    return this.held;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Wait for a slot; resolves to its release function (idempotent). Rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.held < this.limit && this.queue.length === 0) {
      this.held++;
      return Promise.resolve(this.releaser());
    }
    return new Promise<() => void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(w);
        if (i >= 0) this.queue.splice(i, 1);
        reject(abortReason(signal!));
      };
      const w: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      this.queue.push(w);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Run `fn` holding a slot. */
  async use<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // the slot passes to the next waiter as it is: `held` stays the same
      if (next) next.grant();
      else this.held--;
    };
  }
}
