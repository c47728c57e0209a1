/**
 * The one progress stream: every long-running pipeline (building chains, selecting frames,
 * evaluating, rebuilding a track, scoring and judging videos …) reports what it is doing as these
 * typed events through one `onProgress` callback; it never prints. `cli/progress.ts` is the only
 * renderer (a bar with an ETA on a terminal, a line every few seconds otherwise); a library caller
 * may collect or ignore them. Results never travel here — they are return values.
 */

/** A named stretch of work, e.g. `build`, `select`, `evaluate`, `rebuild`, `scan`. */
export type Phase = string;

/** The phase a judge reports its backend calls and their retries under (`call-started` …). */
export const JUDGE_CALLS: Phase = 'judge calls';

export type ProgressEvent =
  /** A phase begins; `total` items of `unit` (films, insertions, videos …) are to be done. */
  | { type: 'phase-started'; phase: Phase; total: number; unit: string; note?: string }
  /** One item finished (computed now); `item` names it (a film id, `model/case` …). */
  | { type: 'item-done'; phase: Phase; item: string }
  /** One item finished from a cache or an earlier run, without new work. */
  | { type: 'cache-hit'; phase: Phase; item: string }
  /**
   * An attempt failed and is being tried again (the item is not done yet). A judge backend's retry
   * of a call is one too, in the judge's calls (`item`: the endpoint).
   */
  | { type: 'retry'; phase: Phase; item: string; attempt: number; reason: string }
  /**
   * A judge call went to the backend (`phase`: the judge's calls, not a phase of items: no total,
   * no start or end — they run beside the phase that asks them).
   */
  | { type: 'call-started'; phase: Phase }
  /** A judge call came back: with a reply (`ok`), or failed for good after its retries. */
  | { type: 'call-finished'; phase: Phase; ok: boolean }
  /** An item failed for good (the phase goes on, or stops, as the pipeline documents). */
  | { type: 'failure'; phase: Phase; item: string; reason: string }
  /**
   * Something the user is told once, beside the counts: a reading the run fell back on (a judge
   * reply whose token usage is not a count). Its emitter sends each message once.
   */
  | { type: 'notice'; phase: Phase; message: string }
  /** A phase ended (also after failures); `done` items were finished. */
  | { type: 'phase-finished'; phase: Phase; done: number };

export type OnProgress = (e: ProgressEvent) => void;

/** A sink that drops every event (the default of a library call). */
export const noProgress: OnProgress = () => undefined;

/**
 * The events of one phase, emitted in the right order with the running count kept in one place:
 * `start(total)` once, then `done`/`cached`/`retry`/`failed` per item, then `finish()` once.
 */
export function phaseReporter(onProgress: OnProgress | undefined, phase: Phase, unit: string) {
  const emit = onProgress ?? noProgress;
  let done = 0;
  return {
    start(total: number, note?: string): void {
      emit({ type: 'phase-started', phase, total, unit, ...(note ? { note } : {}) });
    },
    done(item: string): void {
      done++;
      emit({ type: 'item-done', phase, item });
    },
    cached(item: string): void {
      done++;
      emit({ type: 'cache-hit', phase, item });
    },
    retry(item: string, attempt: number, reason: string): void {
      emit({ type: 'retry', phase, item, attempt, reason });
    },
    failed(item: string, reason: string): void {
      emit({ type: 'failure', phase, item, reason });
    },
    finish(): void {
      emit({ type: 'phase-finished', phase, done });
    },
  };
}
