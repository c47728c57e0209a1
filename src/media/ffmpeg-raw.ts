/**
 * Raw frames streamed from one ffmpeg process: its stdout a Unix socket read into one reused
 * buffer (socket-frames.ts), an optional second output on `pipe:3` read as it flows (small frames,
 * a pipe). The socket is kept over a pipe for the main output because it pays: `npx tsx
 * bench/frame-reading.ts --rounds 7` (the scan's 512×288 frames, 240 a decode) measured node's CPU
 * a decode at 68.7 → 53.2 ms and 63.4 → 48.0 ms (−23 %, −24 %; load 6–15) on 2026-12-05, and
 * 99.8 → 62.8 ms (−37 %, load 1) when it came in (bench/RESULTS.md); the issue #47 bar was 10 %.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { BackendError, BadInputError, KfbenchError } from '../errors.js';
import { DECODE_ERROR, StderrTail, spawnError } from './ffmpeg-output.js';
import { childEnv, FFMPEG_LEAD_ARGS, ffmpegBinary, mayStart, track } from './ffmpeg-processes.js';
import { FrameCutter } from './frame-cutter.js';
import { SocketFrames } from './socket-frames.js';

export interface RawPipeOptions {
  /** Full ffmpeg argument list (inputs, filters, `-f rawvideo -pix_fmt … pipe:1`). */
  args: string[];
  /**
   * Bytes per output frame; a promise lets ffmpeg start before the frame size is known (nothing
   * is read until it resolves; if it rejects, ffmpeg is stopped and the generator throws that).
   */
  frameBytes: number | Promise<number>;
  /** The file named in errors. */
  file: string;
  signal?: AbortSignal | undefined;
  /**
   * Treat decoder errors reported on stderr as fatal (a truncated or corrupt file).
   * ffmpeg often exits 0 after concealing damage; we do not want silently wrong pixels.
   */
  strictDecode?: boolean;
  /**
   * A second output of the same process on `pipe:3` (its own filter chain, e.g. a small grey copy
   * for camera motion): its fixed-size frames are handed to `onFrame` as they arrive, never
   * paused, so ffmpeg cannot block on it while the main output waits for its consumer. One decode
   * and one process start instead of two. A throw from `onFrame` stops the process and is thrown.
   */
  side?: { frameBytes: number; onFrame: (frame: Buffer) => void } | undefined;
}

/**
 * Stream fixed-size raw frames from one ffmpeg process through a Unix socket. Back-pressure comes
 * from the async iterator (the socket pauses while the consumer is busy); breaking out of the loop
 * or aborting `signal` kills the process.
 */
export async function* ffmpegRawFrames(opts: RawPipeOptions): AsyncGenerator<Buffer, void, void> {
  const bin = ffmpegBinary();
  const cancelled = () => new BackendError(`decoding ${opts.file} was cancelled`);
  // stdout is a Unix socket read into one reused buffer (socket-frames.ts), not a pipe
  mayStart();
  if (opts.signal?.aborted) throw cancelled();
  const out = await SocketFrames.open();
  let child: ChildProcessByStdio<Writable | null, null, Readable>;
  try {
    mayStart();
    // aborted while the socket was opening: nothing is started
    if (opts.signal?.aborted) throw cancelled();
    child = track(
      spawn(bin, [...FFMPEG_LEAD_ARGS, '-v', 'error', ...opts.args], {
        env: childEnv(),
        stdio: opts.side ? ['ignore', out.childEnd, 'pipe', 'pipe'] : ['ignore', out.childEnd, 'pipe'],
      }) as ChildProcessByStdio<null, null, Readable>,
    );
  } catch (e) {
    out.destroy();
    if (e instanceof KfbenchError) throw e;
    throw spawnError(bin, e as NodeJS.ErrnoException);
  } finally {
    out.releaseChildEnd();
  }
  const stderr = new StderrTail();
  child.stderr.on('data', (c: Buffer) => stderr.push(c));
  let spawnFailure: Error | undefined;
  child.on('error', (e) => {
    spawnFailure = spawnError(bin, e as NodeJS.ErrnoException);
  });
  const side = opts.side ? readSide(child, opts.side) : undefined;
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const onAbort = () => child.kill('SIGKILL');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  let finished = false;
  try {
    // until the frame size is known nothing is read: the output waits in the socket (ffmpeg then
    // waits on it), even after ffmpeg has exited
    out.start(await opts.frameBytes);
    yield* out.frames();
    const code = await exited;
    if (spawnFailure) throw spawnFailure;
    if (side?.failure) throw side.failure;
    if (opts.signal?.aborted) throw cancelled();
    if (code !== 0) {
      throw new BadInputError(`cannot decode video (${stderr.reason()})`, { file: opts.file });
    }
    if (opts.strictDecode !== false && DECODE_ERROR.test(stderr.value)) {
      throw new BadInputError(`video is damaged or truncated (${stderr.reason()})`, { file: opts.file });
    }
    if (out.pendingBytes !== 0 || (side && side.pendingBytes() !== 0)) {
      throw new BadInputError('decoder stopped in the middle of a frame', { file: opts.file });
    }
    finished = true;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (!finished && child.exitCode === null) child.kill('SIGKILL');
    out.destroy();
  }
}

/** The side output (`pipe:3`) of a raw-frame process: cut into frames and handed over as it flows. */
function readSide(
  child: ChildProcess,
  side: NonNullable<RawPipeOptions['side']>,
): { failure: unknown; pendingBytes: () => number } {
  const cut = new FrameCutter(side.frameBytes);
  const state = { failure: undefined as unknown, pendingBytes: () => cut.pendingBytes };
  const pipe = child.stdio[3] as Readable;
  pipe.on('data', (chunk: Buffer) => {
    if (state.failure !== undefined) return;
    try {
      for (const frame of cut.push(chunk)) side.onFrame(frame);
    } catch (e) {
      state.failure = e;
      child.kill('SIGKILL');
    }
  });
  return state;
}
