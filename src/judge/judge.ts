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
import { KfbenchError } from '../errors.js';
import { JUDGE_CALLS, type OnProgress } from '../progress.js';
import { type CachedAnswer, type JudgeCache, judgeCacheKey } from './cache.js';
import { loadJudgeImages } from './images.js';
import { parseReply } from './parse.js';
import { DEFAULT_MAX_REPLY_BYTES, KEPT_OF_LONG_REPLY } from './reply-limit.js';
import {
  type BackendReply,
  type BackendRequest,
  type CallTracker,
  emptyStats,
  type JudgeAudio,
  type JudgeBackend,
  type JudgeImage,
  type JudgeStats,
  type Sampling,
  type Verdict,
} from './types.js';

export interface Question<S extends z.ZodType> {
  prompt: string;
  images: JudgeImage[];
  /** The label shown before each image, in placement order. */
  labels: string[];
  /** An audio track (only for judges that accept audio input). */
  audio?: JudgeAudio | undefined;
  protocol: { name: string; version: string };
  schema: S;
  /** Ask with this sampling seed (enters the cache key; backends without seeds ignore it). */
  seed?: number;
}

export interface JudgeOptions {
  cache?: JudgeCache | undefined;
  sampling?: Partial<Sampling>;
  signal?: AbortSignal | undefined;
  /**
   * Longest reply kept, in UTF-8 bytes (default DEFAULT_MAX_REPLY_BYTES): a longer one is not
   * parsed, is asked once more like an unparsable one and, if again too long, recorded as
   * unresolved with that reason; only its first KiB is kept as its raw text.
   */
  maxReplyBytes?: number | undefined;
  /**
   * The progress stream: every backend call is a `call-started` and then a `call-finished` event
   * of the judge's calls (JUDGE_CALLS), re-asks included — what a long judge phase shows while
   * its items take minutes. Cache hits make no call and no event.
   */
  onProgress?: OnProgress | undefined;
}

export { DEFAULT_MAX_REPLY_BYTES } from './reply-limit.js';

export interface CallLimits {
  /** Start no new question once this many backend calls have started (see `Judge.ask`). */
  maxCalls?: number | undefined;
}

/** The call budget (--max-calls) is spent: the question was not asked. Exit 5 when it ends a run. */
export class CallBudgetSpent extends KfbenchError {
  constructor(readonly maxCalls: number) {
    super('PARTIAL', `the call budget of ${maxCalls} is spent (run again to resume)`);
    this.name = 'CallBudgetSpent';
  }
}

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
      const r = await this.call(
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
        signal,
      );
      // too long: the backend stopped reading it (r.tooLong), or it came whole and is over the cap
      const bytes = r.tooLong ? 0 : Buffer.byteLength(r.text);
      tooLong = r.tooLong !== undefined || bytes > cap;
      const cut = r.tooLong ?? `reply of ${bytes} bytes cut`;
      raw.push(tooLong ? `${r.text.slice(0, KEPT_OF_LONG_REPLY)} … [${cut}]` : r.text);
      usage.prompt_tokens += r.usage.prompt_tokens;
      usage.completion_tokens += r.usage.completion_tokens;
      latency += r.latency_ms;
      this.stats.calls++;
      this.stats.retries += r.retries;
      this.stats.prompt_tokens += r.usage.prompt_tokens;
      this.stats.completion_tokens += r.usage.completion_tokens;
      this.stats.latency_ms += r.latency_ms;
      if (attempt === 1) this.stats.reasks++;
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

  /**
   * One backend call, told to the progress stream when it goes out (the backend says when: after
   * waiting for one of its slots) and when it comes back. A backend that never says is told of
   * once it has answered.
   */
  private async call(req: BackendRequest, signal: AbortSignal | undefined): Promise<BackendReply> {
    const emit = this.opts.onProgress;
    if (!emit) return this.backend.complete(req, this.opts.signal, signal);
    let started = false;
    let finished = false;
    const track: CallTracker = {
      started() {
        if (started) return;
        started = true;
        emit({ type: 'call-started', phase: JUDGE_CALLS });
      },
      finished(ok) {
        if (!started || finished) return;
        finished = true;
        emit({ type: 'call-finished', phase: JUDGE_CALLS, ok });
      },
    };
    let r: BackendReply;
    try {
      r = await this.backend.complete(req, this.opts.signal, signal, track);
    } catch (e) {
      track.finished(false); // a backend that said it started but not that it ended
      throw e;
    }
    track.started();
    track.finished(true);
    return r;
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
