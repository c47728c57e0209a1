/**
 * JSON Lines, read as a stream (memory does not grow with the file) and validated line by line:
 * every error names the file and the line. Blank lines are skipped. `.jsonl.zst` files are
 * decompressed by the `zstd` CLI when it is on PATH.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { BadInputError } from '../errors.js';

export interface Line<T> {
  line: number;
  value: T;
}

/** Describe a zod error in one line: the first issue with its path. */
export function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}

function openText(file: string): Readable {
  if (file.endsWith('.zst')) {
    const child = spawn('zstd', ['-dc', '--', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.on('error', (e) => {
      child.stdout.destroy(
        new BadInputError(
          (e as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'needs the zstd command to read .zst files (apt-get install -y zstd)'
            : `cannot decompress (${e.message})`,
          { file },
        ),
      );
    });
    return child.stdout;
  }
  return createReadStream(file, { encoding: 'utf8' });
}

/** Stream the lines of a JSONL file, each validated by `schema`; the first bad line is an error naming it. */
export async function* readJsonl<S extends z.ZodType>(
  file: string,
  schema: S,
): AsyncGenerator<Line<z.output<S>>, void, void> {
  for await (const l of readJsonlLenient(file, schema)) {
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
): AsyncGenerator<LenientLine<z.output<S>>, void, void> {
  if (!existsSync(file)) throw new BadInputError('no such file', { file });
  const rl = createInterface({ input: openText(file), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const raw of rl) {
    n++;
    const text = raw.trim();
    if (text === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      yield { line: n, ok: false, error: `not valid JSON (${(e as Error).message})` };
      continue;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) yield { line: n, ok: true, value: parsed.data };
    else yield { line: n, ok: false, error: describeZodError(parsed.error) };
  }
}

/**
 * Write JSON Lines atomically; a `.zst` path is compressed by the `zstd` CLI (streamed, so memory
 * does not grow with the number of lines).
 */
export async function writeJsonl(
  file: string,
  rows: Iterable<unknown> | AsyncIterable<unknown>,
): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    if (file.endsWith('.zst')) {
      const child = spawn('zstd', ['-q', '-f', '-10', '-o', tmp], { stdio: ['pipe', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => {
        err += c;
      });
      const closed = new Promise<number>((resolve, reject) => {
        child.on('error', (e) =>
          reject(
            new BadInputError(
              (e as NodeJS.ErrnoException).code === 'ENOENT'
                ? 'needs the zstd command (apt-get install -y zstd)'
                : e.message,
              { file },
            ),
          ),
        );
        child.on('close', (code) => resolve(code ?? -1));
      });
      for await (const r of rows as AsyncIterable<unknown>) {
        if (!child.stdin.write(`${JSON.stringify(r)}\n`))
          await new Promise<void>((res) => child.stdin.once('drain', () => res()));
      }
      child.stdin.end();
      const code = await closed;
      if (code !== 0) throw new BadInputError(`zstd failed (${err.trim()})`, { file });
    } else {
      const out = createWriteStream(tmp);
      for await (const r of rows as AsyncIterable<unknown>) {
        if (!out.write(`${JSON.stringify(r)}\n`))
          await new Promise<void>((res) => out.once('drain', () => res()));
      }
      await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** All lines of a JSONL file (for small inputs). */
export async function readJsonlAll<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<Line<z.output<S>>[]> {
  const out: Line<z.output<S>>[] = [];
  for await (const l of readJsonl(file, schema)) out.push(l);
  return out;
}

/** A whole JSON file validated by `schema`. */
export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BadInputError(code === 'ENOENT' ? 'no such file' : `cannot read (${code})`, { file });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BadInputError(`not valid JSON (${(e as Error).message})`, { file });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new BadInputError(describeZodError(parsed.error), { file });
  return parsed.data;
}
