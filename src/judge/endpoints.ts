/**
 * A pool of base URLs serving one model: requests go to the endpoint with the fewest in flight;
 * one that fails `restAfter` times in a row is rested for `restMs` (unless all are resting).
 */
export interface Endpoint<C> {
  url: string;
  client: C;
  inflight: number;
  failures: number;
  restUntil: number;
  served: number;
}

export class EndpointPool<C> {
  readonly endpoints: Endpoint<C>[];
  constructor(
    urls: string[],
    makeClient: (url: string) => C,
    private readonly restAfter = 3,
    private readonly restMs = 30_000,
  ) {
    this.endpoints = urls.map((url) => ({
      url,
      client: makeClient(url),
      inflight: 0,
      failures: 0,
      restUntil: 0,
      served: 0,
    }));
  }

  pick(now = Date.now()): Endpoint<C> {
    const awake = this.endpoints.filter((e) => e.restUntil <= now);
    const pool = awake.length
      ? awake
      : [...this.endpoints].sort((a, b) => a.restUntil - b.restUntil).slice(0, 1);
    let best = pool[0]!;
    for (const e of pool) if (e.inflight < best.inflight) best = e;
    return best;
  }

  succeeded(e: Endpoint<C>): void {
    e.failures = 0;
    e.served++;
  }

  failed(e: Endpoint<C>, now = Date.now()): void {
    e.failures++;
    if (e.failures >= this.restAfter) e.restUntil = now + this.restMs;
  }
}
