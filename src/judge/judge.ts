/**
 * The judge: one question → a verdict, through the cache. Shared by every backend:
 *  - a cache hit makes no call; identical questions in flight at once are asked once (single flight),
 *    across processes too: a question is claimed in the cache before it is asked, and a process
 *    that finds it claimed by another live one waits for that answer;
 *  - the reply is parsed against the answer schema; a reply that does not parse (or is a refusal)
 *    is asked once more; if that fails too the question is recorded as unresolved with both raw
 *    texts — never a crash, never dropped;
 *  - backend errors (after the backend's own retries) propagate and are never cached.
 */
import type { z } from 'zod';
import { abortReason, withLinkedSignal } from '../concurrency/abort.js';
import { callBackend, countCall } from './backend-call.js';
import { judgeCacheKey } from './cache.js';
import type { CachedAnswer } from './cache-rows.js';
import { loadJudgeImages } from './images.js';
import { parseReply } from './parse.js';
import { CallBudgetSpent, type CallLimits, type JudgeOptions, type Question } from './question.js';
import { DEFAULT_MAX_REPLY_BYTES, KEPT_OF_LONG_REPLY } from './reply-limit.js';
import { emptyStats, type JudgeBackend, type JudgeStats, type Sampling, type Verdict } from './types.js';

/**
 * Every question asked at once; waits until all have settled before throwing the first error, so no
 * call is left running behind a failed (or budget-stopped) sibling and its answer is cached.
 */
export async function askAll<S extends z.ZodType>(
  judge: Judge,
  questions: readonly Question<S>[],
): Promise<Verdict<z.output<S>>[]> {
  const settled = await Promise.allSettled(questions.map((q) => judge.ask(q)));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<Verdict<z.output<S>>>).value);
}

export class Judge {
  readonly stats: JudgeStats = emptyStats();
  readonly sampling: Sampling;
  private readonly inflight = new Map<string, Promise<{ a: CachedAnswer; asked: boolean }>>();
  private begun = 0;

  constructor(
    readonly backend: JudgeBackend,
    private readonly opts: JudgeOptions = {},
  ) {
    this.sampling = {
      temperature: opts.sampling?.temperature ?? 0,
      max_tokens: opts.sampling?.max_tokens ?? 256,
    };
  }

  /** "backend:model", as reports name the reader. */
  get name(): string {
    return `${this.backend.name}:${this.backend.model}`;
  }

  /** Backend calls started so far (in flight included): what a call budget counts. */
  get callsStarted(): number {
    return this.begun;
  }

  /**
   * Everything about this judge that enters a question's cache key (backend, model, backend
   * identity, sampling): a caller that keys its own records on the answers of this judge adds it.
   */
  get fingerprint(): {
    backend: string;
    model: string;
    identity: Readonly<Record<string, unknown>>;
    sampling: Sampling;
  } {
    return {
      backend: this.backend.name,
      model: this.backend.model,
      identity: this.backend.identity,
      sampling: { ...this.sampling },
    };
  }

  keyOf(q: Question<z.ZodType>): string {
    return judgeCacheKey({
      backend: this.backend.name,
      model: this.backend.model,
      identity: this.backend.identity,
      protocol: q.protocol,
      prompt: q.prompt,
      images: q.images.map((i) => i.sha256),
      audio: q.audio?.sha256,
      labels: q.labels,
      sampling: { ...this.samplingOf(q) },
    });
  }

  private samplingOf(q: Question<z.ZodType>): Sampling {
    return q.seed === undefined ? { ...this.sampling } : { ...this.sampling, seed: q.seed };
  }

  /** Whether the cache already holds this question's answer (for --dry-run). */
  isCached(q: Question<z.ZodType>): boolean {
    return !!this.opts.cache?.get(this.keyOf(q));
  }

  /**
   * The cached answers of questions asked before, by their keys (`Verdict.key`), without the
   * questions themselves (whose images may be costly to rebuild): all of them, counted as cache
   * hits, or undefined — nothing counted — when the cache lacks any of them (then ask them).
   */
  recall<S extends z.ZodType>(
    wanted: readonly { key: string; schema: S }[],
  ): Verdict<z.output<S>>[] | undefined {
    const cache = this.opts.cache;
    if (!cache) return undefined;
    const hits: CachedAnswer[] = [];
    for (const w of wanted) {
      const hit = cache.get(w.key);
      if (!hit) return undefined;
      hits.push(hit);
    }
    return hits.map((hit, i) => {
      this.stats.cached++;
      return this.toVerdict<z.output<S>>(hit, wanted[i]!.schema, true, 0, wanted[i]!.key);
    });
  }

  /**
   * A view of this judge whose questions stop on `gate` (a pool's abort): once it has aborted no
   * new backend call starts (calls already on the wire finish). Stats, cache and single flight are
   * shared with this judge.
   */
  withSignal(gate: AbortSignal, limits: CallLimits = {}): Judge {
    const view = Object.create(this) as Judge;
    view.ask = <S extends z.ZodType>(q: Question<S>, g?: AbortSignal, l?: CallLimits) =>
      withLinkedSignal([gate, g], (s) => this.ask(q, s, { ...limits, ...l }));
    return view;
  }

  /**
   * Ask one question. `gate`: no backend call starts once it has aborted (see `withSignal`);
   * `limits.maxCalls`: no new question goes to the backend once this judge has started that many
   * calls (it throws CallBudgetSpent; a re-ask of a question already asked is still made).
   */
  ask<S extends z.ZodType>(
    q: Question<S>,
    gate?: AbortSignal,
    limits: CallLimits = {},
  ): Promise<Verdict<z.output<S>>> {
    return withLinkedSignal([this.opts.signal, gate], (signal) => this.askUntil(q, signal, limits));
  }

  /** `ask` with the judge's own signal and the gate already joined in `signal`. */
  private async askUntil<S extends z.ZodType>(
    q: Question<S>,
    signal: AbortSignal | undefined,
    limits: CallLimits,
  ): Promise<Verdict<z.output<S>>> {
    const key = this.keyOf(q);
    const hit = this.opts.cache?.get(key);
    if (hit) {
      this.stats.cached++;
      return this.toVerdict<z.output<S>>(hit, q.schema, true, 0, key);
    }
    let p = this.inflight.get(key);
    let shared = true;
    if (!p) {
      if (signal?.aborted) throw abortReason(signal);
      if (limits.maxCalls !== undefined && this.begun >= limits.maxCalls)
        throw new CallBudgetSpent(limits.maxCalls);
      shared = false;
      p = this.obtain(key, q, signal, limits);
      this.inflight.set(key, p);
      const done = () => this.inflight.delete(key);
      p.then(done, done);
    }
    const { a, asked } = await p;
    const cached = shared || !asked;
    if (cached) this.stats.cached++;
    return this.toVerdict<z.output<S>>(a, q.schema, cached, cached ? 0 : a.raw.length, key);
  }

  /**
   * The answer to a question not in the cache: claimed and asked here, then cached (a failing
   * cache write rejects this promise, never unhandled), or — when another process holds a live
   * claim on it — waited for and read from the cache (`asked: false`).
   */
  private async obtain<S extends z.ZodType>(
    key: string,
    q: Question<S>,
    signal: AbortSignal | undefined,
    limits: CallLimits,
  ): Promise<{ a: CachedAnswer; asked: boolean }> {
    const cache = this.opts.cache;
    if (!cache) return { a: await this.askBackend(q, signal), asked: true };
    const meta = { backend: this.backend.name, model: this.backend.model, protocol: q.protocol.name };
    for (let waited = false; ; waited = true) {
      // after waiting on another process's claim, the budget and the gate may have run out meanwhile
      if (waited && signal?.aborted) throw abortReason(signal);
      if (waited && limits.maxCalls !== undefined && this.begun >= limits.maxCalls)
        throw new CallBudgetSpent(limits.maxCalls);
      const state = cache.claim(key);
      if (state === 'answered') {
        const hit = cache.get(key);
        if (hit) return { a: hit, asked: false };
        continue; // pruned in between: claim it again
      }
      if (state === 'mine') {
        try {
          const a = await this.askBackend(q, signal);
          cache.put(key, meta, a);
          return { a, asked: true };
        } finally {
          cache.release(key); // after an error; a no-op once put
        }
      }
      await cache.waitForClaim(key, signal);
    }
  }

  private async askBackend<S extends z.ZodType>(
    q: Question<S>,
    signal: AbortSignal | undefined,
  ): Promise<CachedAnswer> {
    const raw: string[] = [];
    const usage = { prompt_tokens: 0, completion_tokens: 0 };
    let latency = 0;
    let reason = '';
    let tooLong = false;
    const cap = this.opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (signal?.aborted) throw abortReason(signal);
      // counted before the first await: the budget check in `ask` and this count are one step, so
      // concurrent questions cannot all pass a budget of one call left (--max-calls)
      this.begun++;
      if (attempt === 0) await loadJudgeImages(q.images); // images known by their hash only are encoded now
      const r = await callBackend(
        this.backend,
        {
          prompt: q.prompt,
          images: q.images,
          labels: q.labels,
          audio: q.audio,
          protocol: q.protocol.name,
          sampling: this.samplingOf(q),
          attempt,
          maxReplyBytes: cap,
        },
        { judge: this.opts.signal, call: signal },
        this.opts.onProgress,
      );
      // too long: the backend stopped reading it (r.tooLong), or it came whole and is over the cap
      const bytes = r.tooLong ? 0 : Buffer.byteLength(r.text);
      tooLong = r.tooLong !== undefined || bytes > cap;
      const cut = r.tooLong ?? `reply of ${bytes} bytes cut`;
      raw.push(tooLong ? `${r.text.slice(0, KEPT_OF_LONG_REPLY)} … [${cut}]` : r.text);
      usage.prompt_tokens += r.usage.prompt_tokens;
      usage.completion_tokens += r.usage.completion_tokens;
      latency += r.latency_ms;
      countCall(this.stats, r, attempt);
      if (tooLong) {
        reason =
          r.tooLong ?? `reply of ${bytes} bytes is longer than the ${cap}-byte limit (max_reply_bytes)`;
        continue;
      }
      // the parse is part of the call's time budget (issue 46: a reply's parse took minutes)
      const parsed = parseReply(r.text, q.schema, { deadline: r.deadline });
      if (parsed.ok) return { answer: parsed.value, unresolved: null, raw, usage, latency_ms: latency };
      reason = parsed.reason;
    }
    this.stats.unresolved++;
    return {
      answer: null,
      unresolved: tooLong ? reason : `unparsable after one re-ask: ${reason}`,
      raw,
      usage,
      latency_ms: latency,
    };
  }

  private toVerdict<T>(
    a: CachedAnswer,
    schema: z.ZodType,
    cached: boolean,
    calls: number,
    key: string,
  ): Verdict<T> {
    const v: Verdict<T> = { raw: a.raw, usage: a.usage, latency_ms: a.latency_ms, cached, calls, key };
    if (a.unresolved) v.unresolved = a.unresolved;
    else {
      const r = schema.safeParse(a.answer);
      if (r.success) v.answer = r.data as T;
      else v.unresolved = 'cached answer no longer matches the schema';
    }
    return v;
  }

  async close(): Promise<void> {
    await this.backend.close();
  }
}
