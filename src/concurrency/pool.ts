/**
 * The worker pool every scheduler in kfbench uses: run a task per item with at most `concurrency`
 * running, started in item order, results kept in item order (whatever order they finish in).
 *  - The first failure aborts the pool's signal: no further task starts, and tasks already running
 *    see `signal.aborted` (the judge checks it before each call), so they stop before another call.
 *    The pool rejects with that first error once the running tasks have settled.
 *  - An outside abort (Ctrl-C) does the same, rejecting with the signal's reason.
 *  - `canStart` (e.g. a call budget) is asked before each start; `false` stops starting cleanly:
 *    running tasks finish, the rest are reported as not started.
 */
import { setMaxListeners } from 'node:events';
import { UsageError } from '../errors.js';
import { abortReason } from './abort.js';

export interface PoolOptions {
  concurrency: number;
  signal?: AbortSignal | undefined;
  /** Asked before each task starts; false stops starting new tasks (no error). */
  canStart?: () => boolean;
}

export interface PoolResult<R> {
  /** In item order; `undefined` where the task never started. */
  results: (R | undefined)[];
  /** Tasks that ran to completion. */
  completed: number;
  /** `canStart` said no before every item had started. */
  stopped: boolean;
}

export async function runPool<T, R>(
  items: readonly T[],
  task: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  o: PoolOptions,
): Promise<PoolResult<R>> {
  // NaN would start no worker and report every item as done with no result
  if (Number.isNaN(o.concurrency) || !(o.concurrency >= 1))
    throw new UsageError(`concurrency must be a number ≥ 1, got ${o.concurrency}`);
  const limit = Math.floor(o.concurrency);
  const inner = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, inner.signal]) : inner.signal;
  // every task (and every call waiting for a slot) listens to it: that is not a leak
  setMaxListeners(0, inner.signal, signal);
  const results: (R | undefined)[] = new Array(items.length);
  let next = 0;
  let completed = 0;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !signal.aborted && !stopped) {
      if (o.canStart && !o.canStart()) {
        stopped = true;
        return;
      }
      const i = next++;
      try {
        results[i] = await task(items[i]!, i, signal);
        completed++;
      } catch (e) {
        if (!failure) failure = { error: signal.aborted && o.signal?.aborted ? abortReason(o.signal) : e };
        inner.abort(e);
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, items.length)) }, worker));
  if (failure) throw failure.error;
  if (o.signal?.aborted) throw abortReason(o.signal);
  return { results, completed, stopped: stopped && next < items.length };
}
