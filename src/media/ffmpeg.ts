/**
 * Everything else in kfbench asks this module to run ffmpeg or ffprobe: probing, writing files,
 * filtering and encoding through stdin, and (re-exported) the raw frame stream of ffmpeg-raw.ts and
 * the process bookkeeping of ffmpeg-processes.ts — the only other files that spawn them.
 *
 * Binaries come from `FFMPEG_PATH` / `FFPROBE_PATH` when set, else from `PATH`.
 */

import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import { BackendError, BadInputError } from '../errors.js';
import { StderrTail, spawnError } from './ffmpeg-output.js';
import {
  childEnv,
  FFMPEG_LEAD_ARGS,
  ffmpegBinary,
  ffprobeBinary,
  mayStart,
  runCollect,
  track,
} from './ffmpeg-processes.js';

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
    if (!existsSync(file)) throw new BadInputError('no such file', { file });
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
  if (r.code !== 0 && !existsSync(file)) throw new BadInputError('no such file', { file });
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
  const { code, stderr } = await runCollect(ffmpegBinary(), [...FFMPEG_LEAD_ARGS, ...args], file);
  if (code !== 0) throw new BadInputError(`ffmpeg failed (${stderr.reason()})`, { file });
}

/** Run ffmpeg and return its whole stderr (for filters that report through the log, e.g. showinfo). */
export async function ffmpegLog(args: string[], file: string): Promise<string> {
  const { code, stderr } = await runCollect(ffmpegBinary(), [...FFMPEG_LEAD_ARGS, ...args], file, 16 << 20);
  if (code !== 0) throw new BadInputError(`ffmpeg failed (${stderr.reason()})`, { file });
  return stderr.value;
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
      spawn(bin, [...FFMPEG_LEAD_ARGS, '-v', 'error', ...args], {
        env: childEnv(),
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
