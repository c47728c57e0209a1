/**
 * Ctrl-C as an AbortSignal: the first SIGINT aborts the signal (no new judge call or task starts,
 * calls on the wire are cancelled, finished answers stay cached; exit 130); a second one kills the
 * process as usual.
 */
import { CancelledError } from '../errors.js';
import type { OnProgress } from '../progress.js';
import { renderProgress } from './progress.js';

export function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  const onSigint = () =>
    ac.abort(new CancelledError('interrupted (Ctrl-C); finished answers are cached, run again to resume'));
  process.once('SIGINT', onSigint);
  return { signal: ac.signal, dispose: () => process.removeListener('SIGINT', onSigint) };
}

export async function withInterrupt<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const i = interruptSignal();
  try {
    return await run(i.signal);
  } finally {
    i.dispose();
  }
}

/**
 * One library call under Ctrl-C (`signal`) with its progress drawn on stderr (`onProgress`); the
 * drawing stops when the call ends, however it ends.
 */
export function withInterruptShown<T>(
  run: (signal: AbortSignal, onProgress: OnProgress) => Promise<T>,
): Promise<T> {
  return withInterrupt(async (signal) => {
    const shown = renderProgress();
    try {
      return await run(signal, shown.onProgress);
    } finally {
      shown.close();
    }
  });
}
