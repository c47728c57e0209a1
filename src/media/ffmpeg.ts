/**
 * The only file that spawns ffmpeg or ffprobe. Everything else in kfbench asks this module.
 *
 * Binaries come from `FFMPEG_PATH` / `FFPROBE_PATH` when set, else from `PATH`.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { basename } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import { BackendError, BadInputError, CancelledError, KfbenchError } from '../errors.js';
import { DECODE_ERROR, StderrTail, spawnError } from './ffmpeg-output.js';
import { FrameCutter } from './frame-cutter.js';
import { SocketFrames } from './socket-frames.js';

export function ffmpegBinary(): string {
  return process.env.FFMPEG_PATH || 'ffmpeg';
}

export function ffprobeBinary(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  const ff = process.env.FFMPEG_PATH;
  if (ff && /ffmpeg$/.test(ff)) return ff.replace(/ffmpeg$/, 'ffprobe');
  return 'ffprobe';
}

/** The processes this module started (in this thread) that have not exited yet. */
const running = new Set<ChildProcess>();
/** Set by `stopProcesses`: this thread starts no more. */
let stopped = false;

function track<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

/** Called before every spawn: once `stopProcesses` ran, starting one fails (as a start error). */
function mayStart(): void {
  if (stopped) throw new CancelledError('this thread is stopping, it starts no more processes');
}

/**
 * For a thread that is about to end (a worker being stopped): from now on this thread starts no
 * ffmpeg or ffprobe (a start fails), every one it started that is still running is killed
 * (SIGKILL), and the returned promise resolves once they have exited — so none is left running,
 * or unreaped, when the thread ends. Resolves to how many were killed.
 */
export async function stopProcesses(): Promise<number> {
  stopped = true;
  const live = [...running].filter(
    (c) => c.pid !== undefined && c.exitCode === null && c.signalCode === null,
  );
  await Promise.all(
    live.map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          if (!c.kill('SIGKILL') && (c.exitCode !== null || c.signalCode !== null)) resolve();
        }),
    ),
  );
  return live.length;
}

/**
 * Run a process to completion, collecting stdout and the tail of stderr. Past `stdoutMax` bytes of
 * stdout the process is killed and the call fails as bad input naming `file` (nothing read short).
 */
async function runCollect(
  bin: string,
  args: string[],
  file: string,
  stderrMax = 8000,
  stdoutMax = Number.POSITIVE_INFINITY,
): Promise<{ code: number; stdout: string; stderr: StderrTail }> {
  return new Promise((resolve, reject) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      mayStart();
      child = track(spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    } catch (e) {
      reject(spawnError(bin, e as NodeJS.ErrnoException));
      return;
    }
    let out: Buffer[] = [];
    let outBytes = 0;
    const err = new StderrTail(stderrMax);
    child.stdout.on('data', (c: Buffer) => {
      const over = outBytes > stdoutMax;
      outBytes += c.length;
      if (outBytes <= stdoutMax) out.push(c);
      else if (!over) {
        out = [];
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(spawnError(bin, e as NodeJS.ErrnoException)));
    child.on('close', (code) => {
      if (outBytes > stdoutMax) {
        const size = stdoutMax >= 2 ** 20 ? `${Math.round(stdoutMax / 2 ** 20)} MB` : `${stdoutMax} bytes`;
        reject(
          new BadInputError(`is too long to probe (${basename(bin)} printed more than ${size})`, { file }),
        );
        return;
      }
      resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: err });
    });
  });
}

/**
 * ffprobe's JSON (compact) for one file, parsed by `schema` (the fields the caller reads); a file
 * it cannot read is bad input naming it, and so is one whose listing passes `maxBytes` (256 MB:
 * some 3 million packets at ≈ 80 bytes each, half a day of 24 fps video with one audio track).
 */
export async function ffprobeJson<S extends z.ZodType>(
  file: string,
  schema: S,
  extraArgs: string[] = [],
  maxBytes = 256 << 20,
): Promise<z.output<S>> {
  const show = ['-show_format', '-show_streams', ...extraArgs];
  const args = ['-v', 'error', '-print_format', 'json=c=1', ...show, file];
  const { code, stdout, stderr } = await runCollect(ffprobeBinary(), args, file, undefined, maxBytes);
  if (code !== 0) {
    throw new BadInputError(`not a readable video (${stderr.reason().replaceAll(`${file}: `, '')})`, {
      file,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (e) {
    throw new BackendError(`ffprobe printed unreadable JSON for ${file}`, { cause: e });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new BackendError(`ffprobe printed JSON of an unexpected shape for ${file}`, {
      cause: parsed.error,
    });
  return parsed.data;
}

/**
 * Decode one stream with ffprobe: the timestamp of every frame the decoder outputs (NaN for N/A),
 * and its stderr (warnings, for the caller to read: not refused here). A failed run is bad input.
 */
export async function ffprobeDecodedFrames(
  file: string,
  stream: string,
): Promise<{ pts: number[]; stderr: string }> {
  const args = ['-v', 'error', '-select_streams', stream, '-show_entries', 'frame=best_effort_timestamp'];
  const r = await runCollect(
    ffprobeBinary(),
    [...args, '-of', 'default=nw=1:nk=1', file],
    file,
    1 << 20,
    256 << 20,
  );
  if (r.code !== 0) throw new BadInputError(`not a readable video (${r.stderr.reason()})`, { file });
  const lines = r.stdout.split('\n').map((l) => l.trim());
  return { pts: lines.filter((l) => /^(-?\d+|N\/A)$/.test(l)).map(Number), stderr: r.stderr.value };
}

const versions = new Map<string, Promise<string>>();

/**
 * The first line of `ffmpeg -version` and of `ffprobe -version` (once per process and binary): a
 * cache of what was decoded keys on it, so a different decoder decodes again.
 */
export function ffmpegVersion(): Promise<string> {
  const bins = [ffmpegBinary(), ffprobeBinary()];
  const id = bins.join('\n');
  let v = versions.get(id);
  if (!v) {
    v = Promise.all(
      bins.map(async (bin) => {
        const { code, stdout, stderr } = await runCollect(bin, ['-hide_banner', '-version'], bin);
        if (code !== 0) throw new BackendError(`${bin} -version failed (${stderr.reason()})`);
        return stdout.split('\n')[0]!.trim();
      }),
    ).then((lines) => lines.join('; '));
    versions.set(id, v);
    v.catch(() => versions.delete(id));
  }
  return v;
}

/** Run ffmpeg to write files (fixtures, proxies). Throws BadInputError naming `file` on failure. */
export async function ffmpegRun(args: string[], file: string): Promise<void> {
  const { code, stderr } = await runCollect(ffmpegBinary(), ['-hide_banner', '-nostdin', ...args], file);
  if (code !== 0) throw new BadInputError(`ffmpeg failed (${stderr.reason()})`, { file });
}

/** Run ffmpeg and return its whole stderr (for filters that report through the log, e.g. showinfo). */
export async function ffmpegLog(args: string[], file: string): Promise<string> {
  const { code, stderr } = await runCollect(
    ffmpegBinary(),
    ['-hide_banner', '-nostdin', ...args],
    file,
    16 << 20,
  );
  if (code !== 0) throw new BadInputError(`ffmpeg failed (${stderr.reason()})`, { file });
  return stderr.value;
}

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
 * Stream fixed-size raw frames from one ffmpeg process through a pipe. Back-pressure comes from
 * the async iterator (the pipe pauses while the consumer is busy); breaking out of the loop or
 * aborting `signal` kills the process.
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
      spawn(bin, ['-hide_banner', '-nostdin', '-v', 'error', ...opts.args], {
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

/**
 * Run ffmpeg with `frames` written to its stdin (with back-pressure) and, when `collect` is set,
 * its stdout gathered at the same time (so neither pipe can block the other). A failure is bad
 * input naming `file`.
 */
async function pipeThrough(
  args: string[],
  frames: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  file: string,
  collect: boolean,
): Promise<Buffer> {
  const bin = ffmpegBinary();
  let child: ChildProcessByStdio<Writable, Readable | null, Readable>;
  try {
    mayStart();
    child = track(
      spawn(bin, ['-hide_banner', '-nostdin', '-v', 'error', ...args], {
        stdio: ['pipe', collect ? 'pipe' : 'ignore', 'pipe'],
      }) as ChildProcessByStdio<Writable, Readable | null, Readable>,
    );
  } catch (e) {
    throw spawnError(bin, e as NodeJS.ErrnoException);
  }
  const stderr = new StderrTail();
  child.stderr.on('data', (c: Buffer) => stderr.push(c));
  let failure: Error | undefined;
  child.on('error', (e) => {
    failure = spawnError(bin, e as NodeJS.ErrnoException);
  });
  child.stdin.on('error', () => {}); // EPIPE when ffmpeg dies early: reported by the exit code
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  for await (const f of frames) {
    if (child.exitCode !== null || failure) break;
    if (!child.stdin.write(f))
      await Promise.race([new Promise<void>((r) => child.stdin.once('drain', () => r())), exited]);
  }
  child.stdin.end();
  const code = await exited;
  if (failure) throw failure;
  if (code !== 0) throw new BadInputError(`ffmpeg failed (${stderr.reason()})`, { file });
  return Buffer.concat(chunks);
}

/** Run ffmpeg and return what it writes to stdout (small outputs: an extracted audio track). */
export async function ffmpegBytes(args: string[], file: string): Promise<Buffer> {
  return pipeThrough(args, [], file, true);
}

/**
 * Encode raw frames produced by the caller: `args` say how to read them from stdin
 * (`-f rawvideo -pix_fmt … -s … -r … -i pipe:0`) and where to write.
 */
export async function ffmpegEncodeRaw(
  args: string[],
  frames: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  file: string,
): Promise<void> {
  await pipeThrough(args, frames, file, false);
}

/**
 * Filter raw frames through ffmpeg: `input` goes to stdin, fixed-size output frames come back from
 * `pipe:1`. For small jobs (a case's keyframes): the output is gathered in memory.
 */
export async function ffmpegFilterRaw(opts: {
  args: string[];
  input: readonly Uint8Array[];
  frameBytes: number;
  file: string;
}): Promise<Buffer[]> {
  const all = await pipeThrough(opts.args, opts.input, opts.file, true);
  const out: Buffer[] = [];
  for (let o = 0; o + opts.frameBytes <= all.length; o += opts.frameBytes)
    out.push(all.subarray(o, o + opts.frameBytes));
  return out;
}
