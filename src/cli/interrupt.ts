/**
 * Ctrl-C as an AbortSignal: the first SIGINT aborts the signal (no new judge call or task starts,
 * calls on the wire are cancelled, finished answers stay cached; exit 130); a second one kills the
 * process as usual. A run that caches nothing (`cached` false: `--no-scan-cache` without a judge)
 * says so instead of promising a resume.
 */
import { CancelledError } from '../errors.js';
import type { OnProgress } from '../progress.js';
import { renderProgress } from './progress.js';

/** What Ctrl-C says: a run that caches its finished work can resume; one that caches nothing starts over. */
function interruptMessage(cached: boolean, why = '--no-scan-cache'): string {
  return cached
    ? 'interrupted (Ctrl-C); finished answers are cached, run again to resume'
    : `interrupted (Ctrl-C); nothing was cached (${why}), so a new run starts over`;
}

function interruptSignal(cached = true): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  const onSigint = () => ac.abort(new CancelledError(interruptMessage(cached)));
  process.once('SIGINT', onSigint);
  return { signal: ac.signal, dispose: () => process.removeListener('SIGINT', onSigint) };
}

async function withInterrupt<T>(run: (signal: AbortSignal) => Promise<T>, cached = true): Promise<T> {
  const i = interruptSignal(cached);
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
  cached = true,
): Promise<T> {
  return withInterrupt(async (signal) => {
    const shown = renderProgress();
    try {
      return await run(signal, shown.onProgress);
    } finally {
      shown.close();
    }
  }, cached);
}
