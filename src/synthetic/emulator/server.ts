/**
 * The VLM emulator: an HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API, for
 * tests and the demo. Clearly an emulator: it decodes the data-URL images and answers from pixel
 * statistics by a fixed rule (and, for an attached WAV track, from its loudness); it is not a
 * vision-language model. On request it injects faults.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { audioFeatures } from './audio.js';
import { FaultDraws, type FaultKind, type FaultPlan, faultReply } from './faults.js';
import { type ImageFeatures, imageFeatures } from './features.js';
import type { PromptHandler } from './handler.js';
import { HANDLERS } from './prompts.js';
import { RateBuckets, type RateLimitPlan } from './rate-limit.js';
import { type LoggedRequest, Traffic } from './traffic.js';
import { type ChatBody, chatParts, completion, readBody, send } from './wire.js';

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

/** What one running emulator keeps between requests. */
interface State {
  opts: EmulatorOptions;
  model: string;
  latency: number;
  faults: FaultDraws;
  traffic: Traffic;
  /** Each image's features by its sha256, computed once. */
  features: Map<string, Promise<ImageFeatures>>;
  limits: RateBuckets | undefined;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const s: State = {
    opts,
    model: opts.model ?? 'kfbench-emulator',
    latency: opts.latencyMs ?? 0,
    faults: new FaultDraws(opts.faults),
    traffic: new Traffic(),
    features: new Map(),
    limits: opts.rateLimit ? new RateBuckets(opts.rateLimit) : undefined,
  };
  const server: Server = createServer((req, res) => {
    const chat = req.method === 'POST';
    if (chat) s.traffic.open();
    handle(s, req, res)
      .catch((e: unknown) => {
        if (!res.headersSent && !res.destroyed)
          send(res, 500, { error: { message: String((e as Error).message) } });
      })
      .finally(() => s.traffic.closed(chat));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    log: s.traffic.log,
    get peakInFlight() {
      return s.traffic.peakInFlight;
    },
    idle: () => s.traffic.idle(),
    requests: (n) => s.traffic.requests(n),
    setFaults(f) {
      s.faults.set(f);
    },
    setLatency(ms) {
      s.latency = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(s: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET' && req.url === '/__log')
    return send(res, 200, { requests: s.traffic.log.length, log: s.traffic.log });
  if (req.method === 'GET' && req.url?.endsWith('/models'))
    return send(res, 200, { object: 'list', data: [{ id: s.model, object: 'model' }] });
  if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
    return send(res, 404, { error: { message: 'not found' } });
  const entry = s.traffic.arrive();
  const body = await readChat(s, req, res, entry);
  if (!body) return;
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
  const fault = s.faults.draw();
  entry.fault = fault;
  if (!charge(s, res, entry, promptTokens + (body.max_tokens ?? 256))) return;
  // the answer's image features are computed during the latency, not after it (a server's
  // latency includes its own work); a failure surfaces where they are awaited
  const featuresP = handler ? Promise.all(bytes.map((b, i) => featuresOf(s, b, digests[i]!))) : undefined;
  featuresP?.catch(() => undefined);
  if (s.latency > 0) await new Promise((r) => setTimeout(r, s.latency));
  const faulted = await faultReply(fault, s.faults.plan, s.model, promptTokens, req, res);
  if (faulted !== undefined) {
    entry.status = faulted;
    return;
  }
  if (res.destroyed || req.socket.destroyed) {
    entry.status = -2;
    return;
  }
  const content = handler
    ? JSON.stringify(answer(s, handler, { text, images: await featuresP!, audio, fault }))
    : 'I do not understand what you are asking me to compare.';
  if (res.destroyed || req.socket.destroyed) {
    entry.status = -2;
    return;
  }
  entry.status = 200;
  const reply = completion(s.model, content, promptTokens);
  if (s.limits?.limitsTokens && entry.tokens !== undefined) {
    // give back the reserved completion tokens the reply did not use
    const used = promptTokens + Math.ceil(content.length / 4);
    s.limits.refund(entry.tokens - used);
    entry.tokens = used;
  }
  send(res, 200, reply);
}

/** The request's body once it passed the key, JSON and model checks; undefined once refused. */
async function readChat(
  s: State,
  req: IncomingMessage,
  res: ServerResponse,
  entry: LoggedRequest,
): Promise<ChatBody | undefined> {
  if (s.opts.apiKey && req.headers.authorization !== `Bearer ${s.opts.apiKey}`) {
    entry.status = 401;
    send(res, 401, { error: { message: 'invalid api key', type: 'invalid_request_error' } });
    return undefined;
  }
  let body: ChatBody;
  try {
    body = JSON.parse(await readBody(req)) as ChatBody;
  } catch {
    entry.status = 400;
    send(res, 400, { error: { message: 'body is not JSON' } });
    return undefined;
  }
  if (body.model !== s.model) {
    entry.status = 404;
    send(res, 404, {
      error: {
        message: `The model \`${body.model}\` does not exist`,
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    });
    return undefined;
  }
  return body;
}

/** Charge the rate limiter `cost` tokens; false (a 429 sent, nothing charged) when it does not fit. */
function charge(s: State, res: ServerResponse, entry: LoggedRequest, cost: number): boolean {
  if (!s.limits) return true;
  const wait = s.limits.wait(cost);
  if (wait > 0) {
    entry.status = 429;
    send(
      res,
      429,
      { error: { message: 'rate limit reached', type: 'rate_limit_error' } },
      { 'retry-after': String(Math.ceil(wait) / 1000), 'retry-after-ms': String(Math.ceil(wait)) },
    );
    return false;
  }
  entry.tokens = cost;
  return true;
}

function featuresOf(s: State, bytes: Buffer, digest: string): Promise<ImageFeatures> {
  let f = s.features.get(digest);
  if (!f) {
    f = imageFeatures(bytes);
    s.features.set(digest, f);
  }
  return f;
}

function answer(
  s: State,
  handler: PromptHandler,
  a: { text: string; images: ImageFeatures[]; audio: Buffer | null; fault: FaultKind | null },
): unknown {
  const heard = a.audio ? audioFeatures(a.audio) : null;
  return handler.answer({
    text: a.text,
    images: a.images,
    ...(heard ? { audio: heard } : {}),
    positionBias: s.opts.positionBias ?? 0.002,
    labelBias: s.opts.labelBias ?? 0,
    malformed: a.fault === 'bad-items',
    fault: a.fault,
  });
}
