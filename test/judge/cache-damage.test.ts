/**
 * Damaged, foreign and missing judge caches on real files: every command names the file in one
 * line, a reading command never creates or grows a file, `cache merge` checks its inputs before
 * writing and leaves no output when it fails, and a full disk (a real 1 MB tmpfs) is exit 4.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/errors.js';
import { JudgeCache } from '../../src/judge/cache.js';
import type { CachedAnswer } from '../../src/judge/cache-rows.js';
import { openDatabase } from '../../src/store/sqlite.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';

const meta = { backend: 'openai', model: 'm', protocol: 'pairwise' };
const answer = (i: number): CachedAnswer => ({
  answer: { winner: i % 2 ? 'A' : 'B' },
  unresolved: null,
  raw: [`{"winner":"${i % 2 ? 'A' : 'B'}", "why": "${'x'.repeat(300)}"}`],
  usage: { prompt_tokens: 10, completion_tokens: 2 },
  latency_ms: 5,
});

/** A closed cache of `n` answers (n = 200 spans ~20 pages of 4 KB). */
function cacheWith(file: string, n: number, prefix = 'k'): string {
  const c = new JudgeCache(file);
  for (let i = 0; i < n; i++) c.put(`${prefix}${i}`, meta, answer(i));
  c.close();
  return file;
}

/** Overwrites bytes in the middle of the file: a data page no longer parses as a b-tree page. */
function damagePage(file: string, page = 5): string {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(3000, 0xab), 0, 3000, page * 4096 + 8);
  closeSync(fd);
  return file;
}

const oneLine = (s: string) => s.trim().split('\n');

describe('reading a judge cache never creates or changes a file', () => {
  it('cache stats / export / prune on a missing file: exit 3 naming it, and no file appears', async () => {
    const d = tempDir();
    const missing = join(d, 'nope.sqlite');
    for (const args of [
      ['cache', 'stats', '--cache', missing],
      ['cache', 'export', '--cache', missing],
      ['cache', 'prune', '--cache', missing, '--unresolved'],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(missing);
      expect(existsSync(missing)).toBe(false);
    }
    expect(readdirSync(d)).toEqual([]);
  });

  it('a data page of junk: cache stats is exit 3 naming the file in one line, not "internal error"', async () => {
    const d = tempDir();
    const f = damagePage(cacheWith(join(d, 'c.sqlite'), 200));
    const r = await runCli(['cache', 'stats', '--cache', f]);
    expect(r.code, r.stderr).toBe(3);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(f);
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('a cache whose judge_answers table lacks its key column (issue 46 item 11)', () => {
  it('cache stats / export / prune / merge: exit 3 naming the file and the column (was exit 1), no output', async () => {
    const d = tempDir();
    const f = join(d, 'foreign.sqlite');
    const db = openDatabase(f);
    db.exec(
      'CREATE TABLE judge_answers (id TEXT, backend TEXT, model TEXT, protocol TEXT, answer TEXT, unresolved TEXT, raw TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, latency_ms REAL, created REAL)',
    );
    db.close();
    const out = join(d, 'merged.sqlite');
    for (const args of [
      ['cache', 'stats', '--cache', f],
      ['cache', 'export', '--cache', f],
      ['cache', 'prune', '--cache', f, '--unresolved'],
      ['cache', 'merge', f, '--out', out],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(`${f}: its judge_answers table has no key column`);
    }
    expect(existsSync(out)).toBe(false);
    // a run that would write to it refuses it too (the library, as every judge command opens it)
    expect(() => new JudgeCache(f)).toThrow(BadInputError);
  });
});

describe('a cache of answers only, and a damaged answer (issue 46 item 11: exit 1 where 3 is due)', () => {
  const ANSWERS =
    'CREATE TABLE judge_answers (key TEXT PRIMARY KEY, backend TEXT NOT NULL, model TEXT NOT NULL, protocol TEXT NOT NULL, answer TEXT, unresolved TEXT, raw TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, latency_ms REAL NOT NULL, created REAL NOT NULL)';
  /** A file with judge_answers only (no judge_claims, as before claims existed), holding `answer` for key k1. */
  function answersOnly(file: string, answerText: string): string {
    const db = openDatabase(file);
    db.exec(ANSWERS);
    db.prepare('INSERT INTO judge_answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      ...['k1', 'openai', 'm', 'pairwise', answerText, null, '["r"]', 1, 1, 1, 1],
    );
    db.close();
    return file;
  }

  it('no judge_claims table: cache stats and export read it (they were internal errors, exit 1)', async () => {
    const f = answersOnly(join(tempDir(), 'old.sqlite'), '{"winner":"A"}');
    const stats = await runCli(['cache', 'stats', '--cache', f]);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(/^1 answers/);
    const exp = await runCli(['cache', 'export', '--cache', f]);
    expect(exp.code, exp.stderr).toBe(0);
    expect(JSON.parse(exp.stdout).answer).toEqual({ winner: 'A' });
  });

  it('an answer column that is not JSON: export and merge exit 3 naming the file and the key, no output', async () => {
    const d = tempDir();
    const f = answersOnly(join(d, 'damaged.sqlite'), '{not json');
    const out = join(d, 'merged.sqlite');
    for (const args of [
      ['cache', 'export', '--cache', f],
      ['cache', 'merge', f, '--out', out],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(`${f}: the answer of key k1 is not JSON`);
    }
    expect(existsSync(out)).toBe(false);
  });
});

describe('kfbench cache merge checks every input before writing', () => {
  const cases: [string, (file: string) => void][] = [
    ['zero bytes', (f) => writeFileSync(f, '')],
    ['text', (f) => writeFileSync(f, 'this is not a database\n'.repeat(50))],
    [
      'a junk header',
      (f) => {
        cacheWith(f, 50, 'j');
        const fd = openSync(f, 'r+');
        writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0);
        closeSync(fd);
      },
    ],
    [
      'truncated',
      (f) => {
        cacheWith(f, 200, 't');
        execFileSync('truncate', ['-s', String(3 * 4096 + 100), f]);
      },
    ],
    [
      'junk in a data page',
      (f) => {
        damagePage(cacheWith(f, 200, 'p'));
      },
    ],
  ];
  for (const [what, make] of cases) {
    it(`${what}: exit 3 naming that input, the input left as it was, no output`, async () => {
      const d = tempDir();
      const good = cacheWith(join(d, 'good.sqlite'), 20);
      const bad = join(d, 'bad.sqlite');
      make(bad);
      const before = statSync(bad);
      const out = join(d, 'merged.sqlite');
      // the good input first: a merge that wrote as it went would already hold its answers
      const r = await runCli(['cache', 'merge', good, bad, '--out', out]);
      expect(r.code, r.stderr).toBe(3);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(bad);
      const after = statSync(bad);
      expect(after.size).toBe(before.size);
      expect(after.mtimeMs).toBe(before.mtimeMs);
      expect(readdirSync(d).filter((f) => f.startsWith('merged') || f.includes('partial'))).toEqual([]);
    });
  }
});

describe('a full disk', () => {
  const mnt = join(tempDir(), 'small');
  mkdirSync(mnt);
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt], { stdio: 'ignore' });
    mounted = true;
  } catch {
    // not root, or no tmpfs: the test below says so
  }
  afterAll(() => {
    if (mounted) execFileSync('umount', [mnt]);
  });
  it.skipIf(!mounted)(
    'cache merge into a 256 KB tmpfs: exit 4 naming the output, nothing left there',
    async () => {
      const d = tempDir();
      const a = cacheWith(join(d, 'a.sqlite'), 600, 'a');
      const out = join(mnt, 'merged.sqlite');
      const r = await runCli(['cache', 'merge', a, '--out', out]);
      expect(r.code, r.stderr).toBe(4);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/disk is full|cannot write/);
      expect(r.stderr).toContain(mnt);
      expect(readdirSync(mnt)).toEqual([]);
    },
  );
});
