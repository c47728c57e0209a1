/** store/: atomic writes, canonical JSON and cache keys, the SQLite key-value table, whole-file reads, checked child processes — on real files and real processes. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/store/atomic-write.js';
import { cacheKey, canonicalJson, sha256File, sha256Hex } from '../../src/store/canonical.js';
import { readTextFile } from '../../src/store/limits.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { KvTable } from '../../src/store/sqlite-tables.js';
import { tempDir } from '../support/paths.js';

describe('writeFileAtomic', () => {
  it('creates the folders, replaces the old content whole and leaves no temp file', async () => {
    const dir = tempDir();
    const f = join(dir, 'a', 'b', 'out.json');
    await writeFileAtomic(f, 'first');
    await writeFileAtomic(f, new Uint8Array([0x32, 0x6e, 0x64]));
    expect(readFileSync(f, 'utf8')).toBe('2nd');
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['out.json']);
  });

  it('a target it cannot write (a folder in its place) rejects and leaves no temp file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'taken'));
    await expect(writeFileAtomic(join(dir, 'taken'), 'x')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});

describe('canonical JSON and cache keys', () => {
  it('does not depend on key order, drops undefined, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: undefined } })).toBe('{"a":{"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('a cache key changes with its namespace and with any part, not with key order', () => {
    const k = cacheKey('judge/v1', { model: 'm', q: 'x' });
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey('judge/v1', { q: 'x', model: 'm' })).toBe(k);
    expect(cacheKey('judge/v2', { model: 'm', q: 'x' })).not.toBe(k);
    expect(cacheKey('judge/v1', { model: 'm', q: 'y' })).not.toBe(k);
  });

  it('a file hashes as its bytes do', async () => {
    const f = join(tempDir(), 'x.bin');
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) & 255);
    writeFileSync(f, bytes);
    expect(await sha256File(f)).toBe(sha256Hex(bytes));
    // the well-known digest of the empty string
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('the SQLite key-value table', () => {
  it('stores, replaces and counts; a second connection to the same file sees the rows', () => {
    const file = join(tempDir(), 'sub', 'cache.sqlite');
    const db = openDatabase(file);
    const t = new KvTable(db, 'answers');
    expect(t.get('k1')).toBeUndefined();
    t.put('k1', new Uint8Array([1, 2, 3]));
    t.putMany([
      { key: 'k2', value: Buffer.from('two') },
      { key: 'k1', value: new Uint8Array([9]) },
    ]);
    expect(t.count()).toBe(2);
    expect([...t.get('k1')!]).toEqual([9]);
    const other = new KvTable(openDatabase(file), 'answers');
    expect(other.get('k2')!.toString()).toBe('two');
    expect(db.pragma('journal_mode')).toBe('wal');
    other.db.close();
    db.close();
  });

  it('a table name that is not a plain identifier is refused; a folder is not a cache', () => {
    const db = openDatabase(':memory:');
    expect(() => new KvTable(db, 'x; DROP TABLE y')).toThrow(/bad table name/);
    db.close();
    const dir = tempDir();
    expect(() => openDatabase(dir)).toThrow(BadInputError);
  });

  it('a table of that name without its key column is bad input naming the file and column (issue 46 item 11)', () => {
    const file = join(tempDir(), 'foreign.sqlite');
    const db = openDatabase(file);
    db.exec('CREATE TABLE embeddings (k TEXT PRIMARY KEY, value BLOB NOT NULL, created REAL NOT NULL)');
    let err: unknown;
    try {
      new KvTable(db, 'embeddings');
    } catch (e) {
      err = e;
    }
    db.close();
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toBe(
      `${file}: its embeddings table has no key column: not a kfbench cache of this version (give another file)`,
    );
  });
});

describe('readTextFile', () => {
  it('reads a file; a missing one, a folder or one past the limit is bad input naming it', () => {
    const dir = tempDir();
    const f = join(dir, 'a.txt');
    writeFileSync(f, 'hello');
    expect(readTextFile(f)).toBe('hello');
    expect(() => readTextFile(join(dir, 'nope'))).toThrow(`${join(dir, 'nope')}: no such file`);
    expect(() => readTextFile(join(dir, 'nope'), { missing: 'run X first' })).toThrow(/: run X first$/);
    expect(() => readTextFile(dir)).toThrow(/is a folder, not a file/);
    expect(() => readTextFile(f, { max: 4 })).toThrow(/too large/);
  });
});
