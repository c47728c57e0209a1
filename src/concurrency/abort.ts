/**
 * Cancellation helpers shared by every scheduler: the error an aborted signal stands for, and a
 * sleep that ends early (rejecting) when its signal aborts.
 */
import { CancelledError } from '../errors.js';

/** What an aborted signal rejects with: its reason when that is an Error, else a CancelledError. */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof Error && r.name !== 'AbortError') return r;
  return new CancelledError('cancelled');
}

/** Wait `ms`; reject at once with the abort reason if `signal` aborts (the timer is cleared). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
