/**
 * An embedding cache on disk (SQLite): key = sha256 over the embedder's id, version and
 * preprocessing and the image's pixels (size, channels, bytes), so re-scoring never re-embeds.
 */
import { createHash } from 'node:crypto';
import type { RawImage } from '../media/raw.js';
import { cacheKey } from '../store/canonical.js';
import { openDatabase } from '../store/sqlite.js';
import { KvTable } from '../store/sqlite-tables.js';
import type { SqliteDatabase } from '../store/sqlite-types.js';
import type { Embedder } from './embedder.js';

const EMBED_CACHE_NAMESPACE = 'kfbench/embed/v1';

function pixelHash(img: RawImage): string {
  return createHash('sha256')
    .update(`${img.width}x${img.height}x${img.channels}\n`)
    .update(img.data)
    .digest('hex');
}

export interface CacheStats {
  hits: number;
  misses: number;
}

/** Wrap an embedder with a cache; the wrapper is an Embedder too. */
export function withEmbeddingCache(
  inner: Embedder,
  path: string,
): Embedder & { stats: CacheStats; db: SqliteDatabase } {
  const db = openDatabase(path);
  const table = new KvTable(db, 'embeddings');
  const stats: CacheStats = { hits: 0, misses: 0 };
  const keyOf = (img: RawImage) =>
    cacheKey(EMBED_CACHE_NAMESPACE, {
      id: inner.id,
      version: inner.version,
      config: inner.config,
      pixels: pixelHash(img),
    });
  return {
    id: inner.id,
    version: inner.version,
    config: inner.config,
    defaultThreshold: inner.defaultThreshold,
    inputSize: (w, h) => inner.inputSize(w, h),
    stats,
    db,
    async embed(images) {
      const keys = images.map(keyOf);
      const out: (Float32Array | undefined)[] = keys.map((k) => {
        const v = table.get(k);
        return v ? new Float32Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength)) : undefined;
      });
      const missing = out.flatMap((v, i) => (v ? [] : [i]));
      stats.hits += images.length - missing.length;
      stats.misses += missing.length;
      if (missing.length) {
        const fresh = await inner.embed(missing.map((i) => images[i]!));
        table.putMany(
          fresh.map((v, j) => ({
            key: keys[missing[j]!]!,
            value: new Uint8Array(v.buffer, v.byteOffset, v.byteLength),
          })),
        );
        missing.forEach((i, j) => {
          out[i] = fresh[j]!;
        });
      }
      return out as Float32Array[];
    },
    async close() {
      db.close();
      await inner.close();
    },
  };
}
