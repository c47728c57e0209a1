/**
 * The problems `hero validate` lists: `file:line: what is wrong`, capped per file, and the reading
 * of a JSON-lines file that goes on past a bad line.
 */
import type { z } from 'zod';
import { BadInputError } from '../../errors.js';
import { readJsonlLenient } from '../../store/jsonl.js';

const MAX_PER_FILE = 50;

export class Problems {
  readonly list: string[] = [];
  /** Appended to every schema error. */
  constructor(readonly hint = '') {}
  private readonly perFile = new Map<string, number>();
  add(file: string, line: number | undefined, msg: string): void {
    const n = (this.perFile.get(file) ?? 0) + 1;
    this.perFile.set(file, n);
    if (n <= MAX_PER_FILE) this.list.push(`${file}${line !== undefined ? `:${line}` : ''}: ${msg}`);
  }
  finish(): string[] {
    for (const [file, n] of this.perFile)
      if (n > MAX_PER_FILE) this.list.push(`${file}: … and ${n - MAX_PER_FILE} more problems`);
    return this.list;
  }
}

/**
 * Every line of `file` through `each`; a bad line is a problem and the read goes on. A file that
 * cannot be read to its end (truncated or damaged `.zst`, a line past the limit) is a problem at
 * that point, and so is a required file with no rows at all (empty is not valid).
 */
export async function checkLines<S extends z.ZodType>(
  file: string,
  schema: S,
  problems: Problems,
  each: (v: z.output<S>, line: number) => void,
  required = true,
): Promise<void> {
  let rows = 0;
  try {
    for await (const l of readJsonlLenient(file, schema)) {
      rows++;
      if (l.ok) each(l.value, l.line);
      else problems.add(file, l.line, `${l.error}${problems.hint}`);
    }
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    const where = `${file}${e.line !== undefined ? `:${e.line}` : ''}: `;
    problems.add(file, e.line, e.message.startsWith(where) ? e.message.slice(where.length) : e.message);
    return;
  }
  if (rows === 0 && required)
    problems.add(file, undefined, 'no rows (an empty file is not a valid dataset file)');
}
