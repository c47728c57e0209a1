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

/** Per source signal: the linked controllers of the calls in progress, behind one listener. */
const hubs = new WeakMap<AbortSignal, Set<AbortController>>();

function subscribe(source: AbortSignal, c: AbortController): () => void {
  let set = hubs.get(source);
  if (!set) {
    const members = new Set<AbortController>();
    set = members;
    hubs.set(source, members);
    source.addEventListener(
      'abort',
      () => {
        for (const m of members) m.abort(source.reason);
        members.clear();
      },
      { once: true },
    );
  }
  const members = set;
  members.add(c);
  return () => {
    members.delete(c);
  };
}

/**
 * Run `work` with a signal that aborts when any of `sources` does (with that source's reason), and
 * unlink it when `work` settles. With one source and `own` unset, `work` gets that source itself.
 *
 * Used per judge call instead of `AbortSignal.any`: Node keeps every combined signal among its
 * sources' dependants until it is collected and walks that list at each collection, so with one
 * long-lived source (Ctrl-C's) the cost grows with the number of calls made (nodejs/node#55351).
 * Here each source carries one listener whatever the number of calls, and a finished call leaves
 * nothing behind. `own`: always a signal of the call's own (a client that adds its own listener to
 * the signal it gets then adds it to this one, not to the long-lived source).
 */
export async function withLinkedSignal<T>(
  sources: readonly (AbortSignal | undefined)[],
  work: (signal: AbortSignal | undefined) => Promise<T>,
  opts: { own?: boolean } = {},
): Promise<T> {
  const list = sources.filter((s): s is AbortSignal => s !== undefined);
  if (list.length === 0 || (list.length === 1 && !opts.own)) return work(list[0]);
  const c = new AbortController();
  const aborted = list.find((s) => s.aborted);
  if (aborted) c.abort(aborted.reason);
  const offs = aborted ? [] : list.map((s) => subscribe(s, c));
  try {
    return await work(c.signal);
  } finally {
    for (const off of offs) off();
  }
}
