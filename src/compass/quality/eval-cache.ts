/**
 * The evaluation cache: which judge-cache answers belong to a video's questions, so that a warm
 * `compass evaluate` reads them without decoding the video. The judge cache is keyed by the frames
 * actually sent (their JPEG hashes), which only a decode can rebuild; this table maps what shapes
 * those frames and questions to the judge-cache keys of the questions asked, plus the few facts
 * about the video the report needs (its duration, whether it has audio, the frames sent).
 *
 * Key = sha256 over canonical JSON of: the entry kind; the video file's bytes (sha256 — never its
 * mtime); the keyframe images' bytes; every other input of the questions (the case's content, the
 * prompt mode, the checklists, the shots, the frame rate, budget and width, the audio flag …,
 * given by the caller); the protocol name and template version and the run index; the judge's
 * fingerprint (backend, model, identity, sampling); the image encoder's size cap and quality; and
 * the decoder's and image library's versions. Any change to one of them is another key, so an
 * entry is never stale: it is found only for the same bytes under the same settings.
 *
 * Entries live in the judge cache's SQLite file (table `compass_evaluations`): they point into its
 * answers. A damaged entry, one of another schema version, or one whose answers the judge cache no
 * longer holds is a miss (the video is decoded and asked again, and the entry replaced). Deleting
 * the table or the whole file is always safe.
 */
import { z } from 'zod';
import type { JudgeCache } from '../../judge/cache.js';
import type { ImageEncoder } from '../../judge/images.js';
import type { Judge } from '../../judge/judge.js';
import { ffmpegVersion } from '../../media/ffmpeg.js';
import { imageLibraryVersion } from '../../media/image.js';
import { cacheKey } from '../../store/canonical.js';
import { FileHashes } from '../../store/file-hashes.js';
import { KvTable } from '../../store/sqlite-tables.js';
import type { SqliteDatabase } from '../../store/sqlite-types.js';
import type { LoadedCase } from '../cases/cases.js';
import { QUALITY_METRICS } from './metrics.js';

/**
 * v1: grouped-judge and segmentation entries; v2/v3: the frame rate a video with fewer frames than
 * asked is said to be sent at (grouped, then segmentation). Bump when a question's making changes
 * in code.
 */
const EVALUATION_CACHE_NAMESPACE = 'kfbench/compass-evaluation/v3';
export const EVALUATION_CACHE_TABLE = 'compass_evaluations';

const JudgeKey = z.string().regex(/^[0-9a-f]{64}$/);

/** One entry of the table (its only format): the judge-cache keys of a video's calls and its facts. */
export const EvaluationEntry = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(1),
    kind: z.literal('grouped'),
    duration_s: z.number().positive(),
    has_audio: z.boolean(),
    frames: z.object({
      count: z.number().int().nonnegative(),
      fps: z.number().positive(),
      effective_fps: z.number().nonnegative(),
      capped_by_budget: z.boolean(),
    }),
    /** One per grouped call, in the order asked: the metrics it judged and its judge-cache key. */
    calls: z.array(z.object({ metrics: z.array(z.enum(QUALITY_METRICS)).min(1), key: JudgeKey })),
  }),
  z.object({
    v: z.literal(1),
    kind: z.literal('segment'),
    duration_s: z.number().positive(),
    key: JudgeKey,
  }),
]);
export type EvaluationEntry = z.output<typeof EvaluationEntry>;
export type EntryKind = EvaluationEntry['kind'];

function isKind<K extends EntryKind>(
  e: EvaluationEntry,
  kind: K,
): e is Extract<EvaluationEntry, { kind: K }> {
  return e.kind === kind;
}

export class EvaluationCache {
  private readonly table: KvTable;
  hits = 0;
  misses = 0;
  /** On a SQLite database opened elsewhere (the judge cache's: `JudgeCache.db`), which keeps owning it. */
  constructor(db: SqliteDatabase) {
    this.table = new KvTable(db, EVALUATION_CACHE_TABLE);
  }

  /** The entry under `key` if it parses and is of `kind`; anything else is a miss. */
  get<K extends EntryKind>(key: string, kind: K): Extract<EvaluationEntry, { kind: K }> | undefined {
    const v = this.table.get(key);
    if (!v) return undefined;
    try {
      const r = EvaluationEntry.safeParse(JSON.parse(v.toString('utf8')));
      return r.success && isKind(r.data, kind) ? r.data : undefined;
    } catch {
      return undefined;
    }
  }

  put(key: string, entry: EvaluationEntry): void {
    this.table.put(key, Buffer.from(JSON.stringify(EvaluationEntry.parse(entry)), 'utf8'));
  }
}

/** The evaluation cache kept in a judge cache's file (none without a judge cache: nothing to point into). */
export function evaluationCacheIn(judgeCache: JudgeCache | undefined): EvaluationCache | undefined {
  return judgeCache ? new EvaluationCache(judgeCache.db) : undefined;
}

/** A case's content as the questions see it: everything but where it was read from and its image paths (their bytes count instead). */
export function caseContent(c: LoadedCase): Record<string, unknown> {
  const { source: _source, keyframes, ...rest } = c;
  return { ...rest, keyframes: keyframes.map(({ image: _image, ...k }) => k) };
}

/** The key of one entry (see the file's comment for what it holds). */
export async function entryKey(a: {
  kind: EntryKind;
  video: string;
  keyframes: readonly { image: string }[];
  protocol: { name: string; version: string };
  run: number;
  judge: Judge;
  encoder: ImageEncoder;
  /** Every other input of the questions, as plain JSON. */
  inputs: Readonly<Record<string, unknown>>;
  hashes?: FileHashes | undefined;
}): Promise<string> {
  const hashes = a.hashes ?? new FileHashes();
  const [video, keyframes, ffmpeg] = await Promise.all([
    hashes.of(a.video),
    Promise.all(a.keyframes.map((k) => hashes.of(k.image))),
    ffmpegVersion(),
  ]);
  return cacheKey(EVALUATION_CACHE_NAMESPACE, {
    kind: a.kind,
    video,
    keyframes,
    protocol: a.protocol,
    run: a.run,
    judge: a.judge.fingerprint,
    encoder: { max_side: a.encoder.maxSide, quality: a.encoder.quality },
    tools: { ffmpeg, images: imageLibraryVersion() },
    inputs: a.inputs,
  });
}
