/**
 * Scans on disk (SQLite): key = sha256 over the video's bytes, the keyframe images' bytes, the
 * embedder (id, version, preprocessing), the sampling and pixel settings, the keyframe fit, stage
 * 2's settings (with the γ and hold ε whose placing runs it refines) and the shot options.
 * A scan holds every similarity the metrics read, so re-scoring with other metric constants
 * (`compass score` again, `compass sensitivity`) decodes and embeds nothing.
 */
import type { Embedder } from '../../embed/embedder.js';
import { ffmpegVersion } from '../../media/ffmpeg.js';
import { imageLibraryVersion } from '../../media/image.js';
import { DEFAULT_SHOT_OPTIONS, type ShotOptions } from '../../media/shot-options.js';
import { cacheKey, sha256File } from '../../store/canonical.js';
import type { FileHashes } from '../../store/file-hashes.js';
import { openDatabase } from '../../store/sqlite.js';
import { KvTable } from '../../store/sqlite-tables.js';
import type { SqliteDatabase } from '../../store/sqlite-types.js';
import { Scan, type ScanTimings } from '../schemas/scan.js';
import { DEFAULT_SCAN_OPTIONS, type ScanOptions } from './options.js';
import { type ScanInput, scanVideo } from './scan.js';

/** What makes a scan the cache does not hold: `scanVideo` in this thread, or a worker's (scan/pool.ts). */
export type ScanFn = (
  input: ScanInput,
  embedder: Embedder,
  opts: ScanOptions,
  shotOpts: Partial<ShotOptions>,
  timings?: ScanTimings,
) => Promise<Scan>;

/**
 * v3: the key holds the resolved shot options (v2 held the caller's partial ones); v4: frames come
 * as planar YUV converted by kfbench (media/yuv.ts), and the key names the ffmpeg and sharp/libvips
 * that made the pixels; v5: stage 2 (the refined frame and hold per keyframe) and the keyframe fit,
 * with the settings that make them (fit, match size, hold tolerance, the γ and hold ε refined);
 * v6: f*(k)'s own cosine (`refined[k].cos`, the KFS frame's, issue 44 item 6); v7: the shot
 * detector of issue 48 (motion-compensated cuts; one gradual transition per dissolve).
 */
const SCAN_CACHE_NAMESPACE = 'kfbench/compass-scan/v8';

export class ScanCache {
  readonly db: SqliteDatabase;
  private readonly table: KvTable;
  hits = 0;
  misses = 0;
  /** `readOnly`: nothing is stored (a --dry-run); the file must exist and hold the table. */
  constructor(path: string, opts: { readOnly?: boolean } = {}) {
    this.db = openDatabase(path, { readOnly: opts.readOnly === true });
    this.table = new KvTable(this.db, 'compass_scans');
  }
  /** The scan stored under `key`; an entry that does not parse as a scan is a miss (it is scanned again and replaced). */
  get(key: string): Scan | undefined {
    const v = this.table.get(key);
    if (!v) return undefined;
    try {
      const r = Scan.safeParse(JSON.parse(v.toString('utf8')));
      return r.success ? r.data : undefined;
    } catch {
      return undefined;
    }
  }
  put(key: string, scan: Scan): void {
    if (this.db.readOnly) return;
    this.table.put(key, Buffer.from(JSON.stringify(scan), 'utf8'));
  }
  close(): void {
    this.db.close();
  }
}

/**
 * The cache key of a scan: built from the resolved options (defaults filled in), so a changed
 * default changes the key instead of serving a scan made under the old one.
 */
export async function scanKey(
  input: ScanInput,
  embedder: Embedder,
  opts: Partial<ScanOptions>,
  shotOpts: Partial<ShotOptions>,
  /** The run's file hashes (each file read once per run); else every file is read here. */
  hashes?: FileHashes,
): Promise<string> {
  const hash = (f: string) => (hashes ? hashes.of(f) : sha256File(f));
  const o: ScanOptions = { ...DEFAULT_SCAN_OPTIONS, ...opts };
  const shots: ShotOptions = { ...DEFAULT_SHOT_OPTIONS, ...shotOpts };
  const images = new Map<string, string>();
  for (const k of input.keyframes) if (!images.has(k.image)) images.set(k.image, await hash(k.image));
  return cacheKey(SCAN_CACHE_NAMESPACE, {
    video: await hash(input.video),
    keyframes: input.keyframes.map((k) => images.get(k.image)),
    embedder: { id: embedder.id, version: embedder.version, config: embedder.config },
    fpsCap: o.fpsCap,
    pixelSize: o.pixelSize,
    keyframeFit: o.keyframeFit,
    stage2: o.refine
      ? {
          matchSize: o.matchSize,
          holdTolerance_db: o.holdTolerance_db,
          holdMatch_db: o.holdMatch_db,
          gamma: o.gamma ?? embedder.defaultThreshold ?? 0.8,
          holdEps: o.holdEps,
        }
      : false,
    shots,
    tools: { ffmpeg: await ffmpegVersion(), images: imageLibraryVersion() },
  });
}

/**
 * A scan from the cache when it holds one, else a fresh scan by `scan` (`scanVideo` unless given)
 * that is then stored. The cache is read and written in the calling thread only.
 */
export async function cachedScan(
  input: ScanInput,
  embedder: Embedder,
  opts: Partial<ScanOptions>,
  shotOpts: Partial<ShotOptions>,
  cache: ScanCache | undefined,
  timings?: ScanTimings,
  scan: ScanFn = scanVideo,
  hashes?: FileHashes,
  /** Run before a scan that is not in the cache (e.g. the `--max-duration` header check). */
  beforeScan?: () => Promise<void>,
): Promise<{ scan: Scan; cached: boolean }> {
  const o = { ...DEFAULT_SCAN_OPTIONS, ...opts };
  if (!cache) {
    await beforeScan?.();
    return { scan: await scan(input, embedder, o, shotOpts, timings), cached: false };
  }
  const key = await scanKey(input, embedder, o, shotOpts, hashes);
  const hit = cache.get(key);
  if (hit) {
    cache.hits++;
    return { scan: hit, cached: true };
  }
  cache.misses++;
  await beforeScan?.();
  const fresh = await scan(input, embedder, o, shotOpts, timings);
  cache.put(key, fresh);
  return { scan: fresh, cached: false };
}
