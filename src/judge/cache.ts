/**
 * The judge cache: SQLite (WAL), keyed by sha256 over canonical JSON of everything that determines
 * the answer — backend, model, backend identity (e.g. local weights hash), protocol name and
 * template version, rendered prompt, hashes of the image bytes actually sent in placement order,
 * and sampling parameters. The base URL is not in the key (endpoints of one model share answers);
 * no secret ever is. Errors are never cached; an unresolved-after-re-ask outcome is (it is the
 * judge's answer). Two processes sharing a file never duplicate a row (INSERT OR IGNORE).
 *
 * Image hashes (`judge_image_hashes`): the sha256 of the JPEG an image file became, by the
 * file's own hash and the encoding settings — so a later run rebuilds a question's key without
 * decoding and re-encoding the image (it encodes only the images of the questions it asks). 64
 * bytes of hash a row, never the image.
 *
 * Claims: before asking, a process claims the question (a row in `judge_claims` with its owner
 * and a lease). Another process that finds a live claim waits for the answer instead of asking
 * again; the claimant renews its leases while it works (every third of the lease), so a claim
 * outlives its lease only if its process died — then another process takes it over and asks.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { abortReason } from '../concurrency/abort.js';
import { defined } from '../defined.js';
import { BadInputError } from '../errors.js';
import { cacheKey } from '../store/canonical.js';
import { openDatabase } from '../store/sqlite.js';
import { requireColumns } from '../store/sqlite-tables.js';
import type { SqliteDatabase, SqliteStatement, SqlValue } from '../store/sqlite-types.js';
import { ImageHashMemo } from './cache-image-hashes.js';
import { ANSWER_COLUMNS, type CachedAnswer, CLAIM_COLUMNS, toAnswer } from './cache-rows.js';

const JUDGE_CACHE_NAMESPACE = 'kfbench/judge/v1';

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

export interface CacheRow extends CachedAnswer {
  key: string;
  backend: string;
  model: string;
  protocol: string;
  created: number;
}

interface ClaimStatements {
  state: SqliteStatement<{ answered: number; owner: string | null; expires: number | null }>;
  take: SqliteStatement;
  renew: SqliteStatement;
  release: SqliteStatement;
}

/** How long a claim lasts without renewal (a dead claimant's questions are asked again after it). */
export const DEFAULT_CLAIM_LEASE_MS = 30_000;

export interface JudgeCacheOptions {
  /** Lease of an in-flight claim, ms (default 30 s). */
  leaseMs?: number;
  /**
   * Open an existing cache for reading only (`cache stats`, `export`, the inputs of `cache merge`):
   * nothing is created or written; a missing file, or one that holds no judge cache, is bad input.
   */
  readOnly?: boolean;
  /** The file must exist already (`cache prune`): a reading or pruning command never creates one. */
  mustExist?: boolean;
}

/** `mine`: ask it now; `answered`: the cache has the answer; `taken`: another live process is asking. */
export type ClaimState = 'mine' | 'answered' | 'taken';

export class JudgeCache {
  readonly db: SqliteDatabase;
  readonly leaseMs: number;
  /** Who holds a claim: host, pid and a per-instance nonce. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly getStmt: SqliteStatement;
  private readonly putStmt: SqliteStatement;
  private readonly held = new Set<string>();
  private renewTimer: NodeJS.Timeout | undefined;
  /** The claim statements, prepared on first use (a cache read only may have no judge_claims). */
  private claimStmts: ClaimStatements | undefined;
  private readonly images: ImageHashMemo;
  constructor(
    readonly path: string,
    opts: JudgeCacheOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? DEFAULT_CLAIM_LEASE_MS;
    this.db = openDatabase(path, defined({ readOnly: opts.readOnly, mustExist: opts.mustExist }));
    if (opts.readOnly || opts.mustExist) {
      if (!this.db.hasTable('judge_answers')) {
        this.db.close();
        throw new BadInputError('holds no kfbench judge cache (no judge_answers table)', { file: path });
      }
    }
    if (!opts.readOnly) this.createTables();
    try {
      requireColumns(this.db, 'judge_answers', ANSWER_COLUMNS);
      if (this.db.hasTable('judge_claims')) requireColumns(this.db, 'judge_claims', CLAIM_COLUMNS);
      if (this.db.hasTable('judge_image_hashes'))
        requireColumns(this.db, 'judge_image_hashes', ['source', 'sha256']);
    } catch (e) {
      this.db.close();
      throw e;
    }
    this.getStmt = this.db.prepare('SELECT * FROM judge_answers WHERE key = ?');
    this.putStmt = this.db.prepare(
      `INSERT OR IGNORE INTO judge_answers (key, backend, model, protocol, answer, unresolved, raw, prompt_tokens, completion_tokens, latency_ms, created)
       VALUES (@key, @backend, @model, @protocol, @answer, @unresolved, @raw, @prompt_tokens, @completion_tokens, @latency_ms, @created)`,
    );
    this.images = new ImageHashMemo(this.db, !!opts.readOnly);
  }

  /**
   * The claim statements. Prepared when first needed: a cache opened to read (`cache stats`,
   * `export`, a merge's inputs) never claims, and one written before claims existed has no
   * judge_claims table (preparing them up front made reading it an internal error, exit 1).
   */
  private get claims(): ClaimStatements {
    this.claimStmts ??= {
      state: this.db.prepare(
        `SELECT EXISTS(SELECT 1 FROM judge_answers WHERE key = @key) AS answered,
              (SELECT owner FROM judge_claims WHERE key = @key) AS owner,
              (SELECT expires FROM judge_claims WHERE key = @key) AS expires`,
      ),
      take: this.db.prepare('INSERT OR REPLACE INTO judge_claims (key, owner, expires) VALUES (?, ?, ?)'),
      renew: this.db.prepare('UPDATE judge_claims SET expires = ? WHERE key = ? AND owner = ?'),
      release: this.db.prepare('DELETE FROM judge_claims WHERE key = ? AND owner = ?'),
    };
    return this.claimStmts;
  }

  private createTables(): void {
    this.db.exec(`CREATE TABLE IF NOT EXISTS judge_answers (
      key TEXT PRIMARY KEY, backend TEXT NOT NULL, model TEXT NOT NULL, protocol TEXT NOT NULL,
      answer TEXT, unresolved TEXT, raw TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,
      completion_tokens INTEGER NOT NULL, latency_ms REAL NOT NULL, created REAL NOT NULL)`);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS judge_claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires REAL NOT NULL)',
    );
  }

  /** The sha256 of the image encoded from `source` (a key of the file and the settings), if known. */
  imageHash(source: string): string | undefined {
    return this.images.get(source);
  }

  /** Remember what `source` encodes to (written with the others learnt in the same tick). */
  rememberImageHash(source: string, sha256: string): void {
    this.images.remember(source, sha256);
  }

  /**
   * Claim a question before asking it (one immediate transaction, so two processes cannot both
   * get `mine`). A `mine` claim is renewed until `put` or `release`.
   */
  claim(key: string): ClaimState {
    const state = this.db.transaction((): ClaimState => {
      const now = Date.now();
      const st = this.claims.state.get({ key })!;
      if (st.answered) return 'answered';
      if (st.owner !== null && st.owner !== this.owner && (st.expires ?? 0) > now) return 'taken';
      this.claims.take.run(key, this.owner, now + this.leaseMs);
      return 'mine';
    }, 'immediate');
    if (state === 'mine') {
      this.held.add(key);
      this.renewTimer ??= setInterval(() => this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
      this.renewTimer.unref();
    }
    return state;
  }

  /** What another process's claim looks like now (`taken` only while its lease runs). */
  claimState(key: string): Exclude<ClaimState, 'mine'> | 'free' {
    const s = this.claims.state.get({ key })!;
    if (s.answered) return 'answered';
    if (s.owner !== null && s.owner !== this.owner && (s.expires ?? 0) > Date.now()) return 'taken';
    return 'free';
  }

  /** Wait (polling the file) until a question claimed elsewhere is answered or its claim is gone. */
  async waitForClaim(key: string, signal?: AbortSignal): Promise<void> {
    const every = Math.min(200, Math.max(5, Math.floor(this.leaseMs / 10)));
    while (this.claimState(key) === 'taken') {
      if (signal?.aborted) throw abortReason(signal);
      await new Promise<void>((r) => setTimeout(r, every));
    }
  }

  /** Give up a claim without an answer (the question failed; another process may ask it). */
  release(key: string): void {
    if (!this.held.delete(key)) return;
    this.claims.release.run(key, this.owner);
    this.stopRenewing();
  }

  private renew(): void {
    const until = Date.now() + this.leaseMs;
    try {
      this.db.transaction(() => {
        for (const k of this.held) this.claims.renew.run(until, k, this.owner);
      });
    } catch {
      // a busy file: the next tick tries again, well within the lease
    }
  }

  private stopRenewing(): void {
    if (this.held.size === 0 && this.renewTimer) {
      clearInterval(this.renewTimer);
      this.renewTimer = undefined;
    }
  }

  get(key: string): CachedAnswer | undefined {
    const r = this.getStmt.get(key);
    return r ? toAnswer(r, this.path) : undefined;
  }

  /** Store an answer (and drop this process's claim on it, in the same transaction). */
  put(key: string, meta: { backend: string; model: string; protocol: string }, a: CachedAnswer): void {
    this.db.transaction(() => {
      this.putRow(key, meta, a);
      if (this.held.delete(key)) this.claims.release.run(key, this.owner);
    });
    this.stopRenewing();
  }

  private putRow(
    key: string,
    meta: { backend: string; model: string; protocol: string },
    a: CachedAnswer,
  ): void {
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
    const count = (sql: string) => this.db.prepare<{ n: number }>(sql).get()?.n ?? 0;
    const rows = count('SELECT COUNT(*) AS n FROM judge_answers');
    const unresolved = count('SELECT COUNT(*) AS n FROM judge_answers WHERE unresolved IS NOT NULL');
    const by_model = this.db
      .prepare<{ backend: string; model: string; protocol: string; n: number }>(
        'SELECT backend, model, protocol, COUNT(*) AS n FROM judge_answers GROUP BY backend, model, protocol ORDER BY backend, model, protocol',
      )
      .all();
    const page = Number(this.db.pragma('page_count'));
    const size = Number(this.db.pragma('page_size'));
    return { rows, unresolved, by_model, bytes: page * size };
  }

  *rows(): Generator<CacheRow> {
    for (const r of this.db.prepare('SELECT * FROM judge_answers ORDER BY created, key').iterate()) {
      yield {
        ...toAnswer(r, this.path),
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
    const args: Record<string, SqlValue> = {};
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
    this.images.flush(true);
    for (const k of [...this.held]) this.release(k);
    this.stopRenewing();
    this.db.close();
  }
}
