/**
 * The only file that touches SQLite: Node's built-in `node:sqlite` (no native add-on to compile or
 * download), behind kfbench's own small interface, so a later change of module touches this file
 * alone. A file in WAL mode with a busy timeout, so that several processes can share one cache
 * file: readers never block, writers wait their turn.
 *
 * Errors name the file: a damaged or foreign file is bad input (exit 3); a full disk, a read-only
 * or unwritable place is the environment (exit 4).
 */
import { accessSync, existsSync, constants as fsConstants, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as NodeSqlite from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { BackendError, BadInputError, InternalError, KfbenchError } from '../errors.js';
import { loadNative } from '../native.js';
import type { OpenOptions, SqliteDatabase, SqliteStatement, SqlParams, SqlValue } from './sqlite-types.js';

// SQLite's primary result codes (https://sqlite.org/rescode.html) that say whose fault it is.
const SQLITE_PERM = 3;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

type SqliteModule = typeof NodeSqlite;
let sqliteModule: SqliteModule | undefined;

/**
 * node:sqlite, loaded on first use. On Node 22 it announces itself as experimental on stderr when
 * first loaded; that one warning is dropped here (and only that one), so a normal command prints
 * nothing but its output. Node 24 no longer emits it.
 */
function sqlite(): SqliteModule {
  if (sqliteModule) return sqliteModule;
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    sqliteModule = loadNative(
      'node:sqlite',
      () => createRequire(import.meta.url)('node:sqlite') as SqliteModule,
    );
  } finally {
    process.emitWarning = emit;
  }
  return sqliteModule;
}

/** SQLite's result code of an error thrown by node:sqlite, if it is one. */
function resultCode(e: unknown): number | undefined {
  const code = (e as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** A node:sqlite error as kfbench's typed error naming the file (a KfbenchError passes through). */
export function sqliteError(e: unknown, path: string): Error {
  if (e instanceof KfbenchError) return e;
  const message = (e as Error)?.message ?? String(e);
  switch (resultCode(e)) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return new BadInputError(`is not a sound SQLite file (${message}); delete it or give another`, {
        file: path,
        cause: e,
      });
    case SQLITE_FULL:
      return new BackendError(`${path}: the disk is full (${message})`, { cause: e });
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      return new BackendError(`${path}: cannot write there (${message})`, { cause: e });
    case SQLITE_IOERR:
      return new BackendError(`${path}: input/output error (${message})`, { cause: e });
    default:
      return e instanceof Error ? e : new Error(message);
  }
}

const isBusy = (e: unknown) => {
  const c = resultCode(e);
  return c === SQLITE_BUSY || c === SQLITE_LOCKED || /locked|busy/i.test((e as Error)?.message ?? '');
};

class Statement<Row> implements SqliteStatement<Row> {
  constructor(
    private readonly stmt: NodeSqlite.StatementSync,
    private readonly path: string,
  ) {}
  private call<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw sqliteError(e, this.path);
    }
  }
  get(...params: SqlParams): Row | undefined {
    return this.call(() => this.stmt.get(...(params as SqlValue[])) as Row | undefined);
  }
  all(...params: SqlParams): Row[] {
    return this.call(() => this.stmt.all(...(params as SqlValue[])) as Row[]);
  }
  run(...params: SqlParams): { changes: number } {
    return this.call(() => ({ changes: Number(this.stmt.run(...(params as SqlValue[])).changes) }));
  }
  iterate(...params: SqlParams): IterableIterator<Row> {
    const it = this.call(() => this.stmt.iterate(...(params as SqlValue[])));
    const path = this.path;
    return (function* () {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = it.next();
        } catch (e) {
          throw sqliteError(e, path);
        }
        if (next.done) return;
        yield next.value as Row;
      }
    })();
  }
}

class Database implements SqliteDatabase {
  private depth = 0;
  constructor(
    private readonly db: NodeSqlite.DatabaseSync,
    readonly path: string,
    readonly readOnly: boolean,
  ) {}
  exec(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (e) {
      throw sqliteError(e, this.path);
    }
  }
  prepare<Row = Record<string, SqlValue>>(sql: string): SqliteStatement<Row> {
    try {
      return new Statement<Row>(this.db.prepare(sql), this.path);
    } catch (e) {
      throw sqliteError(e, this.path);
    }
  }
  transaction<R>(fn: () => R, mode: 'deferred' | 'immediate' = 'deferred'): R {
    const outer = this.depth === 0;
    const savepoint = `kf_${this.depth}`;
    this.exec(outer ? `BEGIN ${mode === 'immediate' ? 'IMMEDIATE' : 'DEFERRED'}` : `SAVEPOINT ${savepoint}`);
    this.depth++;
    try {
      const result = fn();
      this.exec(outer ? 'COMMIT' : `RELEASE ${savepoint}`);
      return result;
    } catch (e) {
      try {
        this.db.exec(outer ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      } catch {
        // SQLite may have rolled back already (a full disk does); the first error is the one to tell
      }
      throw e;
    } finally {
      this.depth--;
    }
  }
  pragma(name: string): SqlValue | undefined {
    if (!/^[a-z_]+$/.test(name)) throw new InternalError(`bad pragma name ${name}`);
    const row = this.prepare(`PRAGMA ${name}`).get();
    return row ? Object.values(row)[0] : undefined;
  }
  quickCheck(): string | undefined {
    const rows = this.prepare<{ quick_check: string }>('PRAGMA quick_check').all();
    const first = rows[0]?.quick_check;
    if (first === 'ok') return undefined;
    // SQLite lists its complaints on several lines under a heading: one line, and how many
    const lines = rows
      .flatMap((r) => r.quick_check.split('\n'))
      .filter((l) => l.trim() !== '' && !l.startsWith('***'));
    if (lines.length === 0) return first ?? 'no answer from quick_check';
    return lines.length === 1 ? lines[0] : `${lines[0]} (and ${lines.length - 1} more)`;
  }
  hasTable(name: string): boolean {
    return (
      this.prepare<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
      ).get(name)?.n === 1
    );
  }
  columns(table: string): string[] {
    return this.prepare<{ name: string }>('SELECT name FROM pragma_table_info(?)')
      .all(table)
      .map((r) => r.name);
  }
  close(): void {
    try {
      this.db.close();
    } catch (e) {
      throw sqliteError(e, this.path);
    }
  }
}

export function openDatabase(path: string, opts: OpenOptions = {}): SqliteDatabase {
  const readOnly = opts.readOnly === true;
  if (path !== ':memory:') {
    if (existsSync(path) && statSync(path).isDirectory())
      throw new BadInputError('is a folder, not a SQLite file', { file: path });
    if (readOnly || opts.mustExist) {
      if (!existsSync(path)) throw new BadInputError('no such SQLite file', { file: path });
    } else {
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch (e) {
        throw new BackendError(`${dirname(path)}: cannot create the folder (${(e as Error).message})`, {
          cause: e,
        });
      }
    }
  }
  const { DatabaseSync } = sqlite();
  // Switching a new file to WAL takes an exclusive lock and does not wait on the busy handler, so
  // two processes creating one cache at once retry that step briefly.
  const deadline = Date.now() + 30_000;
  for (;;) {
    let raw: NodeSqlite.DatabaseSync | undefined;
    try {
      raw = new DatabaseSync(readOnly ? readOnlyTarget(path) : path, { readOnly });
      const db = new Database(raw, path, readOnly);
      raw.exec('PRAGMA busy_timeout = 30000');
      if (readOnly) {
        // reads the header: a file that is not SQLite fails here, naming the file
        raw.prepare('SELECT COUNT(*) FROM sqlite_master').get();
      } else {
        raw.exec('PRAGMA journal_mode = WAL');
        raw.exec('PRAGMA synchronous = NORMAL');
      }
      return db;
    } catch (e) {
      try {
        raw?.close();
      } catch {
        // closing a half-open handle: the open's own error is the one to tell
      }
      if (isBusy(e) && Date.now() < deadline) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 + Math.random() * 30);
        continue;
      }
      const typed = sqliteError(e, path);
      if (typed instanceof KfbenchError) throw typed;
      throw new BadInputError(`cannot open as a SQLite cache (${(e as Error).message})`, {
        file: path,
        cause: e,
      });
    }
  }
}

/**
 * What a read-only open opens: the file as it is (`immutable=1`) when it cannot change — its folder
 * is not writable (a read-only mount, a folder without write permission) and holds no `-wal` — so
 * that SQLite neither needs nor makes its `-shm`/`-wal` files beside it: a WAL file on a read-only
 * mount then opens (it failed: exit 4), and the folder is left as found. No SQLite writer can change
 * such a file: a write in WAL mode goes through a `-wal` file in that folder, which it cannot make.
 * Otherwise the path itself (read-only): a writer may be at work on it, and SQLite's shared-memory
 * file is how a reader sees its commits; on a writable folder SQLite may leave that file and an
 * empty `-wal` (removing them safely needs the lock only SQLite holds).
 */
function readOnlyTarget(path: string): string | URL {
  if (path === ':memory:' || existsSync(`${path}-wal`)) return path;
  try {
    accessSync(dirname(path), fsConstants.W_OK);
    return path;
  } catch {
    const url = pathToFileURL(path);
    url.search = 'immutable=1';
    return url;
  }
}
