/**
 * kfbench's own small interface to SQLite (the database, its statements, the values they bind and
 * return), implemented by sqlite.ts on `node:sqlite`.
 */

/** A value SQLite stores: what a statement binds and what a row holds. */
export type SqlValue = null | number | bigint | string | Uint8Array;
/** Positional values, or one object of named values (`@name` in the SQL, `name` in the object). */
export type SqlParams = SqlValue[] | [Record<string, SqlValue>];

export interface SqliteStatement<Row = Record<string, SqlValue>> {
  get(...params: SqlParams): Row | undefined;
  all(...params: SqlParams): Row[];
  run(...params: SqlParams): { changes: number };
  iterate(...params: SqlParams): IterableIterator<Row>;
}

export interface SqliteDatabase {
  /** The file (or `:memory:`). */
  readonly path: string;
  readonly readOnly: boolean;
  exec(sql: string): void;
  prepare<Row = Record<string, SqlValue>>(sql: string): SqliteStatement<Row>;
  /**
   * Runs `fn` in one transaction and returns its result; a throw rolls it back. A nested call is a
   * savepoint. `immediate` takes the write lock before `fn` reads anything.
   */
  transaction<R>(fn: () => R, mode?: 'deferred' | 'immediate'): R;
  /** The value of a pragma that returns one (`page_count`, `journal_mode`, …). */
  pragma(name: string): SqlValue | undefined;
  /** `PRAGMA quick_check`: undefined when the file is sound, else SQLite's first complaint. */
  quickCheck(): string | undefined;
  /** Whether a table of that name exists. */
  hasTable(name: string): boolean;
  /** The column names of a table (none when it does not exist). */
  columns(table: string): string[];
  close(): void;
}

export interface OpenOptions {
  /** Open for reading only: nothing is created or written, and the file must exist. */
  readOnly?: boolean;
  /** The file must already exist (a reading command never creates one). Implied by readOnly. */
  mustExist?: boolean;
}
