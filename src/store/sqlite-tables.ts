/**
 * Tables on kfbench's SQLite interface: the check that a table has the columns a cache of this
 * version needs, and a key → bytes table.
 */
import { BadInputError, InternalError } from '../errors.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-types.js';

/**
 * A file whose table `table` lacks one of `names` (a cache of another program or version: a
 * table of the right name, without its key column) is bad input naming the file, the table and
 * the column — not SQLite's bare "no such column" from the first statement (exit 1).
 */
export function requireColumns(db: SqliteDatabase, table: string, names: readonly string[]): void {
  const have = new Set(db.columns(table));
  const lacking = names.filter((n) => !have.has(n));
  if (lacking.length)
    throw new BadInputError(
      `its ${table} table has no ${lacking.join(', ')} column${lacking.length > 1 ? 's' : ''}: not a kfbench cache of this version (give another file)`,
      { file: db.path },
    );
}

/**
 * A key → bytes table. Keys are hex digests; values opaque. In a file opened read-only that lacks
 * the table (a judge cache no compass run has used), the table is empty: a read-only command (a
 * --dry-run counting what is cached) finds nothing in it rather than failing.
 */
export class KvTable {
  private readonly getStmt: SqliteStatement<{ value: Uint8Array }> | undefined;
  private readonly putStmt: SqliteStatement | undefined;
  constructor(
    readonly db: SqliteDatabase,
    readonly table: string,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new InternalError(`bad table name ${table}`);
    if (!db.readOnly) {
      db.exec(
        `CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, value BLOB NOT NULL, created REAL NOT NULL)`,
      );
    } else if (!db.hasTable(table)) {
      return;
    }
    requireColumns(db, table, ['key', 'value', 'created']);
    this.getStmt = db.prepare(`SELECT value FROM ${table} WHERE key = ?`);
    this.putStmt = db.readOnly
      ? undefined
      : db.prepare(`INSERT OR REPLACE INTO ${table} (key, value, created) VALUES (?, ?, ?)`);
  }
  get(key: string): Buffer | undefined {
    const v = this.getStmt?.get(key)?.value;
    return v === undefined ? undefined : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  put(key: string, value: Uint8Array): void {
    if (!this.putStmt)
      throw new InternalError(`${this.db.path}: ${this.table} written through a read-only open`);
    this.putStmt.run(key, value, Date.now() / 1000);
  }
  putMany(rows: { key: string; value: Uint8Array }[]): void {
    this.db.transaction(() => {
      for (const r of rows) this.put(r.key, r.value);
    });
  }
  count(): number {
    if (!this.getStmt) return 0;
    return this.db.prepare<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.table}`).get()?.n ?? 0;
  }
}
