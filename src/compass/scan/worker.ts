/**
 * A scan worker thread (started by `pool.ts`, never imported): makes its embedder from the
 * spec it was started with, then scans one video per `scan` message with `scanVideo`, answering
 * with the scan and its timings, or with the error as data (revived as the same class by the pool).
 * `stop` kills the running scan's ffmpeg/ffprobe processes (and lets it start no others), waits for
 * the scan to end, closes the embedder and the port: the thread then ends by itself, with nothing
 * of sharp's or ONNX Runtime's cut off half-way.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { embedderFromSpec } from '../../embed/registry.js';
import { BackendError, errorData, InternalError } from '../../errors.js';
import { stopProcesses } from '../../media/ffmpeg-processes.js';
import type { ScanTimings } from '../schemas/scan.js';
import type { FromScanWorker, ScanWorkerData, ToScanWorker } from './pool.js';
import { scanVideo } from './scan.js';

const port = parentPort;
if (!port) throw new InternalError('scan-worker runs in a worker thread started by scan/pool.ts');
const data = workerData as ScanWorkerData;
// the caller made this embedder already: failing here is the worker's fault, not the video's
const embedder = embedderFromSpec(data.embedder).catch((e: unknown) => {
  throw new BackendError(
    `a scan worker could not make the embedder ${data.embedder.name}: ${e instanceof Error ? e.message : String(e)}`,
    { cause: e },
  );
});
embedder.catch(() => {}); // reported with each scan

const answer = (m: FromScanWorker) => port.postMessage(m);
/** The scan running now (it answers for itself and never rejects). */
let running: Promise<void> = Promise.resolve();

async function scan(m: Extract<ToScanWorker, { type: 'scan' }>): Promise<void> {
  try {
    const timings: ScanTimings = { decode_embed_s: 0, pixels_s: 0 };
    const scan = await scanVideo(m.input, await embedder, m.opts, m.shotOpts, timings);
    answer({ type: 'scanned', scan, timings });
  } catch (e) {
    answer({ type: 'failed', error: errorData(e) });
  }
}

async function stop(): Promise<void> {
  await stopProcesses();
  await running; // ends at once: its processes are gone and it can start no others
  await (await embedder.catch(() => undefined))?.close();
  port?.close();
}

port.on('message', (m: ToScanWorker) => {
  if (m.type === 'stop') void stop();
  else running = scan(m);
});
