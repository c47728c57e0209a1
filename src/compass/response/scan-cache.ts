/**
 * Scans on disk (SQLite): key = sha256 over the video's bytes, the keyframe images' bytes, the
 * embedder (id, version, preprocessing), the sampling and pixel settings and the shot options.
 * A scan holds every similarity the metrics read, so re-scoring with other metric constants
 * (`compass score` again, `compass sensitivity`) decodes and embeds nothing.
 */
import type { Embedder } from '../../embed/embedder.js';
import type { ShotOptions } from '../../media/shots.js';
import { cacheKey, sha256File } from '../../store/canonical.js';
import { KvTable, openDatabase, type SqliteDatabase } from '../../store/sqlite.js';
import { DEFAULT_SCAN_OPTIONS, type ScanOptions } from './options.js';
import { type Scan, type ScanInput, type ScanTimings, scanVideo } from './scan.js';

export const SCAN_CACHE_NAMESPACE = 'kfbench/compass-scan/v2';

export class ScanCache {
  readonly db: SqliteDatabase;
  private readonly table: KvTable;
  hits = 0;
  misses = 0;
  constructor(path: string) {
    this.db = openDatabase(path);
    this.table = new KvTable(this.db, 'compass_scans');
  }
  get(key: string): Scan | undefined {
    const v = this.table.get(key);
    return v ? (JSON.parse(v.toString('utf8')) as Scan) : undefined;
  }
  put(key: string, scan: Scan): void {
    this.table.put(key, Buffer.from(JSON.stringify(scan), 'utf8'));
  }
  close(): void {
    this.db.close();
  }
}

export async function scanKey(
  input: ScanInput,
  embedder: Embedder,
  opts: ScanOptions,
  shotOpts: Partial<ShotOptions>,
): Promise<string> {
  const images = new Map<string, string>();
  for (const k of input.keyframes) if (!images.has(k.image)) images.set(k.image, await sha256File(k.image));
  return cacheKey(SCAN_CACHE_NAMESPACE, {
    video: await sha256File(input.video),
    keyframes: input.keyframes.map((k) => images.get(k.image)),
    embedder: { id: embedder.id, version: embedder.version, config: embedder.config },
    fpsCap: opts.fpsCap,
    pixelSize: opts.pixelSize,
    shots: shotOpts,
  });
}

/** A scan from the cache when it holds one, else a fresh scan that is then stored. */
export async function cachedScan(
  input: ScanInput,
  embedder: Embedder,
  opts: Partial<ScanOptions>,
  shotOpts: Partial<ShotOptions>,
  cache: ScanCache | undefined,
  timings?: ScanTimings,
): Promise<{ scan: Scan; cached: boolean }> {
  const o = { ...DEFAULT_SCAN_OPTIONS, ...opts };
  if (!cache) return { scan: await scanVideo(input, embedder, o, shotOpts, timings), cached: false };
  const key = await scanKey(input, embedder, o, shotOpts);
  const hit = cache.get(key);
  if (hit) {
    cache.hits++;
    return { scan: hit, cached: true };
  }
  cache.misses++;
  const scan = await scanVideo(input, embedder, o, shotOpts, timings);
  cache.put(key, scan);
  return { scan, cached: false };
}
