/**
 * A hosted API's limits for the emulator, as token buckets refilled continuously: `rpm` requests
 * and `tpm` tokens per minute, holding at most `burst` requests (`burstTokens` tokens; a minute's
 * worth by default).
 */

export interface RateLimitPlan {
  rpm?: number;
  tpm?: number;
  burst?: number;
  burstTokens?: number;
}

interface Bucket {
  rate: number;
  cap: number;
  level: number;
  at: number;
}

const bucket = (perMinute: number | undefined, cap: number | undefined): Bucket | undefined =>
  perMinute === undefined
    ? undefined
    : { rate: perMinute / 60_000, cap: cap ?? perMinute, level: cap ?? perMinute, at: performance.now() };

function refill(b: Bucket, now: number): void {
  b.level = Math.min(b.cap, b.level + (now - b.at) * b.rate);
  b.at = now;
}

export class RateBuckets {
  private readonly reqs: Bucket | undefined;
  private readonly toks: Bucket | undefined;
  constructor(plan: RateLimitPlan) {
    this.reqs = bucket(plan.rpm, plan.burst);
    this.toks = bucket(plan.tpm, plan.burstTokens);
  }

  /** ms until a request costing `tokens` fits (0: it fits now, and is charged). */
  wait(tokens: number): number {
    const now = performance.now();
    let wait = 0;
    for (const [b, cost] of [
      [this.reqs, 1],
      [this.toks, tokens],
    ] as const) {
      if (!b) continue;
      refill(b, now);
      if (b.level < Math.min(cost, b.cap)) wait = Math.max(wait, (Math.min(cost, b.cap) - b.level) / b.rate);
    }
    if (wait > 0) return Math.max(1, wait);
    if (this.reqs) this.reqs.level -= 1;
    if (this.toks) this.toks.level -= tokens;
    return 0;
  }

  /** Give back the part of a charge a reply did not use. */
  refund(tokens: number): void {
    if (this.toks) this.toks.level = Math.min(this.toks.cap, this.toks.level + Math.max(0, tokens));
  }

  get limitsTokens(): boolean {
    return this.toks !== undefined;
  }
}
