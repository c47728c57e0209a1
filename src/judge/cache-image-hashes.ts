/**
 * The judge cache's image hashes (`judge_image_hashes`): the sha256 of the JPEG an image file
 * became, by the file's own hash and the encoding settings, so that a later run rebuilds a
 * question's key without decoding and re-encoding the image. Hashes learnt in one tick are written
 * together, in one transaction; the table appears with the first hash.
 */
import type { SqliteDatabase, SqliteStatement } from '../store/sqlite-types.js';

export class ImageHashMemo {
  private getStmt: SqliteStatement<{ sha256: string }> | undefined;
  private putStmt: SqliteStatement | undefined;
  /** Image hashes learnt and not yet written (written together, in one transaction a tick). */
  private readonly pending = new Map<string, string>();
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly readOnly: boolean,
  ) {
    if (db.hasTable('judge_image_hashes')) this.prepare();
  }

  private prepare(): void {
    this.getStmt = this.db.prepare('SELECT sha256 FROM judge_image_hashes WHERE source = ?');
    if (!this.readOnly)
      this.putStmt = this.db.prepare(
        'INSERT OR IGNORE INTO judge_image_hashes (source, sha256) VALUES (?, ?)',
      );
  }

  /** The sha256 of the image encoded from `source` (a key of the file and the settings), if known. */
  get(source: string): string | undefined {
    return this.pending.get(source) ?? this.getStmt?.get(source)?.sha256;
  }

  /** Remember what `source` encodes to (written with the others learnt in the same tick). */
  remember(source: string, sha256: string): void {
    if (this.readOnly || this.closed || this.pending.has(source)) return;
    if (this.pending.size === 0) setImmediate(() => this.flush());
    this.pending.set(source, sha256);
  }

  /** Write what was learnt; `close`: and learn no more (the database is about to close). */
  flush(close = false): void {
    this.write();
    if (close) this.closed = true;
  }

  private write(): void {
    if (this.pending.size === 0 || this.closed) return;
    const created = !this.putStmt;
    try {
      this.db.transaction(() => {
        // the table appears with the first hash (a cache of answers only keeps its layout)
        if (created) {
          this.db.exec(
            'CREATE TABLE IF NOT EXISTS judge_image_hashes (source TEXT PRIMARY KEY, sha256 TEXT NOT NULL)',
          );
          this.prepare();
        }
        const put = this.putStmt;
        if (put) for (const [source, sha] of this.pending) put.run(source, sha);
      });
    } catch {
      // a memo only: a busy or failing file costs the next run an encode, never an answer; a
      // table created in the failed transaction is gone again, and so must its statements be
      if (created) this.getStmt = this.putStmt = undefined;
    }
    this.pending.clear();
  }
}
