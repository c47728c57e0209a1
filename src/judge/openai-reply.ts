/**
 * What one HTTP reply of a chat-completions server means to the `openai` backend's retry loop
 * (openai.ts): a reply (a completion, or one too long to read), a failure to retry (with what the
 * server asked to wait), or a rejection that no retry mends.
 */
import type { HttpReply } from './http.js';
import { KEPT_OF_LONG_REPLY } from './reply-limit.js';
import type { BackendReply } from './types.js';

/** Statuses retried (besides every 5xx). */
const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504]);

/** What the server asked to wait (retry-after-ms, or Retry-After in seconds or as an HTTP date). */
function retryAfterMs(headers: HttpReply['headers']): number | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ms = one(headers['retry-after-ms']);
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const ra = one(headers['retry-after']);
  if (!ra) return undefined;
  if (Number.isFinite(Number(ra))) return Number(ra) * 1000;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** The parts of a chat completion this client reads (anything else in the reply is ignored). */
interface Completion {
  choices?: { message?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** The most tokens one reply may report; a larger, negative, fractional or non-number count is unknown. */
const MAX_REPORTED_TOKENS = 100_000_000;

/** A token count as the server reported it, or undefined when it is not a sane count. */
function tokenCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_REPORTED_TOKENS ? v : undefined;
}

/** A reply read: `reply` (and the tokens it used), `retry` (why, and the server's wait), or `rejected`. */
export type ReplyOutcome =
  | { kind: 'reply'; reply: BackendReply; tokens: number; badUsage?: string }
  | { kind: 'retry'; last: string | undefined; asked: number | undefined }
  | { kind: 'rejected'; what: string };

/** The call so far: when it started, its retries, its time budget, the body limit and the token estimate. */
export interface CallSoFar {
  t0: number;
  retries: number;
  deadline: number;
  limit: number;
  estimate: number;
  model: string;
}

/** What the reply `r` to one attempt means (see ReplyOutcome). */
export function readReply(r: HttpReply, call: CallSoFar): ReplyOutcome {
  const s = r.status;
  const ok = s >= 200 && s < 300;
  const { t0, retries, deadline } = call;
  if (ok && r.overLimit) {
    // a reply, but too long to read (issue 46): recorded as such by the judge, not retried here
    const why = '(6 × max_reply_bytes + 64 KiB)';
    const reply: BackendReply = {
      text: r.body.slice(0, KEPT_OF_LONG_REPLY),
      tooLong:
        r.overLimit.declared !== undefined
          ? `reply body of ${r.overLimit.declared} bytes (its content-length) is longer than the ${call.limit}-byte limit ${why}: not read`
          : `reply body longer than the ${call.limit}-byte limit ${why}: reading stopped there`,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
      latency_ms: performance.now() - t0,
      retries,
      deadline,
    };
    return { kind: 'reply', reply, tokens: call.estimate };
  }
  if (ok) {
    let c: Completion | undefined;
    try {
      c = JSON.parse(r.body) as Completion;
    } catch {
      // a proxy's HTML page, or a reply cut where the HTTP layer cannot tell (no length, the
      // connection closed): retried like a dropped connection, never the run's end
      return { kind: 'retry', last: `HTTP ${s} with a body that is not JSON`, asked: undefined };
    }
    // JSON null, false, 0 or "": retried, the reason left as it was
    if (!c) return { kind: 'retry', last: undefined, asked: undefined };
    // a usage that is not a sane count (a string, 1e308, -1) is unknown: counted as 0 and the
    // rate limiter keeps its estimate (issue 55 item 5: NaN or Infinity stalled it for ever)
    const prompt = tokenCount(c.usage?.prompt_tokens ?? 0);
    const completion = tokenCount(c.usage?.completion_tokens ?? 0);
    const sane = prompt !== undefined && completion !== undefined;
    const usage = { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0 };
    const reply: BackendReply = {
      // a reply without a message is an empty text: the judge's parse fails and it asks once more
      text: c.choices?.[0]?.message?.content ?? '',
      usage,
      latency_ms: performance.now() - t0,
      retries,
      deadline,
    };
    return {
      kind: 'reply',
      reply,
      tokens: (sane && usage.prompt_tokens + usage.completion_tokens) || call.estimate,
      ...(sane ? {} : { badUsage: JSON.stringify(c.usage).slice(0, 120) }),
    };
  }
  if (!RETRY_STATUS.has(s) && s < 500) {
    const what =
      s === 401 || s === 403
        ? 'authentication failed: check KFBENCH_API_KEY'
        : s === 404
          ? `model "${call.model}" or path not found`
          : 'request rejected';
    return { kind: 'rejected', what };
  }
  return { kind: 'retry', last: `HTTP ${s}`, asked: retryAfterMs(r.headers) };
}
