/**
 * JSON Lines, read as a stream (memory does not grow with the file) and validated line by line:
 * every error names the file and the line. Blank lines are skipped. A line longer than
 * MAX_LINE_BYTES is bad input (read no further). `.jsonl.zst` files go through store/zstd.ts,
 * which fails — never ends early — on a truncated or damaged file.
 */
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { BadInputError, errnoCode, InternalError, isKfbenchError, messageOf } from '../errors.js';
import { type OnProgress, phaseReporter } from '../progress.js';
import { writeFileAtomic } from './atomic-write.js';
import { environmentError } from './fs-errors.js';
import { MAX_LINE_BYTES, mib, readTextFile } from './limits.js';
import { openZstd, writeZstd } from './zstd.js';

export interface Line<T> {
  line: number;
  value: T;
}

/** Describe a zod error in one line: the first issue with its path. */
export function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'invalid';
  return describeIssue(issue, []);
}

/**
 * One issue as `path: message`; a union none of whose options fit is described by the option that
 * came nearest (the one whose first issue is not about the value's type), so that "size.height:
 * Too big: expected number to be <=2048" is said rather than "size: Invalid input".
 */
function describeIssue(issue: z.core.$ZodIssue, prefix: PropertyKey[]): string {
  const at = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.message === 'Invalid input' && issue.errors.length) {
    const near = issue.errors.find((e) => e[0] && e[0].code !== 'invalid_type') ?? issue.errors[0]!;
    if (near[0]) return describeIssue(near[0], at);
  }
  const path = at.length ? `${at.map(String).join('.')}: ` : '';
  return `${path}${issue.message}`;
}

/** Caps on one read: its longest line, and the most bytes a `.zst` file may expand to. */
export interface ReadLimits {
  maxLine?: number;
  maxDecompressed?: number;
  /**
   * A read of a file of READ_PROGRESS_BYTES or more is told as phase `read <file name>`, one item a
   * MiB of the file (of a `.zst`, its compressed bytes): a long read is seen moving (issue 55 item 15).
   */
  onProgress?: OnProgress | undefined;
}

/** From this size on, a read with `onProgress` reports its MiB. */
export const READ_PROGRESS_BYTES = 8 * 1024 * 1024;

/** The file's bytes as a stream; `onBytes` hears each chunk of the file itself as it is read. */
function openBytes(file: string, maxDecompressed?: number, onBytes?: (n: number) => void): Readable {
  if (file.endsWith('.zst')) return openZstd(file, maxDecompressed, onBytes);
  const s = createReadStream(file, { highWaterMark: 1 << 20 });
  if (onBytes) s.on('data', (c) => onBytes(c.length));
  return s;
}

/** `onBytes` for a read reported MiB by MiB (undefined for a small file or no listener). */
function readReporter(file: string, onProgress: OnProgress | undefined) {
  if (!onProgress) return { onBytes: undefined, finish: () => undefined };
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // the open below names the file
  }
  if (size < READ_PROGRESS_BYTES) return { onBytes: undefined, finish: () => undefined };
  const mib = 1024 * 1024;
  const p = phaseReporter(onProgress, `read ${basename(file)}`, 'MiB');
  p.start(Math.ceil(size / mib));
  let read = 0;
  let told = 0;
  return {
    onBytes: (n: number) => {
      read += n;
      while (told < Math.floor(read / mib)) p.done(`${++told} MiB`);
    },
    finish: () => {
      if (read >= size && told < Math.ceil(size / mib)) p.done(`${++told} MiB`);
      p.finish();
    },
  };
}

/** The most blank lines one file may hold (a `.zst` of 32 KB can inflate to 1 GiB of them). */
export const MAX_BLANK_LINES = 1_000_000;

/**
 * The lines of a file (without their line ends), numbered from 1. A line longer than `maxLine`
 * bytes, a line that is not valid UTF-8 (decoded with replacement characters, two distinct ids
 * would become one), or more than MAX_BLANK_LINES blank lines stop the read with an error naming
 * the file and line (issue 55); the stream is closed on any exit.
 */
export async function* readLines(
  file: string,
  limits: ReadLimits = {},
): AsyncGenerator<{ line: number; text: string }, void, void> {
  const maxLine = limits.maxLine ?? MAX_LINE_BYTES;
  const told = readReporter(file, limits.onProgress);
  const input = openBytes(file, limits.maxDecompressed, told.onBytes);
  let parts: Buffer[] = [];
  let partBytes = 0;
  let n = 0;
  let blank = 0;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const take = (tail: Buffer): string => {
    parts.push(tail);
    const all = parts.length === 1 ? tail : Buffer.concat(parts);
    parts = [];
    partBytes = 0;
    const end = all.length > 0 && all[all.length - 1] === 0x0d ? all.length - 1 : all.length;
    if (end === 0 && ++blank > MAX_BLANK_LINES)
      throw new BadInputError(`more than ${MAX_BLANK_LINES} blank lines: not a file of records`, {
        file,
        line: n,
      });
    try {
      return utf8.decode(all.subarray(0, end));
    } catch {
      throw new BadInputError('not valid UTF-8 (an id or a text with bytes that are no characters)', {
        file,
        line: n,
      });
    }
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl < 0) break;
        if (partBytes + nl - start > maxLine) break;
        n++;
        yield { line: n, text: take(chunk.subarray(start, nl)) };
        start = nl + 1;
      }
      const rest = chunk.subarray(start);
      if (partBytes + rest.length > maxLine)
        throw new BadInputError(`line longer than the ${mib(maxLine)} limit`, { file, line: n + 1 });
      if (rest.length) {
        parts.push(Buffer.from(rest));
        partBytes += rest.length;
      }
    }
    if (partBytes > 0) {
      n++;
      yield { line: n, text: take(Buffer.alloc(0)) };
    }
  } catch (e) {
    if (isKfbenchError(e)) throw e;
    const code = errnoCode(e);
    throw new BadInputError(`cannot read (${code ?? messageOf(e)})`, { file, cause: e });
  } finally {
    told.finish();
    input.destroy();
  }
}

/** Stream the lines of a JSONL file, each validated by `schema`; the first bad line is an error naming it. */
export async function* readJsonl<S extends z.ZodType>(
  file: string,
  schema: S,
  limits: ReadLimits = {},
): AsyncGenerator<Line<z.output<S>>, void, void> {
  for await (const l of readJsonlLenient(file, schema, limits)) {
    if (!l.ok) throw new BadInputError(l.error, { file, line: l.line });
    yield { line: l.line, value: l.value };
  }
}

export type LenientLine<T> =
  | { line: number; ok: true; value: T }
  | { line: number; ok: false; error: string };

/** Like readJsonl, but reports a bad line and goes on (for validators that list every problem). */
export async function* readJsonlLenient<S extends z.ZodType>(
  file: string,
  schema: S,
  limits: ReadLimits = {},
): AsyncGenerator<LenientLine<z.output<S>>, void, void> {
  if (!existsSync(file)) throw new BadInputError('no such file', { file });
  const st = statSync(file);
  if (st.isDirectory()) throw new BadInputError('is a folder, not a file', { file });
  // a FIFO or a device has no end to wait for: only regular files are read
  if (!st.isFile())
    throw new BadInputError('not a regular file (a FIFO, socket or device is not read)', { file });
  for await (const { line: n, text: raw } of readLines(file, limits)) {
    const text = raw.trim();
    if (text === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      yield { line: n, ok: false, error: `not valid JSON (${messageOf(e)})` };
      continue;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) yield { line: n, ok: true, value: parsed.data };
    else yield { line: n, ok: false, error: describeZodError(parsed.error) };
  }
}

/**
 * Write JSON Lines atomically (a temp file renamed on success, removed on failure); a `.zst` path
 * is compressed as it streams (memory does not grow with the number of lines). Every row is parsed
 * by `schema`, the schema its readers parse with (one per file format), before it is written: a
 * row its readers would refuse is never written, and the file is not written at all (an internal
 * error naming the file and the row: the writer's fault, not the user's). The row is written as
 * given, not as the schema's output.
 */
export async function writeJsonl<S extends z.ZodType>(
  file: string,
  schema: S,
  rows: Iterable<z.input<S>> | AsyncIterable<z.input<S>>,
): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (e) {
    throw environmentError(e, dirname(file), 'cannot make the folder');
  }
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const lines = Readable.from(
      (async function* () {
        let n = 0;
        for await (const r of rows) {
          n++;
          const checked = schema.safeParse(r);
          if (!checked.success)
            throw new InternalError(
              `${file}: row ${n} does not match the file's schema (${describeZodError(checked.error)}): not written`,
            );
          const line = JSON.stringify(r);
          // no line its readers refuse (readLines' limit): the file is not written at all
          if (line.length > MAX_LINE_BYTES / 4 && Buffer.byteLength(line) > MAX_LINE_BYTES)
            throw new InternalError(
              `${file}: a row of ${mib(Buffer.byteLength(line))} is longer than the ${mib(MAX_LINE_BYTES)} line limit of its readers: not written`,
            );
          yield `${line}\n`;
        }
      })(),
    );
    if (file.endsWith('.zst')) await writeZstd(tmp, lines);
    else await pipeline(lines, createWriteStream(tmp)); // a write error rejects, never hangs
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw environmentError(e, file);
  }
}

/**
 * Write a JSON file atomically (two-space indented, a final newline), the value parsed first by
 * `schema`, the schema its readers parse with: a value its readers would refuse is never written
 * (an internal error naming the file). The value is written as given, not as the schema's output.
 */
export async function writeJsonFile<S extends z.ZodType>(
  file: string,
  schema: S,
  value: z.input<S>,
): Promise<void> {
  const checked = schema.safeParse(value);
  if (!checked.success)
    throw new InternalError(
      `${file}: does not match the file's schema (${describeZodError(checked.error)}): not written`,
    );
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** All lines of a JSONL file (for small inputs). */
export async function readJsonlAll<S extends z.ZodType>(
  file: string,
  schema: S,
  limits: ReadLimits = {},
): Promise<Line<z.output<S>>[]> {
  const out: Line<z.output<S>>[] = [];
  for await (const l of readJsonl(file, schema, limits)) out.push(l);
  return out;
}

/** A whole JSON file validated by `schema`. */
export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> {
  const text = readTextFile(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`not valid JSON (${messageOf(e)})`, { file });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new BadInputError(describeZodError(parsed.error), { file });
  return parsed.data;
}
