/** Canonical JSON (sorted keys, no whitespace) and its sha256: the basis of every cache key. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        // the order of Object.keys(…).sort(): UTF-16 code units
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  }
  return v;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function cacheKey(namespace: string, parts: unknown): string {
  return sha256Hex(`${namespace}\n${canonicalJson(parts)}`);
}

/** sha256 of a file's bytes, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(path)) h.update(c as Buffer);
  return h.digest('hex');
}
