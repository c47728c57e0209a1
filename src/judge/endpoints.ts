/**
 * A pool of base URLs serving one model: requests go to the endpoint with the fewest in flight;
 * one that fails `restAfter` times in a row is rested for `restMs` (unless all are resting).
 * An endpoint's `url` (the one every message names) is redacted: no query string, no fragment.
 */
import { UsageError } from '../errors.js';

/** A URL as messages may show it: origin and path only; a query or fragment (often a key) is `?…`. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/)[^/?#@\s]*@/, '$1').replace(/[?#]\S*/, '?…');
}

/**
 * A judge base URL checked where it is given (exit 2): http(s) only, and no `user:password@` —
 * a key belongs in KFBENCH_API_KEY or the config file's `api_key`, never in a URL that ends up
 * in messages and shell history.
 */
export function checkJudgeUrl(url: string, what: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${what} is not a URL: "${redactUrl(url)}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${what} must start with http:// or https://, got "${redactUrl(url)}"`);
  if (u.username || u.password)
    throw new UsageError(
      `${what} ${redactUrl(url)} carries credentials (user:password@): give the key in KFBENCH_API_KEY or as "api_key" in the --config file, not in the URL`,
    );
  return url;
}
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
      url: redactUrl(url),
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
