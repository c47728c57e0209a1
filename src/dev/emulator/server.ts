/**
 * The VLM emulator: an HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API, for
 * tests and the demo. Clearly an emulator: it decodes the data-URL images and answers from pixel
 * statistics by a fixed rule; it is not a vision-language model. On request it injects faults.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng, type Rng } from '../../stats/rng.js';
import { type ImageFeatures, imageFeatures } from './features.js';
import { HANDLERS } from './prompts.js';

/**
 * `bad-items`, `weak-guideline` and `greedy-guideline` are semantic faults: the reply is valid JSON
 * but wrong in content (the Compass grouped judge's items; a rubric proposal whose reversal flips
 * nothing, or that overturns other pairs); prompts they do not concern are answered normally.
 */
export type FaultKind =
  | 'http429'
  | 'http500'
  | 'slow'
  | 'reset'
  | 'prose'
  | 'truncated'
  | 'empty'
  | 'bad-items'
  | 'weak-guideline'
  | 'greedy-guideline'
  /** A reply of `longBytes` bytes of prose (not in FAULT_KINDS: asked for by name only). */
  | 'long';
export const FAULT_KINDS: FaultKind[] = [
  'http429',
  'http500',
  'slow',
  'reset',
  'prose',
  'truncated',
  'empty',
  'bad-items',
  'weak-guideline',
  'greedy-guideline',
];

export interface FaultPlan {
  /** Probability that a request gets a fault. */
  rate: number;
  kinds: FaultKind[];
  retryAfterS?: number;
  /** How long a `slow` reply is held (default 5 s); it ends early, as abandoned, when the client leaves. */
  slowMs?: number;
  seed?: number | string;
  /** Inject at most this many faults, then answer normally. */
  limit?: number;
  /** Size of a `long` reply (default 2 MiB). */
  longBytes?: number;
}

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
  rateLimit?: { rpm?: number; tpm?: number; burst?: number; burstTokens?: number };
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

interface ChatBody {
  model?: string;
  seed?: number;
  max_tokens?: number;
  messages?: {
    role: string;
    content: string | { type: string; text?: string; image_url?: { url: string } }[];
  }[];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function completion(model: string, content: string, promptTokens: number): unknown {
  return {
    id: `emu-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: Math.ceil(content.length / 4),
      total_tokens: promptTokens + Math.ceil(content.length / 4),
    },
  };
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const model = opts.model ?? 'kfbench-emulator';
  let latency = opts.latencyMs ?? 0;
  let faults = opts.faults;
  let rng: Rng = createRng(faults?.seed ?? 1);
  let injected = 0;
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
  const rl = opts.rateLimit;
  const bucket = (perMinute: number | undefined, cap: number | undefined) =>
    perMinute === undefined
      ? undefined
      : { rate: perMinute / 60_000, cap: cap ?? perMinute, level: cap ?? perMinute, at: performance.now() };
  const reqs = bucket(rl?.rpm, rl?.burst);
  const toks = bucket(rl?.tpm, rl?.burstTokens);
  const refill = (b: NonNullable<typeof reqs>, now: number) => {
    b.level = Math.min(b.cap, b.level + (now - b.at) * b.rate);
    b.at = now;
  };
  /** ms until a request costing `tokens` fits (0: it fits now, and is charged). */
  const rateWait = (tokens: number): number => {
    const now = performance.now();
    let wait = 0;
    for (const [b, cost] of [
      [reqs, 1],
      [toks, tokens],
    ] as const) {
      if (!b) continue;
      refill(b, now);
      if (b.level < Math.min(cost, b.cap)) wait = Math.max(wait, (Math.min(cost, b.cap) - b.level) / b.rate);
    }
    if (wait > 0) return Math.max(1, wait);
    if (reqs) reqs.level -= 1;
    if (toks) toks.level -= tokens;
    return 0;
  };

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
    const parts = (body.messages ?? []).flatMap((m) =>
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content,
    );
    const text = parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('\n');
    if (parts.some((p) => p.type === 'input_audio')) entry.audio = true;
    if (typeof body.seed === 'number') entry.seed = body.seed;
    const urls = parts.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url ?? '');
    const bytes = urls.map((u) => Buffer.from(u.slice(u.indexOf(',') + 1), 'base64'));
    const hash = createHash('sha256').update(text);
    for (const b of bytes) hash.update(b);
    entry.key = hash.digest('hex').slice(0, 16);
    const handler = HANDLERS.find((h) => h.matches(text));
    entry.kind = handler?.kind ?? 'unknown';
    const promptTokens = Math.ceil(text.length / 4) + 258 * bytes.length;
    const room = !!faults && (faults.limit === undefined || injected < faults.limit);
    const fault =
      faults && room && faults.kinds.length && rng.next() < faults.rate
        ? faults.kinds[rng.int(faults.kinds.length)]!
        : null;
    if (fault) injected++;
    entry.fault = fault;
    if (opts.rateLimit) {
      const cost = promptTokens + (body.max_tokens ?? 256);
      const wait = rateWait(cost);
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
          bytes.map((b) => {
            const k = createHash('sha256').update(b).digest('hex');
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
    switch (fault) {
      case 'http429':
        entry.status = 429;
        return send(
          res,
          429,
          { error: { message: 'rate limited', type: 'rate_limit_error' } },
          { 'retry-after': String(faults?.retryAfterS ?? 1) },
        );
      case 'http500':
        entry.status = 500;
        return send(res, 500, { error: { message: 'internal error' } });
      case 'reset':
        entry.status = -1;
        req.socket.destroy();
        return;
      case 'slow':
        // held until slowMs, or until the client gives up (then logged as abandoned at once)
        await new Promise<void>((resolve) => {
          if (res.destroyed || req.socket.destroyed) return resolve();
          const t = setTimeout(resolve, faults?.slowMs ?? 5000);
          res.once('close', () => {
            clearTimeout(t);
            resolve();
          });
        });
        break;
      case 'prose':
        entry.status = 200;
        return send(
          res,
          200,
          completion(
            model,
            'Looking at both images, I would say the first one is somewhat better overall.',
            promptTokens,
          ),
        );
      case 'long':
        entry.status = 200;
        return send(
          res,
          200,
          completion(
            model,
            'On reflection, '.padEnd(faults?.longBytes ?? 2 << 20, 'and further, '),
            promptTokens,
          ),
        );
      case 'truncated':
        entry.status = 200;
        return send(res, 200, completion(model, '{"winner": "A", "rea', promptTokens));
      case 'empty':
        entry.status = 200;
        return send(res, 200, completion(model, '', promptTokens));
      default:
        break;
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
    if (toks && entry.tokens !== undefined) {
      // give back the reserved completion tokens the reply did not use
      const used = promptTokens + Math.ceil(content.length / 4);
      toks.level = Math.min(toks.cap, toks.level + Math.max(0, entry.tokens - used));
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
      faults = f;
      injected = 0;
      rng = createRng(f?.seed ?? 1);
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
