/**
 * The ffmpeg and ffprobe processes of this thread: which binaries (`FFMPEG_PATH` / `FFPROBE_PATH`
 * when set, else from `PATH`), every process started and not yet exited (so that a stopping thread
 * kills them all), and running one to completion with its output collected. With ffmpeg.ts and
 * ffmpeg-raw.ts, the only files that spawn ffmpeg or ffprobe.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { BadInputError, CancelledError } from '../errors.js';
import { StderrTail, spawnError } from './ffmpeg-output.js';

export function ffmpegBinary(): string {
  return process.env.FFMPEG_PATH || 'ffmpeg';
}

export function ffprobeBinary(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  const ff = process.env.FFMPEG_PATH;
  if (ff && /ffmpeg$/.test(ff)) return ff.replace(/ffmpeg$/, 'ffprobe');
  return 'ffprobe';
}

/**
 * What every ffmpeg run starts with: no banner, no stdin, and one thread per filter graph
 * (`-filter_threads`, `-filter_complex_threads`). A graph's default is a thread per core, and
 * swscale slices every scale filter over them: on the small frames kfbench scales (a working size
 * of 512 px at most, 64 px thumbnails) the threads mostly wait on each other — a 320×180 scan made
 * 2,700 voluntary context switches with them and 850 without (issue 57 item 9). The decoder's own
 * threads stay the caller's (`-threads`, `--decode-threads`).
 */
export const FFMPEG_LEAD_ARGS: readonly string[] = [
  '-hide_banner',
  '-nostdin',
  '-filter_threads',
  '1',
  '-filter_complex_threads',
  '1',
];

/**
 * The environment of an ffmpeg or ffprobe child: the caller's, with OpenBLAS and OpenMP held to one
 * thread unless set. Distribution builds of ffmpeg link libraries (through libavfilter) that load
 * OpenBLAS, whose thread pool starts with the process and spins in `sched_yield` while it waits for
 * work that never comes — in every one of the hundreds of short ffmpeg runs a benchmark makes.
 */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...env,
    OPENBLAS_NUM_THREADS: env.OPENBLAS_NUM_THREADS || '1',
    OMP_NUM_THREADS: env.OMP_NUM_THREADS || '1',
  };
}

/** The processes this module started (in this thread) that have not exited yet. */
const running = new Set<ChildProcess>();
/** Set by `stopProcesses`: this thread starts no more. */
let stopped = false;

export function track<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

/** Called before every spawn: once `stopProcesses` ran, starting one fails (as a start error). */
export function mayStart(): void {
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
export async function runCollect(
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
      child = track(spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() }));
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
