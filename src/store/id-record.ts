/**
 * Objects keyed by ids from the user's data (case ids, film ids, item ids), safe for every id:
 * `__proto__`, `constructor`, `toString`… are keys like any other. Zod's `z.record` builds a plain
 * object and drops a `__proto__` key, and a plain `{}` answers `constructor` with a function; here
 * records are null-prototype objects, built by `idRecord` (a schema) or `idRecordOf` (entries).
 */
import { z } from 'zod';

/** A null-prototype object with these entries (a `__proto__` entry is an own key). */
export function idRecordOf<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const out: Record<string, T> = Object.create(null);
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** The value of `key` only when it is the record's own (never an Object.prototype member). */
export function ownValue<T>(rec: Record<string, T> | undefined, key: string): T | undefined {
  return rec && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** `z.record(z.string(), value)` whose output is a null-prototype object keeping every key. */
export function idRecord<T extends z.ZodType>(value: T) {
  return z.unknown().transform((raw, ctx): Record<string, z.output<T>> => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      ctx.addIssue({ code: 'custom', message: 'expected an object keyed by id' });
      return z.NEVER;
    }
    const out: Record<string, z.output<T>> = Object.create(null);
    for (const [k, v] of Object.entries(raw)) {
      const r = value.safeParse(v);
      if (!r.success) {
        for (const issue of r.error.issues)
          ctx.addIssue({ ...issue, path: [k, ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
        return z.NEVER;
      }
      out[k] = r.data;
    }
    return out;
  });
}
