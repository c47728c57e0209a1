/**
 * The one `fetch` the hub client (@huggingface/hub) is given, so that nothing a hub (or a mirror,
 * or a server it redirects to) sends is taken on trust:
 * - `HF_TOKEN` goes only to the endpoint's own origin: a request the client makes to any other
 *   host (a redirect target it chose to trust) leaves without `Authorization`;
 * - every request waits at most `timeoutMs` for its answer, and a body at most `timeoutMs` between
 *   two chunks: then a one-line BackendError names the host and what was waited for (exit 4);
 * - an API answer, an error body and a range probe are capped at `smallMax` bytes (a file's own
 *   bytes are capped at the size the hub declared, by hub-blob.ts).
 * Messages name the endpoint through `redactHubUrl` (no `user:password@`, no query string).
 */
import { BackendError } from '../errors.js';

/** A URL as a message may show it: no credentials, no query or fragment (a token often sits there). */
export function redactHubUrl(url: string): string {
  return url.replace(/(\/\/)[^/?#@\s]*@/, '$1').replace(/[?#]\S*/, '?…');
}

/** A message with every URL in it redacted as `redactHubUrl` does. */
export function redactHubText(text: string): string {
  return text.replace(/\b[a-z][\w+.-]*:\/\/[^\s"'<>]+/gi, (u) => redactHubUrl(u));
}

export interface HubFetchLimits {
  /** The most ms to wait for an answer, or between two chunks of a body. */
  timeoutMs: number;
  /** The most bytes of an API answer, an error body or a range probe. */
  smallMax: number;
}

/** Default limits; `KFBENCH_HUB_TIMEOUT_S` sets the wait (for a slow link or a test). */
function hubFetchLimits(env: NodeJS.ProcessEnv = process.env): HubFetchLimits {
  const s = Number(env.KFBENCH_HUB_TIMEOUT_S);
  return { timeoutMs: Number.isFinite(s) && s > 0 ? s * 1000 : 60_000, smallMax: 1 << 20 };
}

function withoutAuth(headers: RequestInit['headers']): Headers {
  const h = new Headers(headers);
  h.delete('authorization');
  return h;
}

/** A body that fails on `limit` bytes (when set) and resets `touch` on every chunk. */
function guardedBody(
  body: ReadableStream<Uint8Array>,
  limit: number | undefined,
  touch: () => void,
  tooBig: () => Error,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let got = 0;
  return new ReadableStream<Uint8Array>({
    async pull(ctl) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          done();
          ctl.close();
          return;
        }
        touch();
        got += value.byteLength;
        if (limit !== undefined && got > limit) {
          done();
          await reader.cancel().catch(() => undefined);
          ctl.error(tooBig());
          return;
        }
        ctl.enqueue(value);
      } catch (e) {
        done();
        ctl.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/** The guarded fetch for `endpoint` (see the file's comment). */
export function hubFetch(endpoint: string, limits: HubFetchLimits = hubFetchLimits()): typeof fetch {
  const origin = new URL(endpoint).origin;
  const guarded = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const headers = url.origin === origin ? new Headers(init.headers) : withoutAuth(init.headers);
    const method = init.method ?? 'GET';
    const what = `${method} ${redactHubUrl(`${url.origin}${url.pathname}`)}`;
    const ctl = new AbortController();
    const secs = `${Math.round(limits.timeoutMs / 100) / 10} s`;
    let waiting = 'an answer';
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          ctl.abort(
            new BackendError(
              `the model hub ${url.host} sent nothing for ${secs} while kfbench waited for ${waiting} to ${what} (KFBENCH_HUB_TIMEOUT_S sets the wait)`,
            ),
          ),
        limits.timeoutMs,
      );
      timer.unref();
    };
    const stop = () => clearTimeout(timer);
    arm();
    const signal = init.signal ? AbortSignal.any([init.signal, ctl.signal]) : ctl.signal;
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers, signal });
    } catch (e) {
      stop();
      throw ctl.signal.aborted ? ctl.signal.reason : e;
    }
    waiting = 'the rest of the body';
    const probe = headers.get('range') !== null;
    const small = !res.ok || probe || url.pathname.startsWith('/api/');
    if (!res.body) {
      stop();
      return res;
    }
    const body = guardedBody(
      res.body,
      small ? limits.smallMax : undefined,
      arm,
      () =>
        new BackendError(
          `the model hub ${url.host} sent more than ${limits.smallMax} bytes in answer to ${what}`,
        ),
      stop,
    );
    const out = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(out, 'url', { value: res.url });
    return out;
  };
  return guarded as typeof fetch;
}
