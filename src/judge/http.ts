/**
 * The judge's HTTP client: one JSON POST over Node's own `http`/`https` with keep-alive sockets
 * per endpoint. The only file of the judge layer that opens connections. It replaces the `openai`
 * SDK's fetch path, which cost ≈ 4× the CPU per call (bench/RESULTS.md, "Judge client per call"):
 * it says what happened — a status with its headers and body, or a typed failure (timeout,
 * connection, aborted) — and leaves retrying to the caller.
 */
import http from 'node:http';
import https from 'node:https';

/** The beginning of a body over its limit that is kept (what a reply's record shows of it). */
const KEPT_OF_OVER_LIMIT = 4096;

/** How long a kept-alive socket may stay idle (a socket in use is never timed out by it). */
const IDLE_SOCKET_MS = 4_000;

export type HttpFailureKind = 'timeout' | 'connection' | 'aborted';

/** A request that got no HTTP reply: no reply within the timeout, a connection error, or an abort. */
export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    /** The system error code of a connection failure (ECONNREFUSED, ECONNRESET, ENOTFOUND …). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpFailure';
  }
}

export interface HttpReply {
  status: number;
  /** Header names in lower case. */
  headers: http.IncomingHttpHeaders;
  /** The body; when `overLimit`, only its first 4 KiB at most. */
  body: string;
  /**
   * The body was longer than the request's `maxBodyBytes`: reading stopped at the limit (or, when
   * its content-length said so, before any of it) and the connection was closed. `declared`: the
   * content-length, when there was one.
   */
  overLimit?: { limit: number; declared?: number };
}

/** One base URL's connections: a keep-alive agent and the URL the chat requests go to. */
export class HttpEndpoint {
  private readonly agent: http.Agent;
  /** Where the requests go, as request options (made once: a URL is converted again on every request). */
  private readonly target: http.RequestOptions;
  private readonly send: typeof http.request;

  /** `base`: a base URL such as http://127.0.0.1:8000/v1; `path` is appended to its path. */
  constructor(base: string, path: string) {
    const u = new URL(base);
    u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
    const secure = u.protocol === 'https:';
    this.target = {
      protocol: u.protocol,
      // an IPv6 literal's brackets are the URL's, not the host's
      hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: u.port || (secure ? 443 : 80),
      path: `${u.pathname}${u.search}`,
    };
    this.send = secure ? https.request : http.request;
    // idle sockets are kept for the next call (and never keep the process alive: Node unrefs them),
    // but closed after 4 s idle, before servers close theirs (Node's and uvicorn's 5 s): a request
    // must not go out on a socket the server is closing (undici's default, which the SDK had)
    const keep = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    this.agent = secure ? new https.Agent(keep) : new http.Agent(keep);
  }

  /**
   * POST `body` (JSON, UTF-8). Resolves with any HTTP reply, whatever its status; rejects with an
   * HttpFailure when none came within `timeoutMs` (the whole body included), the connection
   * failed, or `signal` aborted. A reply body is never held beyond `maxBodyBytes`: reading stops
   * there, the connection is closed and the reply comes back `overLimit` (issue 46: an endless
   * reply was buffered whole, to 3.5 GB).
   */
  post(
    body: Buffer,
    headers: Record<string, string>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    maxBodyBytes: number,
  ): Promise<HttpReply> {
    return new Promise<HttpReply>((resolve, reject) => {
      if (signal?.aborted) return reject(new HttpFailure('aborted', 'request aborted'));
      let settled = false;
      const finish = (e: HttpFailure | undefined, r?: HttpReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        // a reply not read to its end leaves its socket unusable: closed, never kept for the next call
        if (e || r?.overLimit) req.destroy();
        if (e) reject(e);
        else resolve(r!);
      };
      const onAbort = () => finish(new HttpFailure('aborted', 'request aborted'));
      const req = this.send({
        ...this.target,
        method: 'POST',
        agent: this.agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': String(body.length),
        },
      });
      const timer = setTimeout(
        () => finish(new HttpFailure('timeout', `no reply within ${timeoutMs} ms`)),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e: NodeJS.ErrnoException) =>
        finish(new HttpFailure('connection', e.message, typeof e.code === 'string' ? e.code : undefined)),
      );
      req.on('response', (res) => {
        const reply = (text: string, overLimit?: HttpReply['overLimit']) => ({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          ...(overLimit ? { overLimit } : {}),
        });
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBodyBytes)
          return finish(undefined, reply('', { limit: maxBodyBytes, declared }));
        const chunks: Buffer[] = [];
        let got = 0;
        res.on('data', (c: Buffer) => {
          if (settled) return;
          got += c.length;
          if (got <= maxBodyBytes) return void chunks.push(c);
          // only the body's beginning is told of a reply over the limit: the rest is let go at once
          chunks.push(c);
          const head = Buffer.concat(chunks, Math.min(got, KEPT_OF_OVER_LIMIT)).toString('utf8');
          chunks.length = 0;
          finish(undefined, reply(head, { limit: maxBodyBytes }));
        });
        res.on('error', (e: NodeJS.ErrnoException) =>
          finish(new HttpFailure('connection', e.message, typeof e.code === 'string' ? e.code : undefined)),
        );
        // a reply cut short ends with 'close' and no 'end' (or with an 'error'): a connection failure
        res.on('close', () => {
          if (!settled) finish(new HttpFailure('connection', 'the reply was cut short', 'ECONNRESET'));
        });
        res.on('end', () => finish(undefined, reply(Buffer.concat(chunks).toString('utf8'))));
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
