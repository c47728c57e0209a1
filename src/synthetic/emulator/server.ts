/**
 * The VLM emulator: an HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API, for
 * tests and the demo. Clearly an emulator: it decodes the data-URL images and answers from pixel
 * statistics by a fixed rule; it is not a vision-language model. On request it injects faults.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultDraws, type FaultKind, type FaultPlan, faultReply } from './faults.js';
import { type ImageFeatures, imageFeatures } from './features.js';
import { HANDLERS } from './prompts.js';
import { RateBuckets, type RateLimitPlan } from './rate-limit.js';
import { type ChatBody, chatParts, completion, readBody, send } from './wire.js';

export { FAULT_KINDS, type FaultKind, type FaultPlan } from './faults.js';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  model?: string;
  /** Require this bearer key (401 otherwise). */
  apiKey?: string;
  latencyMs?: number;
  positionBias?: number;
  /** Pairwise: a bonus for the image labelled "A" (default 0). */
  labelBias?: number;
  faults?: FaultPlan;
  /**
   * A hosted API's limits, as token buckets refilled continuously: `rpm` requests and `tpm` tokens
   * per minute, holding at most `burst` requests (`burstTokens` tokens; a minute's worth by
   * default). A request is charged 1 request and its prompt tokens + max_tokens on arrival, the
   * unused part of max_tokens is given back with the reply; one that does not fit gets a 429 with
   * Retry-After (the wait until it would fit) and is not charged.
   */
  rateLimit?: RateLimitPlan;
}

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

export interface Emulator {
  url: string;
  port: number;
  log: LoggedRequest[];
  /** The most chat requests it has had open at once. */
  readonly peakInFlight: number;
  /** Resolves once no chat request is open (every logged request has its final status). */
  idle(): Promise<void>;
  /** Resolves once at least `n` chat requests have arrived (logged). */
  requests(n: number): Promise<void>;
  setFaults(f: FaultPlan | undefined): void;
  setLatency(ms: number): void;
  close(): Promise<void>;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const model = opts.model ?? 'kfbench-emulator';
  let latency = opts.latencyMs ?? 0;
  const faults = new FaultDraws(opts.faults);
  const started = performance.now();
  const log: LoggedRequest[] = [];
  const features = new Map<string, Promise<ImageFeatures>>();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let inFlight = 0;
  let peakInFlight = 0;
  // waiters for the events tests wait on (never a fixed sleep): no request open; n requests arrived
  let idleWaiters: (() => void)[] = [];
  let countWaiters: { n: number; resolve: () => void }[] = [];
  const arrived = () => {
    const ready = countWaiters.filter((w) => log.length >= w.n);
    countWaiters = countWaiters.filter((w) => log.length < w.n);
    for (const w of ready) w.resolve();
  };
  const settled = () => {
    if (inFlight > 0) return;
    const ws = idleWaiters;
    idleWaiters = [];
    for (const w of ws) w();
  };
  const limits = opts.rateLimit ? new RateBuckets(opts.rateLimit) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/__log') return send(res, 200, { requests: log.length, log });
    if (req.method === 'GET' && req.url?.endsWith('/models'))
      return send(res, 200, { object: 'list', data: [{ id: model, object: 'model' }] });
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
      return send(res, 404, { error: { message: 'not found' } });
    const entry: LoggedRequest = {
      n: log.length,
      t: performance.now() - started,
      key: '',
      kind: '?',
      fault: null,
      status: 0,
    };
    log.push(entry);
    arrived();
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      entry.status = 401;
      return send(res, 401, { error: { message: 'invalid api key', type: 'invalid_request_error' } });
    }
    let body: ChatBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatBody;
    } catch {
      entry.status = 400;
      return send(res, 400, { error: { message: 'body is not JSON' } });
    }
    if (body.model !== model) {
      entry.status = 404;
      return send(res, 404, {
        error: {
          message: `The model \`${body.model}\` does not exist`,
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      });
    }
    const { text, images: bytes, audio } = chatParts(body);
    entry.text = text;
    if (audio) entry.audio = true;
    if (typeof body.seed === 'number') entry.seed = body.seed;
    // each image hashed once: its features are remembered by it, the request's key is made of them
    const digests = bytes.map((b) => createHash('sha256').update(b).digest('hex'));
    const hash = createHash('sha256').update(text);
    for (const d of digests) hash.update(d);
    entry.key = hash.digest('hex').slice(0, 16);
    const handler = HANDLERS.find((h) => h.matches(text));
    entry.kind = handler?.kind ?? 'unknown';
    const promptTokens = Math.ceil(text.length / 4) + 258 * bytes.length;
    const fault = faults.draw();
    entry.fault = fault;
    if (limits) {
      const cost = promptTokens + (body.max_tokens ?? 256);
      const wait = limits.wait(cost);
      if (wait > 0) {
        entry.status = 429;
        return send(
          res,
          429,
          { error: { message: 'rate limit reached', type: 'rate_limit_error' } },
          { 'retry-after': String(Math.ceil(wait) / 1000), 'retry-after-ms': String(Math.ceil(wait)) },
        );
      }
      entry.tokens = cost;
    }
    // the answer's image features are computed during the latency, not after it (a server's
    // latency includes its own work); a failure surfaces where they are awaited
    const featuresP = handler
      ? Promise.all(
          bytes.map((b, i) => {
            const k = digests[i]!;
            let f = features.get(k);
            if (!f) {
              f = imageFeatures(b);
              features.set(k, f);
            }
            return f;
          }),
        )
      : undefined;
    featuresP?.catch(() => undefined);
    if (latency > 0) await sleep(latency);
    const faulted = await faultReply(fault, faults.plan, model, promptTokens, req, res);
    if (faulted !== undefined) {
      entry.status = faulted;
      return;
    }
    if (res.destroyed || req.socket.destroyed) {
      entry.status = -2;
      return;
    }
    let content: string;
    if (!handler) content = 'I do not understand what you are asking me to compare.';
    else {
      const feats = await featuresP!;
      content = JSON.stringify(
        handler.answer({
          text,
          images: feats,
          positionBias: opts.positionBias ?? 0.002,
          labelBias: opts.labelBias ?? 0,
          malformed: fault === 'bad-items',
          fault,
        }),
      );
    }
    if (res.destroyed || req.socket.destroyed) {
      entry.status = -2;
      return;
    }
    entry.status = 200;
    const reply = completion(model, content, promptTokens);
    if (limits?.limitsTokens && entry.tokens !== undefined) {
      // give back the reserved completion tokens the reply did not use
      const used = promptTokens + Math.ceil(content.length / 4);
      limits.refund(entry.tokens - used);
      entry.tokens = used;
    }
    send(res, 200, reply);
  };

  const server: Server = createServer((req, res) => {
    const chat = req.method === 'POST';
    if (chat) peakInFlight = Math.max(peakInFlight, ++inFlight);
    handle(req, res)
      .catch((e: unknown) => {
        if (!res.headersSent && !res.destroyed)
          send(res, 500, { error: { message: String((e as Error).message) } });
      })
      .finally(() => {
        if (chat) inFlight--;
        settled();
      });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    log,
    get peakInFlight() {
      return peakInFlight;
    },
    idle: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)),
    requests: (n) =>
      log.length >= n ? Promise.resolve() : new Promise<void>((resolve) => countWaiters.push({ n, resolve })),
    setFaults(f) {
      faults.set(f);
    },
    setLatency(ms) {
      latency = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
