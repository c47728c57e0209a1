/**
 * The emulator's injected faults: which request gets one (a seeded draw at the plan's rate, up to
 * its limit) and the reply each transport fault sends in place of the answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRng, type Rng } from '../../stats/rng.js';
import { completion, send } from './wire.js';

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
  | 'long'
  /**
   * A chat completion whose content never ends: sent in chunks (no content-length) for as long as
   * the client reads, up to `endlessBytes` (then closed as valid JSON). By name only.
   */
  | 'endless'
  /** A chat completion of `hugeBytes` content bytes with its content-length, streamed. By name only. */
  | 'huge';
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
  /** Where an `endless` reply stops if the client reads on (default 4 GiB). */
  endlessBytes?: number;
  /** Content bytes of a `huge` reply (default 50 MB). */
  hugeBytes?: number;
}

/** The plan in force and its seeded draws (a new plan starts its count and its draws afresh). */
export class FaultDraws {
  private rng: Rng;
  private injected = 0;
  constructor(public plan: FaultPlan | undefined) {
    this.rng = createRng(plan?.seed ?? 1);
  }

  set(plan: FaultPlan | undefined): void {
    this.plan = plan;
    this.injected = 0;
    this.rng = createRng(plan?.seed ?? 1);
  }

  /** The fault this request gets, if any. */
  draw(): FaultKind | null {
    const f = this.plan;
    const room = !!f && (f.limit === undefined || this.injected < f.limit);
    const fault =
      f && room && f.kinds.length && this.rng.next() < f.rate ? f.kinds[this.rng.int(f.kinds.length)]! : null;
    if (fault) this.injected++;
    return fault;
  }
}

/**
 * Send the reply of a transport or format fault (the status sent, -1 for a reset on purpose), or
 * undefined when the fault leaves the answer to be given (none, `slow` once held, semantic ones).
 */
export async function faultReply(
  fault: FaultKind | null,
  plan: FaultPlan | undefined,
  model: string,
  promptTokens: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<number | undefined> {
  const reply = (content: string) => {
    send(res, 200, completion(model, content, promptTokens));
    return 200;
  };
  switch (fault) {
    case 'http429':
      send(
        res,
        429,
        { error: { message: 'rate limited', type: 'rate_limit_error' } },
        { 'retry-after': String(plan?.retryAfterS ?? 1) },
      );
      return 429;
    case 'http500':
      send(res, 500, { error: { message: 'internal error' } });
      return 500;
    case 'reset':
      req.socket.destroy();
      return -1;
    case 'slow':
      // held until slowMs, or until the client gives up (then logged as abandoned at once)
      await new Promise<void>((resolve) => {
        if (res.destroyed || req.socket.destroyed) return resolve();
        const t = setTimeout(resolve, plan?.slowMs ?? 5000);
        res.once('close', () => {
          clearTimeout(t);
          resolve();
        });
      });
      return undefined;
    case 'prose':
      return reply('Looking at both images, I would say the first one is somewhat better overall.');
    case 'long':
      return reply('On reflection, '.padEnd(plan?.longBytes ?? 2 << 20, 'and further, '));
    case 'truncated':
      return reply('{"winner": "A", "rea');
    case 'empty':
      return reply('');
    case 'endless':
      return streamedReply(req, res, model, plan?.endlessBytes ?? 4 * 2 ** 30, false);
    case 'huge':
      return streamedReply(req, res, model, plan?.hugeBytes ?? 50e6, true);
    default:
      return undefined;
  }
}

const PROSE_CHUNK = Buffer.from('and further, '.repeat(5042)); // ≈ 64 KiB of prose, no JSON escapes

/**
 * A chat completion of `bytes` content bytes written chunk by chunk as the client reads (waiting for
 * 'drain'; the server never holds more than a chunk): with its content-length when `declared`, else
 * chunked. 200, or -2 when the client left first.
 */
async function streamedReply(
  req: IncomingMessage,
  res: ServerResponse,
  model: string,
  bytes: number,
  declared: boolean,
): Promise<number> {
  const envelope = JSON.stringify(completion(model, '\u0000', 0));
  const [head, tail] = envelope.split('"\\u0000"') as [string, string];
  const open = Buffer.from(`${head}"`);
  const close = Buffer.from(`"${tail}`);
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declared ? { 'content-length': String(open.length + bytes + close.length) } : {}),
  });
  const gone = () => res.destroyed || req.socket.destroyed;
  const write = (b: Buffer) =>
    new Promise<void>((resolve) => {
      if (res.write(b)) return resolve();
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  await write(open);
  for (let sent = 0; sent < bytes && !gone(); ) {
    const n = Math.min(PROSE_CHUNK.length, bytes - sent);
    await write(n === PROSE_CHUNK.length ? PROSE_CHUNK : PROSE_CHUNK.subarray(0, n));
    sent += n;
  }
  if (gone()) return -2;
  res.end(close);
  return 200;
}
