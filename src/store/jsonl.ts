/**
 * JSON Lines, read as a stream (memory does not grow with the file) and validated line by line:
 * every error names the file and the line. Blank lines are skipped. `.jsonl.zst` files are
 * decompressed by the `zstd` CLI when it is on PATH.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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

/** Stream the lines of a JSONL file, each validated by `schema`. */
export async function* readJsonl<S extends z.ZodType>(
  file: string,
  schema: S,
): AsyncGenerator<Line<z.output<S>>, void, void> {
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
      throw new BadInputError(`not valid JSON (${(e as Error).message})`, { file, line: n });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new BadInputError(describeZodError(parsed.error), { file, line: n });
    yield { line: n, value: parsed.data };
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
