/**
 * Requests and tokens per minute, shared by every call of a process (a hosted API's `--rpm` and
 * `--tpm`). Each limit is paced, not bursted: a request may start once the time its predecessors
 * bought at the limit's rate has passed (the generic cell rate algorithm, a token bucket with a
 * bucket of one request), so a server that allows any burst at all never sees more than its rate.
 *  - tokens are estimated before the call and corrected from the reply's usage (`Ticket.settle`);
 *  - a server's Retry-After pauses every caller, not just the one that was told (`pause`);
 *  - callers are served in arrival order; an aborted wait rejects at once.
 */

import { InternalError } from '../errors.js';
import { abortReason, sleep } from './abort.js';

export interface RateLimits {
  /** Requests per minute. */
  rpm?: number | undefined;
  /** Prompt + completion tokens per minute. */
  tpm?: number | undefined;
}

export interface Ticket {
  /** Correct the token estimate with the count the server reported. */
  settle(actualTokens: number): void;
}

const MINUTE_MS = 60_000;

export class RateLimiter {
  /** When the next request may start (ms, `now()` clock), by each limit, and after a server's pause. */
  private nextRequest = 0;
  private nextToken = 0;
  private pausedUntil = 0;
  /** Callers wait in line: each is let go after the one before it has actually started. */
  private line: Promise<unknown> = Promise.resolve();

  constructor(
    readonly limits: RateLimits,
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const [k, v] of Object.entries(limits))
      if (v !== undefined && !(v > 0)) throw new InternalError(`${k} must be > 0, got ${v}`);
  }

  /**
   * Wait for room for one request of about `tokens` tokens. An aborted signal rejects at once,
   * whether the caller is still in line behind others or already waiting for its time, and an
   * aborted caller never takes a slot (those behind it move up).
   */
  take(tokens0: number, signal?: AbortSignal): Promise<Ticket> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const tokens = Number.isFinite(tokens0) && tokens0 >= 0 ? tokens0 : 0;
    const turn = this.line.then(() => {
      if (signal?.aborted) throw abortReason(signal);
      return this.wait(tokens, signal);
    });
    this.line = turn.catch(() => undefined);
    if (!signal) return turn;
    return new Promise<Ticket>((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(
        (ticket) => {
          signal.removeEventListener('abort', onAbort);
          resolve(ticket);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  private async wait(tokens: number, signal?: AbortSignal): Promise<Ticket> {
    const { rpm, tpm } = this.limits;
    for (;;) {
      const t = this.now();
      const start = Math.max(t, this.pausedUntil, rpm ? this.nextRequest : t, tpm ? this.nextToken : t);
      if (start <= t) break;
      await sleep(start - t, signal);
    }
    // stamped with the time it really starts, so a late timer never lets several go at once
    const started = this.now();
    if (rpm) this.nextRequest = started + MINUTE_MS / rpm;
    if (tpm) this.nextToken = started + (tokens * MINUTE_MS) / tpm;
    let settled = false;
    return {
      settle: (actual) => {
        if (settled || !tpm) return;
        settled = true;
        // an unknown count keeps the estimate: NaN or Infinity here would stall every caller
        if (typeof actual !== 'number' || !Number.isFinite(actual) || actual < 0) return;
        this.nextToken += ((actual - tokens) * MINUTE_MS) / tpm;
      },
    };
  }

  /** The server asked for a pause (Retry-After): nobody starts before `ms` from now. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}
