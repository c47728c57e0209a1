/**
 * The only file that imports better-sqlite3. A SQLite file in WAL mode with a busy timeout, so
 * that several processes can share one cache file: readers never block, writers wait their turn.
 *
 * Two majors of better-sqlite3 are installed, one per Node line: 12 on Node 20 (13 crashes
 * there), 13 on Node 22 and later (12's statements abort the process at exit on Node ≥ 24.19,
 * "Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook). Their API is the same.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { BadInputError } from '../errors.js';

export type SqliteDatabase = BetterSqlite3.Database;

/** The better-sqlite3 package for this Node line. */
export const SQLITE_PACKAGE =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';
const Database = createRequire(import.meta.url)(SQLITE_PACKAGE) as typeof BetterSqlite3;

export function openDatabase(path: string): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // Switching a new file to WAL takes an exclusive lock and does not wait on the busy handler, so
  // two processes creating one cache at once retry that step briefly.
  const deadline = Date.now() + 30_000;
  for (;;) {
    let db: SqliteDatabase | undefined;
    try {
      db = new Database(path, { timeout: 30_000 });
      db.pragma('busy_timeout = 30000');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      return db;
    } catch (e) {
      db?.close();
      const busy = /locked|busy/i.test((e as Error).message);
      if (!busy || Date.now() > deadline) {
        throw new BadInputError(`cannot open as a SQLite cache (${(e as Error).message})`, { file: path });
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 + Math.random() * 30);
    }
  }
}

/** A key → bytes table. Keys are hex digests; values opaque. */
export class KvTable {
  private readonly getStmt: BetterSqlite3.Statement<[string], { value: Buffer }>;
  private readonly putStmt: BetterSqlite3.Statement<[string, Buffer, number]>;
  constructor(
    readonly db: SqliteDatabase,
    readonly table: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad table name ${table}`);
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, value BLOB NOT NULL, created REAL NOT NULL)`,
    );
    this.getStmt = db.prepare(`SELECT value FROM ${table} WHERE key = ?`);
    this.putStmt = db.prepare(`INSERT OR REPLACE INTO ${table} (key, value, created) VALUES (?, ?, ?)`);
  }
  get(key: string): Buffer | undefined {
    return this.getStmt.get(key)?.value;
  }
  put(key: string, value: Uint8Array): void {
    this.putStmt.run(key, Buffer.from(value.buffer, value.byteOffset, value.byteLength), Date.now() / 1000);
  }
  putMany(rows: { key: string; value: Uint8Array }[]): void {
    this.db.transaction(() => {
      for (const r of rows) this.put(r.key, r.value);
    })();
  }
  count(): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM ${this.table}`).get() as { n: number }).n;
  }
}
