/**
 * The judge cache: SQLite (WAL), keyed by sha256 over canonical JSON of everything that determines
 * the answer — backend, model, backend identity (e.g. local weights hash), protocol name and
 * template version, rendered prompt, hashes of the image bytes actually sent in placement order,
 * and sampling parameters. The base URL is not in the key (endpoints of one model share answers);
 * no secret ever is. Errors are never cached; an unresolved-after-re-ask outcome is (it is the
 * judge's answer). Two processes sharing a file never duplicate a row (INSERT OR IGNORE).
 */
import { cacheKey } from '../store/canonical.js';
import { openDatabase, type SqliteDatabase } from '../store/sqlite.js';
import type { Usage } from './types.js';

export const JUDGE_CACHE_NAMESPACE = 'kfbench/judge/v1';

export interface CacheKeyParts {
  backend: string;
  model: string;
  identity: Readonly<Record<string, unknown>>;
  protocol: { name: string; version: string };
  prompt: string;
  images: string[];
  /** sha256 of the audio sent, when any (absent keys leave older cache keys unchanged). */
  audio?: string | undefined;
  labels: string[];
  sampling: Readonly<Record<string, unknown>>;
}

export function judgeCacheKey(parts: CacheKeyParts): string {
  return cacheKey(JUDGE_CACHE_NAMESPACE, parts);
}

export interface CachedAnswer {
  answer: unknown | null;
  unresolved: string | null;
  raw: string[];
  usage: Usage;
  latency_ms: number;
}

export interface CacheRow extends CachedAnswer {
  key: string;
  backend: string;
  model: string;
  protocol: string;
  created: number;
}

export class JudgeCache {
  readonly db: SqliteDatabase;
  private readonly getStmt;
  private readonly putStmt;
  constructor(readonly path: string) {
    this.db = openDatabase(path);
    this.db.exec(`CREATE TABLE IF NOT EXISTS judge_answers (
      key TEXT PRIMARY KEY, backend TEXT NOT NULL, model TEXT NOT NULL, protocol TEXT NOT NULL,
      answer TEXT, unresolved TEXT, raw TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,
      completion_tokens INTEGER NOT NULL, latency_ms REAL NOT NULL, created REAL NOT NULL)`);
    this.getStmt = this.db.prepare<[string], Record<string, unknown>>(
      'SELECT * FROM judge_answers WHERE key = ?',
    );
    this.putStmt = this.db.prepare(
      `INSERT OR IGNORE INTO judge_answers (key, backend, model, protocol, answer, unresolved, raw, prompt_tokens, completion_tokens, latency_ms, created)
       VALUES (@key, @backend, @model, @protocol, @answer, @unresolved, @raw, @prompt_tokens, @completion_tokens, @latency_ms, @created)`,
    );
  }

  get(key: string): CachedAnswer | undefined {
    const r = this.getStmt.get(key);
    return r ? toAnswer(r) : undefined;
  }

  put(key: string, meta: { backend: string; model: string; protocol: string }, a: CachedAnswer): void {
    this.putStmt.run({
      key,
      ...meta,
      answer: a.answer === null || a.answer === undefined ? null : JSON.stringify(a.answer),
      unresolved: a.unresolved,
      raw: JSON.stringify(a.raw),
      prompt_tokens: a.usage.prompt_tokens,
      completion_tokens: a.usage.completion_tokens,
      latency_ms: a.latency_ms,
      created: Date.now() / 1000,
    });
  }

  stats(): {
    rows: number;
    unresolved: number;
    by_model: { backend: string; model: string; protocol: string; n: number }[];
    bytes: number;
  } {
    const rows = (this.db.prepare('SELECT COUNT(*) AS n FROM judge_answers').get() as { n: number }).n;
    const unresolved = (
      this.db.prepare('SELECT COUNT(*) AS n FROM judge_answers WHERE unresolved IS NOT NULL').get() as {
        n: number;
      }
    ).n;
    const by_model = this.db
      .prepare(
        'SELECT backend, model, protocol, COUNT(*) AS n FROM judge_answers GROUP BY backend, model, protocol ORDER BY backend, model, protocol',
      )
      .all() as { backend: string; model: string; protocol: string; n: number }[];
    const page = this.db.pragma('page_count', { simple: true }) as number;
    const size = this.db.pragma('page_size', { simple: true }) as number;
    return { rows, unresolved, by_model, bytes: page * size };
  }

  *rows(): Generator<CacheRow> {
    for (const r of this.db
      .prepare('SELECT * FROM judge_answers ORDER BY created, key')
      .iterate() as Iterable<Record<string, unknown>>) {
      yield {
        ...toAnswer(r),
        key: String(r.key),
        backend: String(r.backend),
        model: String(r.model),
        protocol: String(r.protocol),
        created: Number(r.created),
      };
    }
  }

  /** Delete rows: unresolved ones, ones older than a time, or of a model. Returns the count. */
  prune(opts: { unresolved?: boolean; olderThanS?: number; model?: string }): number {
    const where: string[] = [];
    const args: Record<string, unknown> = {};
    if (opts.unresolved) where.push('unresolved IS NOT NULL');
    if (opts.olderThanS !== undefined) {
      where.push('created < @cut');
      args.cut = Date.now() / 1000 - opts.olderThanS;
    }
    if (opts.model) {
      where.push('model = @model');
      args.model = opts.model;
    }
    if (where.length === 0) return 0;
    return this.db.prepare(`DELETE FROM judge_answers WHERE ${where.join(' AND ')}`).run(args).changes;
  }

  close(): void {
    this.db.close();
  }
}

function toAnswer(r: Record<string, unknown>): CachedAnswer {
  return {
    answer: r.answer === null ? null : JSON.parse(String(r.answer)),
    unresolved: r.unresolved === null ? null : String(r.unresolved),
    raw: JSON.parse(String(r.raw)) as string[],
    usage: { prompt_tokens: Number(r.prompt_tokens), completion_tokens: Number(r.completion_tokens) },
    latency_ms: Number(r.latency_ms),
  };
}
