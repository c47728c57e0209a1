/**
 * Scans in worker threads, for `--jobs N` with N > 1: a scan's JavaScript work (the embedder's
 * features, the shot detector, PSNR/SSIM, frame copies and their garbage) would otherwise share
 * the one main thread, so N jobs in one thread overlap decoding and no more.
 *
 * One worker per job slot (`worker.ts`), started when a scan first needs it and reused for
 * the next video; each makes its own embedder from `Embedder.spec` (an ONNX one gets its share of
 * the cores unless its threads were set: see `shareSpec`). The caller keeps the scan cache and the
 * progress events: the pool only turns a scan request into a `Scan`, or into the error the scan
 * threw, revived as the same class (a BadInputError with its file and message stays one, so a bad
 * video makes the same failed row as in-thread). Aborting the signal of a running scan stops its
 * worker: its ffmpeg/ffprobe processes are killed and it ends; `close()` stops every worker, and
 * an idle worker never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';
import { abortReason } from '../../concurrency/abort.js';
import { Semaphore } from '../../concurrency/semaphore.js';
import type { Embedder, EmbedderSpec } from '../../embed/embedder.js';
import { shareSpec } from '../../embed/registry.js';
import { BackendError, type ErrorData, reviveError } from '../../errors.js';
// sharp must be loaded by the main thread before any worker loads it (sharp's rule for worker
// threads: its shared libraries then stay loaded until every thread is done)
import '../../media/image.js';
import type { ShotOptions } from '../../media/shot-options.js';
import type { Scan, ScanTimings } from '../schemas/scan.js';
import type { ScanFn } from './cache.js';
import type { ScanOptions } from './options.js';
import type { ScanInput } from './scan.js';

/** What a scan worker is started with. */
export interface ScanWorkerData {
  embedder: EmbedderSpec;
}

/** Main thread → worker. */
export type ToScanWorker =
  | { type: 'scan'; input: ScanInput; opts: ScanOptions; shotOpts: Partial<ShotOptions> }
  /** Kill the running scan's processes, wait for it to end, close the embedder and end the thread. */
  | { type: 'stop' };

/** Worker → main thread. */
export type FromScanWorker =
  | { type: 'scanned'; scan: Scan; timings: ScanTimings }
  | { type: 'failed'; error: ErrorData };

/**
 * How long a stopping worker gets to end by itself before it is terminated: a worker terminated in
 * the middle of a sharp call can take the process down (lovell/sharp#2263), so it is the backstop
 * for a stuck worker only.
 */
const STOP_GRACE_MS = 10_000;

const counts = { live: 0, terminated: 0 };

/**
 * Scan workers started and not yet exited in this process (0 once every pool is closed), and how
 * many had to be terminated because they did not end by themselves when stopped.
 */
export function scanWorkerCounts(): { live: number; terminated: number } {
  return { ...counts };
}

/**
 * The worker's entry: the compiled `worker.js` beside this module. Workers always run
 * compiled code (the test suite runs them from `dist/` too: vitest.config.ts).
 */
const WORKER_ENTRY = new URL('./worker.js', import.meta.url);

function startWorker(data: ScanWorkerData): Worker {
  return new Worker(WORKER_ENTRY, { workerData: data });
}

/** One worker thread and the one scan it runs at a time. */
class ScanWorker {
  private readonly worker: Worker;
  /** Receives the worker's next message, or `undefined` when the thread has exited. */
  private listener: ((m: FromScanWorker | undefined) => void) | undefined;
  private exited: Error | undefined;
  private readonly exit: Promise<void>;
  private stopping: Promise<void> | undefined;

  constructor(data: ScanWorkerData) {
    this.worker = startWorker(data);
    counts.live++;
    this.worker.unref(); // referenced only while it scans
    let failure: Error | undefined;
    this.worker.on('error', (e) => {
      failure = e;
    });
    this.worker.on('message', (m: FromScanWorker) => this.listener?.(m));
    this.exit = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        counts.live--;
        this.exited =
          failure ?? new BackendError(`a scan worker stopped (exit code ${code}) before it answered`);
        this.listener?.(undefined);
        resolve();
      }),
    );
  }

  /** Neither exited nor stopping: it can take the next scan. */
  get usable(): boolean {
    return !this.exited && !this.stopping;
  }

  /** Scan in the worker; an abort stops the worker (its processes killed) and rejects with the abort's reason. */
  async scan(
    req: Extract<ToScanWorker, { type: 'scan' }>,
    signal: AbortSignal | undefined,
  ): Promise<{ scan: Scan; timings: ScanTimings }> {
    if (signal?.aborted) throw abortReason(signal);
    if (this.exited) throw this.exited;
    this.worker.ref();
    let onAbort: (() => void) | undefined;
    let mine: ((m: FromScanWorker | undefined) => void) | undefined;
    try {
      const answer = await new Promise<FromScanWorker | undefined>((resolve, reject) => {
        mine = resolve;
        this.listener = resolve;
        onAbort = () => {
          reject(abortReason(signal!));
          void this.stop();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.worker.postMessage(req);
      });
      if (answer?.type === 'scanned') return answer;
      if (answer?.type === 'failed') throw reviveError(answer.error);
      throw this.exited ?? new BackendError('a scan worker stopped before it answered');
    } finally {
      if (this.listener === mine) this.listener = undefined;
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      this.worker.unref();
    }
  }

  /**
   * Stop: the worker kills its ffmpeg/ffprobe processes and waits for them and for its scan, then
   * ends by itself (terminated only if it has not within STOP_GRACE_MS); resolves once the thread
   * has exited. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (!this.exited) {
        this.listener = undefined; // a scan's late answer is dropped: its caller has gone
        this.worker.postMessage({ type: 'stop' } satisfies ToScanWorker);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), STOP_GRACE_MS);
        });
        if (await Promise.race([this.exit.then(() => false), late])) {
          counts.terminated++;
          await this.worker.terminate();
        }
        clearTimeout(timer);
      }
      await this.exit;
    })();
    return this.stopping;
  }
}

export class ScanPool {
  private readonly slots: Semaphore;
  private readonly idle: ScanWorker[] = [];
  /** Every worker started that has not exited (stopping ones included). */
  private readonly all = new Set<ScanWorker>();
  private readonly data: ScanWorkerData;
  private closed = false;

  private constructor(spec: EmbedderSpec, size: number) {
    this.slots = new Semaphore(size);
    this.data = { embedder: shareSpec(spec, size) };
  }

  /**
   * A pool for `jobs` scans at once, or `undefined` when scans stay in the calling thread: one job,
   * or an embedder that cannot be made again in a worker (no `spec`).
   */
  static open(embedder: Embedder, jobs: number): ScanPool | undefined {
    if (jobs < 2 || !embedder.spec) return undefined;
    return new ScanPool(embedder.spec, Math.floor(jobs));
  }

  /** The spec each worker makes its embedder from. */
  get embedder(): EmbedderSpec {
    return this.data.embedder;
  }

  /** `cachedScan`'s scan function, scanning in this pool's workers; aborting `signal` stops a running scan. */
  scanFn(signal?: AbortSignal): ScanFn {
    return (input, _embedder, opts, shotOpts, timings) => this.scan(input, opts, shotOpts, timings, signal);
  }

  async scan(
    input: ScanInput,
    opts: ScanOptions,
    shotOpts: Partial<ShotOptions>,
    timings?: ScanTimings,
    signal?: AbortSignal,
  ): Promise<Scan> {
    const release = await this.slots.acquire(signal);
    let worker: ScanWorker | undefined;
    try {
      if (this.closed) throw new BackendError('the scan pool is closed');
      // an idle worker that died meanwhile is retired, not handed the next video
      worker = this.idle.pop();
      while (worker && !worker.usable) {
        void this.retire(worker);
        worker = this.idle.pop();
      }
      worker ??= this.start();
      const keyframes = input.keyframes.map((k) => ({ kf_id: k.kf_id, image: k.image }));
      const r = await worker
        .scan(
          {
            type: 'scan',
            input: { video: input.video, keyframes },
            opts: { ...opts },
            shotOpts: { ...shotOpts },
          },
          signal,
        )
        .catch((e: unknown) => {
          // a worker that died names no video: say which one it was scanning
          if (e instanceof BackendError && /scan worker stopped/.test(e.message))
            throw new BackendError(`${e.message} (scanning ${input.video})`, { cause: e });
          throw e;
        });
      if (timings) {
        timings.decode_embed_s += r.timings.decode_embed_s;
        timings.pixels_s += r.timings.pixels_s;
        if (r.timings.stage2_s !== undefined) timings.stage2_s = (timings.stage2_s ?? 0) + r.timings.stage2_s;
      }
      return r.scan;
    } finally {
      if (worker?.usable && !this.closed) this.idle.push(worker);
      else if (worker) void this.retire(worker);
      release();
    }
  }

  /** Stop every worker (a running scan's processes killed); resolves once all have exited. */
  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.all].map((w) => this.retire(w)));
  }

  private start(): ScanWorker {
    const w = new ScanWorker(this.data);
    this.all.add(w);
    return w;
  }

  private retire(w: ScanWorker): Promise<void> {
    return w.stop().finally(() => this.all.delete(w));
  }
}
