/**
 * The `openai` backend: any OpenAI-compatible chat-completions server (vLLM, SGLang, Ollama,
 * llama.cpp's server, a hosted API), images as data URLs. Requests go out through http.ts (Node's
 * own HTTP client; the `openai` SDK's fetch path cost ≈ 4× the CPU per call); their JSON bodies are
 * built by body.ts. This file owns the retry loop:
 *  - 408, 409, 429, 5xx, timeouts and dropped connections are retried with exponential back-off
 *    and full jitter, honouring Retry-After (seconds or an HTTP date) and retry-after-ms up to
 *    --max-retry-wait (300 s by default; issue 46: `Retry-After: 86400` was obeyed silently): the
 *    retry event says what the server asked and how long kfbench waits;
 *  - 400, 401, 403, 404 fail at once with the endpoint and the status (exit 4);
 *  - a refused connection is retried twice, then fails naming the endpoint.
 * The API key comes from the options (KFBENCH_API_KEY / OPENAI_API_KEY) and is never logged.
 */
import { abortReason, sleep, withLinkedSignal } from '../concurrency/abort.js';
import { RateLimiter, type Ticket } from '../concurrency/rate.js';
import { Semaphore } from '../concurrency/semaphore.js';
import { BackendError } from '../errors.js';
import { JUDGE_CALLS, type OnProgress } from '../progress.js';
import { chatBody } from './body.js';
import { type Endpoint, EndpointPool, redactUrl } from './endpoints.js';
import { HttpEndpoint, HttpFailure } from './http.js';
import { readReply } from './openai-reply.js';
import { DEFAULT_MAX_REPLY_BYTES, replyBodyLimit } from './reply-limit.js';
import type { BackendReply, BackendRequest, CallTracker, JudgeBackend } from './types.js';

export interface OpenAiOptions {
  model: string;
  baseUrls: string[];
  apiKey?: string | undefined;
  concurrency?: number;
  /** --rpm / --tpm, shared by every call of the process; a 429's Retry-After pauses it for all. */
  limiter?: RateLimiter | undefined;
  /** Tokens assumed per image before the reply says (765: a 1024² image in 512 px tiles at high detail). */
  imageTokens?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** The longest wait a server's Retry-After imposes before a retry (--max-retry-wait; 300 s by default). */
  maxRetryWaitMs?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  restAfter?: number;
  restMs?: number;
  /** For jitter; Math.random by default. */
  random?: () => number;
  /**
   * The progress stream: every failed attempt about to be retried is a `retry` event of the
   * judge's calls (JUDGE_CALLS; `item` the endpoint, its key never shown).
   */
  onProgress?: OnProgress | undefined;
}

/** 5 minutes: a server asking for longer (an exhausted daily quota) is not waited for in full. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 300_000;

/** A wait as the retry event states it: seconds, to the millisecond. */
const secs = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

export class OpenAiBackend implements JudgeBackend {
  readonly name = 'openai';
  readonly model: string;
  readonly identity = {};
  readonly pool: EndpointPool<HttpEndpoint>;
  private readonly headers: Record<string, string>;
  private readonly sem: Semaphore;
  private readonly o: {
    [K in keyof Omit<OpenAiOptions, 'apiKey' | 'model' | 'baseUrls' | 'onProgress'>]-?: Exclude<
      OpenAiOptions[K],
      undefined
    >;
  } & Pick<OpenAiOptions, 'onProgress'>;
  readonly limiter: RateLimiter;

  constructor(opts: OpenAiOptions) {
    if (opts.baseUrls.length === 0) throw new BackendError('no judge endpoint given');
    this.model = opts.model;
    this.o = {
      concurrency: opts.concurrency ?? 16,
      limiter: opts.limiter ?? new RateLimiter({}),
      imageTokens: opts.imageTokens ?? 765,
      timeoutMs: opts.timeoutMs ?? 120_000,
      maxRetries: opts.maxRetries ?? 6,
      maxRetryWaitMs: opts.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
      backoffBaseMs: opts.backoffBaseMs ?? 500,
      backoffCapMs: opts.backoffCapMs ?? 30_000,
      restAfter: opts.restAfter ?? 3,
      restMs: opts.restMs ?? 30_000,
      random: opts.random ?? Math.random,
      onProgress: opts.onProgress,
    };
    this.sem = new Semaphore(this.o.concurrency);
    this.limiter = this.o.limiter;
    this.headers = { authorization: `Bearer ${opts.apiKey || 'no-key'}` };
    this.pool = new EndpointPool(
      opts.baseUrls,
      (url) => {
        try {
          return new HttpEndpoint(url, '/chat/completions');
        } catch (e) {
          throw new BackendError(`judge endpoint ${redactUrl(url)}: unusable (${(e as Error).message})`);
        }
      },
      this.o.restAfter,
      this.o.restMs,
    );
  }

  /** Said once per backend (issue 55 item 5): a reply's usage that is no count is unknown. */
  private badUsageSaid = false;

  private sayBadUsage(url: string, usage: string): void {
    if (this.badUsageSaid) return;
    this.badUsageSaid = true;
    this.o.onProgress?.({
      type: 'notice',
      phase: JUDGE_CALLS,
      message: `judge endpoint ${redactUrl(url)} replied with a usage that is not a token count (${usage}): its tokens are counted as unknown (0) and the --tpm limiter keeps its own estimate (said once)`,
    });
  }

  private backoff(attempt: number): number {
    const exp = Math.min(this.o.backoffCapMs, this.o.backoffBaseMs * 2 ** attempt);
    return exp * (0.5 + 0.5 * this.o.random());
  }

  async complete(
    req: BackendRequest,
    signal?: AbortSignal,
    gate?: AbortSignal,
    track?: CallTracker,
  ): Promise<BackendReply> {
    return withLinkedSignal([signal, gate], (stop) => this.gated(req, signal, stop, track));
  }

  private gated(
    req: BackendRequest,
    signal: AbortSignal | undefined,
    stop: AbortSignal | undefined,
    track: CallTracker | undefined,
  ): Promise<BackendReply> {
    return this.sem.use(async () => {
      track?.started();
      let ok = false;
      try {
        const r = await this.attempts(req, signal, stop);
        ok = true;
        return r;
      } finally {
        track?.finished(ok); // before the slot is given back: never more in flight than slots
      }
    }, stop);
  }

  /** `signal` cancels a request on the wire; `stop` (signal or gate) keeps the next attempt from starting. */
  private async attempts(
    req: BackendRequest,
    signal?: AbortSignal,
    stop?: AbortSignal,
  ): Promise<BackendReply> {
    const body = chatBody(this.model, req);
    // tokens before the reply says: text at 4 characters a token, a fixed count per image, the reply budget
    const estimate =
      Math.ceil(req.prompt.length / 4) +
      16 * req.labels.length +
      this.o.imageTokens * req.images.length +
      (req.audio ? Math.ceil(req.audio.data.length / 16) : 0) +
      req.sampling.max_tokens;
    let retries = 0;
    let refused = 0;
    let last = '';
    for (let attempt = 0; attempt <= this.o.maxRetries; attempt++) {
      if (stop?.aborted) throw abortReason(stop);
      const ticket: Ticket = await this.limiter.take(estimate, stop);
      if (stop?.aborted) throw abortReason(stop);
      const ep: Endpoint<HttpEndpoint> = this.pool.pick();
      ep.inflight++;
      const t0 = performance.now();
      /** What the server asked to wait (Retry-After), if it did. */
      let asked: number | undefined;
      try {
        // a signal of this request's own: the client adds an abort listener to the signal it gets, and
        // every call in flight on the caller's one (Ctrl-C's) would pass Node's listener limit
        const limit = replyBodyLimit(req.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES);
        const r = await withLinkedSignal(
          [signal],
          (own) => ep.client.post(body, this.headers, this.o.timeoutMs, own, limit),
          { own: true },
        );
        // the call's time budget: the reply's parse comes out of what the request left of it
        const deadline = t0 + this.o.timeoutMs;
        const o = readReply(r, { t0, retries, deadline, limit, estimate, model: this.model });
        if (o.kind === 'reply') {
          if (o.badUsage !== undefined) this.sayBadUsage(ep.url, o.badUsage);
          this.pool.succeeded(ep);
          ticket.settle(o.tokens);
          return o.reply;
        }
        if (o.kind === 'rejected')
          throw new BackendError(`judge endpoint ${ep.url}: HTTP ${r.status} (${o.what})`);
        last = o.last ?? last;
        asked = o.asked;
        this.pool.failed(ep);
        // a rejected request used no tokens; a server's "wait" holds back every caller (up to the cap)
        ticket.settle(0);
        if (r.status === 429 && asked !== undefined)
          this.limiter.pause(Math.min(asked, this.o.maxRetryWaitMs));
      } catch (e) {
        if (!(e instanceof HttpFailure)) throw e;
        if (e.kind === 'aborted' || signal?.aborted)
          throw signal?.aborted ? abortReason(signal) : new BackendError('judge request cancelled');
        this.pool.failed(ep);
        if (e.kind === 'timeout') last = `no reply within ${this.o.timeoutMs} ms`;
        else {
          last = `connection error${e.code ? ` (${e.code})` : ''}`;
          if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
            if (++refused > 2) throw new BackendError(`judge endpoint ${ep.url}: unreachable (${e.code})`);
          }
        }
      } finally {
        ep.inflight--;
      }
      if (attempt === this.o.maxRetries) break;
      retries++;
      last = await this.waitToRetry({ attempt, retries, asked, last, url: ep.url }, stop);
    }
    throw new BackendError(`judge gave up after ${this.o.maxRetries + 1} attempts (last: ${last})`);
  }

  /**
   * The wait before the next attempt, told to the progress stream; the reason with the server's
   * ask added. Retry-After is a minimum: a little jitter keeps every caller told the same from
   * coming back at once; never past --max-retry-wait, and the retry event says what was asked and
   * what is done.
   */
  private async waitToRetry(
    at: { attempt: number; retries: number; asked: number | undefined; last: string; url: string },
    stop: AbortSignal | undefined,
  ): Promise<string> {
    const { asked } = at;
    let last = at.last;
    const cap = this.o.maxRetryWaitMs;
    const waitMs =
      asked !== undefined ? Math.min(cap, asked * (1 + 0.5 * this.o.random())) : this.backoff(at.attempt);
    if (asked !== undefined)
      last += `: the server asked to wait ${secs(asked)} (Retry-After)${asked > cap ? `, more than --max-retry-wait ${secs(cap)}` : ''}; waiting ${secs(waitMs)}`;
    this.o.onProgress?.({
      type: 'retry',
      phase: JUDGE_CALLS,
      item: redactUrl(at.url),
      attempt: at.retries,
      reason: last,
    });
    await sleep(waitMs, stop);
    return last;
  }

  async close(): Promise<void> {
    for (const e of this.pool.endpoints) e.client.close();
  }
}
