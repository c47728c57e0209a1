/**
 * The emulator's request log and the events tests wait on (never a fixed sleep): no chat request
 * open, `n` requests arrived; and the most requests it has had open at once.
 */
import type { FaultKind } from './faults.js';

export interface LoggedRequest {
  n: number;
  /** ms since the emulator started. */
  t: number;
  key: string;
  kind: string;
  fault: FaultKind | null;
  /** HTTP status sent; -1 connection reset on purpose; -2 the client left before the reply. */
  status: number;
  /** The request carried an audio track (`input_audio`). */
  audio?: boolean;
  /** The sampling seed the request asked for, if any (the emulator's answers do not depend on it). */
  seed?: number;
  /** Prompt + completion tokens it was charged (the rate limiter's count). */
  tokens?: number;
  /** The request's text parts, joined (what the reader was asked). */
  text?: string;
}

export class Traffic {
  readonly log: LoggedRequest[] = [];
  private readonly started = performance.now();
  private inFlight = 0;
  peakInFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private countWaiters: { n: number; resolve: () => void }[] = [];

  /** A chat request arrived: logged, with what the handler fills in later. */
  arrive(): LoggedRequest {
    const entry: LoggedRequest = {
      n: this.log.length,
      t: performance.now() - this.started,
      key: '',
      kind: '?',
      fault: null,
      status: 0,
    };
    this.log.push(entry);
    const ready = this.countWaiters.filter((w) => this.log.length >= w.n);
    this.countWaiters = this.countWaiters.filter((w) => this.log.length < w.n);
    for (const w of ready) w.resolve();
    return entry;
  }

  open(): void {
    this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
  }

  /** A request finished (its handler settled): wake the idle waiters once none is open. */
  closed(chat: boolean): void {
    if (chat) this.inFlight--;
    if (this.inFlight > 0) return;
    const ws = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of ws) w();
  }

  idle(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => this.idleWaiters.push(r));
  }

  requests(n: number): Promise<void> {
    return this.log.length >= n
      ? Promise.resolve()
      : new Promise<void>((resolve) => this.countWaiters.push({ n, resolve }));
  }
}
