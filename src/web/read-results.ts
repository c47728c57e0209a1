/**
 * Reading a results folder for the viewer without throwing on bad input (data.ts): malformed lines,
 * a damaged file and ids from another set become `problems` the pages print.
 */
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import { isKfbenchError } from '../errors.js';
import { readJsonlLenient } from '../store/jsonl.js';

import type { Problem } from './view-types.js';

export const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

const some = (ids: string[]) => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;

/** A results folder whose ids are not (all) in what it was given with: from another set, or partly. */
export function mismatch(
  problems: Problem[],
  area: Problem['area'],
  dir: string,
  ids: string[],
  known: (id: string) => boolean,
  words: { set: string; items: string; where: string },
): void {
  const unknown = ids.filter((id) => !known(id));
  if (!unknown.length) return;
  problems.push({
    area,
    message:
      unknown.length === ids.length
        ? `results folder ${dir} is from another ${words.set}: none of its ${ids.length} ${words.items} (${some(unknown)}) ${words.where}`
        : `results folder ${dir}: ${unknown.length} of its ${ids.length} ${words.items} (${some(unknown)}) are not in the ${words.set} given; they are not shown`,
  });
}

/** Unique labels for results folders: the folder name, with its parent when two share a name. */
export function labels(dirs: string[]): string[] {
  const names = dirs.map((d) => basename(d));
  return dirs.map((d, i) =>
    names.filter((n) => n === names[i]).length > 1 ? `${basename(dirname(d))}/${names[i]}` : names[i]!,
  );
}

export async function lenientRows<S extends z.ZodType>(
  file: string,
  schema: S,
  area: Problem['area'],
  problems: Problem[],
): Promise<z.output<S>[]> {
  const out: z.output<S>[] = [];
  let bad = 0;
  try {
    for await (const l of readJsonlLenient(file, schema)) {
      if (l.ok) out.push(l.value);
      else if (bad++ < 3) problems.push({ area, message: `${file}:${l.line}: ${l.error} (line skipped)` });
    }
  } catch (e) {
    // a damaged .zst or a line past the limit: show what was read, and say where it stopped
    if (!isKfbenchError(e)) throw e;
    problems.push({ area, message: `${e.message} (read stopped there)` });
  }
  if (bad > 3) problems.push({ area, message: `${file}: ${bad - 3} more malformed lines skipped` });
  return out;
}
