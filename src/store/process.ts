/**
 * A checked child process for the store's pipes (the `zstd` command on Node versions without
 * zstd in `node:zlib`). Its output stream ends only after the process has exited 0; a non-zero
 * exit, a signal or a failure to start makes the stream (and `finished`) fail with the error
 * `fail` builds from the last line of stderr — a process that dies mid-stream is an error, never
 * a short read. (ffmpeg and ffprobe have the same checks in their owner, media/ffmpeg.ts.)
 */
import { spawn } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { errnoCode } from '../errors.js';

export interface CheckedSpawnOptions {
  /** Build the error for a failed run from a one-line reason (stderr's last line or the spawn error). */
  fail: (reason: string, missing: boolean) => Error;
  /** Give the process a writable stdin (else it reads nothing). */
  input?: boolean;
  /**
   * Collect stdout into `output` (the default); `false` ignores it. A collected `output` errors on a
   * failed run, so a caller that keeps the default must read it (or attach an error handler).
   */
  output?: boolean;
}

export interface CheckedChild {
  /** stdout; ends only after a clean exit, else errors with the run's failure. */
  output: Readable;
  /** stdin when `input` was asked for; writes after the process died are dropped (its exit is the error). */
  input: Writable | undefined;
  /** Resolves after a clean exit; rejects with the run's failure. */
  finished: Promise<void>;
  /** Kill the process (a consumer that stops early). */
  kill(): void;
}

const STDERR_MAX = 8000;

/** Spawn `bin` with stdout and stderr piped; see the module comment for what is checked. */
export function spawnChecked(bin: string, args: string[], opts: CheckedSpawnOptions): CheckedChild {
  const child = spawn(bin, args, {
    stdio: [opts.input ? 'pipe' : 'ignore', opts.output === false ? 'ignore' : 'pipe', 'pipe'],
  });
  const output = new PassThrough();
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    if (stderr.length > 2 * STDERR_MAX) stderr = stderr.slice(-STDERR_MAX);
  });
  child.stdin?.on('error', () => {}); // EPIPE after an early death: reported by the exit status
  let failure: Error | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    child.on('error', (e) => {
      failure ??= opts.fail(e.message, errnoCode(e) === 'ENOENT');
    });
    child.on('close', (code, signal) => {
      if (!failure && code !== 0) {
        const lines = stderr
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        const last = lines[lines.length - 1];
        failure = opts.fail(
          last ?? (signal ? `killed by ${signal}` : `exited with status ${code ?? 'unknown'}`),
          false,
        );
      }
      if (failure) {
        if (opts.output === false) output.destroy();
        else output.destroy(failure);
        reject(failure);
      } else {
        output.end();
        resolve();
      }
    });
  });
  finished.catch(() => {}); // observed through `output` or by the caller awaiting it
  child.stdout?.pipe(output, { end: false });
  return {
    output,
    input: child.stdin ?? undefined,
    finished,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
